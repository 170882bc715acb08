import { describe, expect, it } from 'vitest';
import { DomainError } from './errors.js';
import {
  parseExpiresIn,
  parseFutureDate,
  parseGrace,
  parseNonNegativeInteger,
  parseQuota,
} from './key-limits.js';

describe('key limits', () => {
  it('refuses an expiry in the past', () => {
    expect(() => parseFutureDate('2001-01-01')).toThrow('is in the past');
    expect(() => parseFutureDate('9999-01-01')).toThrow('is more than 100 years ahead');
    const inAYear = new Date(Date.now() + 365 * 86_400_000).toISOString();
    expect(parseFutureDate(inAYear)).toBe(Date.parse(inAYear));
  });

  it('bounds an expiry at 100 years and a grace period at 90 days', () => {
    expect(parseExpiresIn('36500d')).toBe(36_500 * 86_400);
    expect(() => parseExpiresIn('36501d')).toThrow(
      'the expiry must be at most 100 years ahead (36500d); omit it for a key that never expires',
    );
    expect(parseGrace('90d')).toBe(90 * 86_400);
    expect(() => parseGrace('91d')).toThrow(
      'the grace period must be at most 90 days (90d); create a second key to keep two',
    );
    expect(() => parseGrace('0s')).toThrow(DomainError);
  });

  it('parses non-negative integers', () => {
    expect(parseNonNegativeInteger('0')).toBe(0);
    expect(parseNonNegativeInteger('1000')).toBe(1000);
    for (const bad of ['-1', '1.5', '1e3', 'abc', '', '99999999999999999999']) {
      expect(() => parseNonNegativeInteger(bad), bad).toThrow(DomainError);
    }
  });

  it('bounds a quota at a billion uses', () => {
    expect(parseQuota('1000000000')).toBe(1_000_000_000);
    expect(() => parseQuota('1000000001')).toThrow(
      'must be at most 1,000,000,000; omit --remaining for a key without a quota',
    );
  });
});
