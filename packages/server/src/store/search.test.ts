import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { GENERATED_PATH, loadMappings, renderTable } from '../../scripts/case-folding-table.mjs';
import {
  CASE_FOLDING_UNICODE_VERSION,
  caseFoldingMappings,
  foldCase,
  searchText,
} from './search.js';

describe('foldCase', () => {
  it('folds ASCII and Unicode letters to one case', () => {
    expect(foldCase('Widget-XL')).toBe('widget-xl');
    expect(foldCase('ÉCLAIR Ñandú')).toBe('éclair ñandú');
    expect(foldCase('ΣΟΦΟΣ')).toBe(foldCase('σοφος'));
    expect(foldCase('\u212a')).toBe('k'); // Kelvin sign
  });

  it('keeps accents significant', () => {
    expect(foldCase('café')).not.toBe(foldCase('cafe'));
  });

  it('keeps characters whose folding would change length (simple folding)', () => {
    expect(foldCase('Straße')).toBe('straße');
    expect(foldCase('İ')).toBe('İ');
  });

  it('is exactly simple case folding (CaseFolding.txt C + S), not upper-then-lower', () => {
    // Dotless ı has only a Turkic (T) mapping: it stays itself, apart from i and I.
    expect(foldCase('ı')).toBe('ı');
    expect(foldCase('I')).toBe('i');
    expect(foldCase('KIRMIZI')).not.toBe(foldCase('kırmızı'));
    // İ: full (F) and Turkic (T) only.
    expect(foldCase('İ')).not.toBe('i');
    // ẞ → ß (S); ß itself only has a full (F) folding to "ss".
    expect(foldCase('ẞ')).toBe('ß');
    expect(foldCase('ß')).toBe('ß');
    expect(foldCase('ſ')).toBe('s');
    expect(foldCase('\u212A')).toBe('k');
    expect(foldCase('ς')).toBe('σ');
    expect(foldCase('Σ')).toBe('σ');
    // Status S mappings that case mapping alone misses.
    expect(foldCase('\u1FD3')).toBe('\u0390');
    expect(foldCase('\uFB05')).toBe('\uFB06');
    // Cherokee folds to the capitals (the fold target is not always the lower case).
    expect(foldCase('\uAB70')).toBe('\u13A0');
    expect(foldCase('\u13A0')).toBe('\u13A0');
    // Astral letters fold too (Deseret).
    expect(foldCase('\u{10400}')).toBe('\u{10428}');
  });

  // ECMAScript defines case-insensitive Unicode regular expressions (/iu) by simple case
  // folding, so V8 is an independent implementation to check against, over every code point,
  // when this Node carries the same Unicode version as the folding data.
  it.runIf(process.versions.unicode === CASE_FOLDING_UNICODE_VERSION.replace(/\.0$/, ''))(
    `agrees with V8's /iu matching on every code point (Unicode ${CASE_FOLDING_UNICODE_VERSION})`,
    () => {
      const matches = (a: string, b: string) =>
        new RegExp(`^${a.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&')}$`, 'iu').test(b);
      const disagreements: string[] = [];
      for (let cp = 0; cp <= 0x10ffff; cp++) {
        if (cp >= 0xd800 && cp <= 0xdfff) continue;
        const ch = String.fromCodePoint(cp);
        const folded = foldCase(ch);
        // Whatever a code point folds to, /iu matches it to that.
        if (folded !== ch && !matches(ch, folded)) disagreements.push(cp.toString(16));
        // Its case partners match it exactly when they fold to the same.
        for (const other of new Set([ch.toLowerCase(), ch.toUpperCase()])) {
          if (other === ch || [...other].length !== 1) continue;
          if (matches(ch, other) !== (foldCase(other) === folded)) {
            disagreements.push(`${cp.toString(16)}/${other.codePointAt(0)?.toString(16)}`);
          }
        }
      }
      expect(disagreements).toEqual([]);
    },
  );
});

describe('the case folding table', () => {
  it('holds exactly the C and S mappings of the Unicode data it was generated from', async () => {
    const expected = new Map<number, number>(await loadMappings());
    expect(caseFoldingMappings()).toEqual(expected);
  });

  it('is up to date with its generator', async () => {
    const actual = await readFile(GENERATED_PATH, 'utf8');
    expect(
      actual === (await renderTable()),
      'src/store/generated/case-folding.ts is stale: run `npm run generate:case-folding -w stockroom`',
    ).toBe(true);
  });
});

describe('searchText', () => {
  it('separates fields so a match cannot span two of them', () => {
    const text = searchText({ name: 'ab', description: null, sku: 'cd', barcode: null });
    expect(text.includes('bc')).toBe(false);
    expect(text.includes('ab')).toBe(true);
    expect(text.includes('cd')).toBe(true);
  });
});
