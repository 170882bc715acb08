import { describe, expect, it } from 'vitest';
import { DomainError } from './errors.js';
import { parseIsoDate } from './iso-date.js';

describe('ISO dates', () => {
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
      expect(() => parseIsoDate(bad), bad).toThrow(DomainError);
    }
    expect(() => parseIsoDate('2027-02-30')).toThrow(
      '2027-02-30 is not a real date; use an ISO 8601 date such as 2027-01-31 or 2027-01-31T18:00:00Z',
    );
  });
});
