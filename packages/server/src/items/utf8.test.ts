import { describe, expect, it } from 'vitest';
import { Utf8Check } from './utf8.js';

/** Feeds the chunks in turn; the first problem, or the one at the end of the input. */
function check(...chunks: number[][]): { offset: number; line: number } | null {
  const utf8 = new Utf8Check();
  for (const chunk of chunks) {
    const problem = utf8.push(Uint8Array.from(chunk));
    if (problem) return problem;
  }
  return utf8.end();
}

const bytes = (text: string) => [...Buffer.from(text)];

describe('Utf8Check', () => {
  it('accepts UTF-8, a BOM, and sequences split across chunks', () => {
    expect(check(bytes('\uFEFFname\nCafé ☕ 𝄞\n'))).toBeNull();
    const text = bytes('é☕𝄞');
    for (let cut = 1; cut < text.length; cut++) {
      expect(check(text.slice(0, cut), text.slice(cut)), `cut at ${cut}`).toBeNull();
    }
  });

  it.each([
    ['a Latin-1 é', [0x43, 0x61, 0x66, 0xe9, 0x0a]],
    ['a lone continuation byte', [0x43, 0x61, 0x66, 0x80]],
    ['an overlong two-byte form', [0x43, 0x61, 0x66, 0xc0, 0xaf]],
    ['an overlong three-byte form', [0x43, 0x61, 0x66, 0xe0, 0x80, 0xaf]],
    ['a surrogate', [0x43, 0x61, 0x66, 0xed, 0xa0, 0x80]],
    ['a code point above U+10FFFF', [0x43, 0x61, 0x66, 0xf4, 0x90, 0x80, 0x80]],
    ['a byte that never starts a sequence', [0x43, 0x61, 0x66, 0xf5]],
    ['a sequence cut short by the end of the file', [0x43, 0x61, 0x66, 0xe2, 0x82]],
  ])('reports %s at the byte and line where its sequence starts', (_, tail) => {
    const head = bytes('name\nok\n');
    expect(check([...head, ...tail])).toEqual({ offset: head.length + 3, line: 3 });
    // The same, with the lines counted over earlier chunks (the fast path).
    expect(check(head, tail)).toEqual({ offset: head.length + 3, line: 3 });
  });
});
