import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import {
  formatDuration,
  listParser,
  parseDuration,
  parseFutureDate,
  parseIsoDate,
  parseNonNegativeInteger,
  parseRateLimit,
  slugify,
  slugProblem,
} from './values.js';

describe('option values', () => {
  it('parses DURATION into seconds and formats it back', () => {
    expect(parseDuration('45s')).toBe(45);
    expect(parseDuration('90m')).toBe(5400);
    expect(parseDuration('12h')).toBe(43_200);
    expect(parseDuration('30d')).toBe(2_592_000);
    expect(formatDuration(60)).toBe('1m');
    expect(formatDuration(90)).toBe('90s');
    expect(formatDuration(86_400 * 2)).toBe('2d');
    for (const bad of ['0s', '10', '5x', '1.5h', '-1d', '01d', 'd', '5 d', '10S']) {
      expect(() => parseDuration(bad), bad).toThrow(InvalidArgumentError);
    }
  });

  it('parses rate limits', () => {
    expect(parseRateLimit('600/1m')).toEqual({ max: 600, windowSeconds: 60 });
    expect(parseRateLimit('5/10s')).toEqual({ max: 5, windowSeconds: 10 });
    expect(parseRateLimit('none')).toBe('none');
    for (const bad of ['600', '0/1m', '600/0m', '600/', '/1m', '600/1x', 'None', '600/1m/2']) {
      expect(() => parseRateLimit(bad), bad).toThrow(InvalidArgumentError);
    }
  });

  it('parses ISO dates with a zone, refusing impossible and zone-less ones', () => {
    expect(parseIsoDate('2027-01-31')).toBe(Date.UTC(2027, 0, 31));
    expect(parseIsoDate('2027-01-31T18:30:00Z')).toBe(Date.UTC(2027, 0, 31, 18, 30));
    expect(parseIsoDate('2027-01-31T18:30:00.250+02:00')).toBe(
      Date.UTC(2027, 0, 31, 16, 30, 0, 250),
    );
    for (const bad of [
      '2027-02-30',
      '2027-13-01',
      '2027-01-31T18:30:00',
      '31/01/2027',
      'tomorrow',
      '2027-01-31T25:00Z',
    ]) {
      expect(() => parseIsoDate(bad), bad).toThrow(InvalidArgumentError);
    }
    expect(() => parseFutureDate('2001-01-01')).toThrow('is in the past');
  });

  it('parses non-negative integers', () => {
    expect(parseNonNegativeInteger('0')).toBe(0);
    expect(parseNonNegativeInteger('1000')).toBe(1000);
    for (const bad of ['-1', '1.5', '1e3', 'abc', '', '99999999999999999999']) {
      expect(() => parseNonNegativeInteger(bad), bad).toThrow(InvalidArgumentError);
    }
  });

  it('parses lists of known names, with none for the empty list', () => {
    const parse = listParser(['inventory', 'reports'], 'feature');
    expect(parse('inventory')).toEqual(['inventory']);
    expect(parse('inventory, reports,inventory')).toEqual(['inventory', 'reports']);
    expect(parse('none')).toEqual([]);
    expect(() => parse('inventory,billing')).toThrow('unknown feature "billing"');
    expect(() => parse('')).toThrow(InvalidArgumentError);
  });

  it('derives and checks slugs', () => {
    expect(slugify('Acme Outdoor Café')).toBe('acme-outdoor-cafe');
    expect(slugify('  --Déjà   Vu!! 2026 ')).toBe('deja-vu-2026');
    expect(slugify('東京')).toBe('');
    expect(slugify('x'.repeat(70))).toHaveLength(63);
    expect(slugProblem('acme-outdoor')).toBeNull();
    expect(slugProblem('Acme')).not.toBeNull();
    expect(slugProblem('acme--outdoor')).not.toBeNull();
    expect(slugProblem('-acme')).not.toBeNull();
    expect(slugProblem('0123456789abcdef01234567')).toMatch(/must not look like an id/);
  });
});
