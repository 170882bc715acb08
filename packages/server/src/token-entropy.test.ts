import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { estimateEntropyBits } from './token-entropy.js';

describe('estimateEntropyBits', () => {
  it('rates a repeated character, a repeated pattern and a short alphabet low', () => {
    expect(estimateEntropyBits('a'.repeat(32))).toBe(0);
    expect(estimateEntropyBits('')).toBe(0);
    // `abcabc…` holds what one `abc` holds.
    expect(estimateEntropyBits('abc'.repeat(20))).toBeCloseTo(3 * Math.log2(3));
    expect(estimateEntropyBits('ab'.repeat(16))).toBe(2);
    // 40 binary digits: at most 40 bits, however random.
    expect(estimateEntropyBits('0110100111010001011010011101000101101001')).toBeLessThanOrEqual(
      40 * Math.log2(10),
    );
  });

  it('rates a random 32-byte token far above 128 bits, in base64 and in hex', () => {
    for (let i = 0; i < 50; i++) {
      expect(estimateEntropyBits(randomBytes(32).toString('base64'))).toBeGreaterThan(180);
      expect(estimateEntropyBits(randomBytes(32).toString('hex'))).toBeGreaterThan(180);
    }
  });

  it('is never more than length × log2 of the classes used', () => {
    const digits = '82039457163918270465';
    expect(estimateEntropyBits(digits)).toBeLessThanOrEqual(20 * Math.log2(10));
    const mixed = 'aZ3!bY4?cX5#';
    expect(estimateEntropyBits(mixed)).toBeLessThanOrEqual(12 * Math.log2(94));
    expect(estimateEntropyBits(mixed)).toBeCloseTo(12 * Math.log2(12));
  });
});
