import { describe, expect, it } from 'vitest';
import { DomainError } from './errors.js';
import { formatRateLimit, parseRateLimit } from './rate-limit-spec.js';

describe('rate-limit specs', () => {
  it('parses rate limits', () => {
    expect(parseRateLimit('600/1m')).toEqual({ max: 600, windowSeconds: 60 });
    expect(parseRateLimit('5/10s')).toEqual({ max: 5, windowSeconds: 10 });
    expect(parseRateLimit('none')).toBe('none');
    for (const bad of ['600', '0/1m', '600/0m', '600/', '/1m', '600/1x', 'None', '600/1m/2']) {
      expect(() => parseRateLimit(bad), bad).toThrow(DomainError);
    }
  });

  it('bounds MAX and the window, saying how', () => {
    expect(parseRateLimit('1000000000/365d')).toEqual({
      max: 1_000_000_000,
      windowSeconds: 365 * 86_400,
    });
    expect(() => parseRateLimit('1000000001/1m')).toThrow(
      'MAX must be at most 1,000,000,000 requests per window, or use "none"',
    );
    expect(() => parseRateLimit('10/366d')).toThrow(
      'the window must be at most 365 days (365d), e.g. 10000/1d',
    );
  });

  it('writes a policy back as MAX/DURATION, and no policy as none', () => {
    expect(formatRateLimit({ max: 600, windowSeconds: 60 })).toBe('600/1m');
    expect(formatRateLimit({ max: 5, windowSeconds: 90 })).toBe('5/90s');
    expect(formatRateLimit(null)).toBe('none');
  });
});
