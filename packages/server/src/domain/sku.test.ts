import { describe, expect, it } from 'vitest';
import { DomainError } from './errors.js';
import { parseSku } from './sku.js';

describe('skus', () => {
  it('keeps a sku as given, 1 to 100 characters counted as code points', () => {
    expect(parseSku(' DRL-2210 ')).toBe(' DRL-2210 ');
    expect(parseSku('😀'.repeat(100))).toBe('😀'.repeat(100));
    for (const bad of ['', 'x'.repeat(101)]) {
      expect(() => parseSku(bad)).toThrow(new DomainError('sku', 'must be 1-100 characters'));
    }
  });
});
