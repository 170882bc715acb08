import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isJsonText } from './json-syntax.js';

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

const check = (text: string) => isJsonText(Buffer.from(text));

describe('isJsonText', () => {
  it('accepts JSON texts of every kind, with spaces and tabs around tokens', () => {
    for (const text of [
      '{}',
      ' [ ] ',
      '{"a":1,"b":[true,false,null],"c":{"d":"e"}}',
      '\t{ "a" : [ 1 , -0.5e+3 , 2E-2 , 0 ] }\t',
      '"x"',
      '-12.25',
      'null',
      '"\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u00e9 \\ud800 é ☕ \u2028 \u007f"',
      '[[[[[]]]]]',
      '{"__proto__":{"a":1},"a":2,"a":3}',
    ]) {
      expect(check(text), text).toBe(true);
      expect(parses(text), text).toBe(true);
    }
  });

  it('refuses what JSON.parse refuses', () => {
    for (const text of [
      '',
      '  ',
      '{',
      '{"a":1,}',
      '[1,]',
      '[,1]',
      '{"a" 1}',
      '{a:1}',
      "{'a':1}",
      '01',
      '-',
      '1.',
      '.5',
      '+1',
      '1e',
      '1e+',
      'nul',
      'truex',
      '"\\a"',
      '"\\u12"',
      '"\\u12g4"',
      '"a\tb"',
      '"unterminated',
      '{"a":1}}',
      '{"a":1} {"b":2}',
      '[1 2]',
      'NaN',
      '\u00a01',
    ]) {
      expect(check(text), text).toBe(false);
      expect(parses(text), text).toBe(false);
    }
  });

  it('refuses, and leaves to JSON.parse, what it does not handle itself: a BOM, line breaks', () => {
    expect(check('\uFEFF{}')).toBe(false);
    expect(check('{"a":\r1}')).toBe(false);
    expect(check('[1,\n2]')).toBe(false);
  });

  it('accepts only what JSON.parse accepts (generated texts and their mutations)', () => {
    const jsonText = fc.json().map((text) => text.replace(/[\n\r]/g, ' '));
    const mutated = fc
      .tuple(
        jsonText,
        fc.nat(),
        fc.nat({ max: 4 }),
        fc.constantFrom(...'{}[],:"\\ -+.eE0123456789tfnul\t'),
      )
      .map(([text, at, remove, insert]) => {
        const i = text.length === 0 ? 0 : at % (text.length + 1);
        return text.slice(0, i) + insert + text.slice(i + remove);
      });
    fc.assert(
      fc.property(jsonText, (text) => check(text) === parses(text)),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.oneof(mutated, fc.string(), fc.string({ unit: 'binary' })), (text) => {
        // Sound: never accepts a text JSON.parse refuses.
        if (check(text)) expect(parses(text)).toBe(true);
      }),
      { numRuns: 5000 },
    );
  });
});
