import { describe, expect, it } from 'vitest';
import { DomainError } from './errors.js';
import { textParser } from './text.js';

describe('names', () => {
  it('trims a name and bounds it in characters', () => {
    const parse = textParser(3);
    expect(parse('  Ana ')).toBe('Ana');
    expect(parse('😀😀😀')).toBe('😀😀😀');
    expect(() => parse('   ')).toThrow(new DomainError('text', 'must not be empty'));
    expect(() => parse('Anna')).toThrow('must be at most 3 characters');
  });
});
