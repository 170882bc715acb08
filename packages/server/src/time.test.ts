import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { iso, isoTime, MAX_TIME, MIN_TIME } from './time.js';

describe('isoTime', () => {
  it('writes what toISOString writes for every millisecond of years 0000-9999', () => {
    fc.assert(
      fc.property(fc.integer({ min: MIN_TIME, max: MAX_TIME }), (ms) => {
        expect(isoTime(ms)).toBe(new Date(ms).toISOString());
      }),
      { numRuns: 20_000 },
    );
  });

  it.each([
    ['the first instant', MIN_TIME, '0000-01-01T00:00:00.000Z'],
    ['the last instant', MAX_TIME, '9999-12-31T23:59:59.999Z'],
    ['the epoch', 0, '1970-01-01T00:00:00.000Z'],
    ['the millisecond before it', -1, '1969-12-31T23:59:59.999Z'],
    ['a leap day', Date.UTC(2000, 1, 29, 12, 34, 56, 789), '2000-02-29T12:34:56.789Z'],
    ['the day after it', Date.UTC(2000, 2, 1), '2000-03-01T00:00:00.000Z'],
    ['a century year that is not leap', Date.UTC(1900, 1, 28, 23, 59), '1900-02-28T23:59:00.000Z'],
    ['a leap day of year 0', Date.parse('0000-02-29T00:00:00.000Z'), '0000-02-29T00:00:00.000Z'],
  ])('writes %s', (_, ms, expected) => {
    expect(isoTime(ms)).toBe(expected);
  });

  it('truncates fractions and clamps what lies outside years 0000-9999', () => {
    expect(isoTime(1.9)).toBe('1970-01-01T00:00:00.001Z');
    expect(isoTime(-1.9)).toBe('1969-12-31T23:59:59.999Z');
    expect(isoTime(MAX_TIME + 1)).toBe('9999-12-31T23:59:59.999Z');
    expect(isoTime(MIN_TIME - 1)).toBe('0000-01-01T00:00:00.000Z');
    expect(isoTime(Number.POSITIVE_INFINITY)).toBe('9999-12-31T23:59:59.999Z');
    expect(isoTime(Number.NEGATIVE_INFINITY)).toBe('0000-01-01T00:00:00.000Z');
    expect(isoTime(Number.NaN)).toBe('9999-12-31T23:59:59.999Z');
    expect(isoTime('not a number' as unknown as number)).toBe('9999-12-31T23:59:59.999Z');
  });

  it('shows no time as null (never used, never expires)', () => {
    expect(iso(null)).toBeNull();
    expect(iso(0)).toBe('1970-01-01T00:00:00.000Z');
  });
});
