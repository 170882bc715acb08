import { describe, expect, it } from 'vitest';
import { DomainError } from './errors.js';
import { locationCodeProblem, parseLocationCode, parseLocationName } from './location.js';

describe('location codes and names', () => {
  it('takes 1-32 characters of letters, digits, dot, underscore and dash, case-sensitive', () => {
    for (const code of ['WH-1', 'a', 'shop.floor_2', 'X'.repeat(32)]) {
      expect(locationCodeProblem(code)).toBeNull();
      expect(parseLocationCode(code)).toBe(code);
    }
  });

  it('refuses anything else, saying what a code is', () => {
    for (const code of ['', 'X'.repeat(33), 'with space', 'é', 'a/b']) {
      expect(locationCodeProblem(code)).toMatch(/1-32 characters/);
      expect(() => parseLocationCode(code)).toThrow(DomainError);
    }
  });

  it('trims names and refuses empty or overlong ones', () => {
    expect(parseLocationName('  Main warehouse ')).toBe('Main warehouse');
    expect(() => parseLocationName('   ')).toThrow(/1-200 characters/);
    expect(() => parseLocationName('x'.repeat(201))).toThrow(/1-200 characters/);
  });
});
