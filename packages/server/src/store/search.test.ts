import { describe, expect, it } from 'vitest';
import { foldCase, searchText } from './search.js';

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
});

describe('searchText', () => {
  it('separates fields so a match cannot span two of them', () => {
    const text = searchText({ name: 'ab', description: null, sku: 'cd', barcode: null });
    expect(text.includes('bc')).toBe(false);
    expect(text.includes('ab')).toBe(true);
    expect(text.includes('cd')).toBe(true);
  });
});
