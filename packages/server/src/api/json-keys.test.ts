import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { withoutTopLevelKeys } from './json-keys.js';

describe('withoutTopLevelKeys', () => {
  it('drops the named top-level keys, first, middle, last, all or none', () => {
    const text = '{"a":1,"b":{"a":2},"c":"x\\"a\\":3","d":[1,{"c":4}]}';
    const drop = (...names: string[]) => withoutTopLevelKeys(text, new Set(names));
    expect(drop()).toBe(text);
    expect(drop('zz')).toBe(text);
    expect(drop('a')).toBe('{"b":{"a":2},"c":"x\\"a\\":3","d":[1,{"c":4}]}');
    expect(drop('b', 'c')).toBe('{"a":1,"d":[1,{"c":4}]}');
    expect(drop('d')).toBe('{"a":1,"b":{"a":2},"c":"x\\"a\\":3"}');
    expect(drop('c', 'd')).toBe('{"a":1,"b":{"a":2}}');
    expect(drop('a', 'b', 'c', 'd')).toBe('{}');
    expect(withoutTopLevelKeys('{}', new Set(['a']))).toBe('{}');
    // A name only in a nested object, or only inside a string, is no top-level key.
    const nested = '{"x":{"cost":1},"y":"\\"cost\\":","cost":2}';
    expect(withoutTopLevelKeys(nested, new Set(['cost']))).toBe(
      '{"x":{"cost":1},"y":"\\"cost\\":"}',
    );
  });

  it('equals parsing, deleting and serializing, for any object and any names', () => {
    const key = fc.oneof(fc.constantFrom('a', 'cost', 'supplier', 'x"y', 'b\\c', ''), fc.string());
    fc.assert(
      fc.property(
        fc.dictionary(key, fc.jsonValue()),
        fc.array(key, { maxLength: 4 }),
        fc.boolean(),
        (object, names, pretty) => {
          const text = pretty ? JSON.stringify(object, null, 2) : JSON.stringify(object);
          const expected = { ...object } as Record<string, unknown>;
          for (const name of names) delete expected[name];
          const result = withoutTopLevelKeys(text, new Set(names));
          expect(JSON.parse(result)).toEqual(JSON.parse(JSON.stringify(expected)));
          // Compact text stays byte for byte what the serializer writes.
          if (!pretty) expect(result).toBe(JSON.stringify(expected));
        },
      ),
      { numRuns: 500 },
    );
  });
});
