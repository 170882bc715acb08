import { describe, expect, it } from 'vitest';
import { encodeSince, parseInstant, parseSince, seqAfterInstant } from './sync.js';

describe('updatedSince values', () => {
  it.each([
    ['2026-11-24T08:00:00Z', Date.UTC(2026, 10, 24, 8)],
    ['2026-11-24t08:00:00z', Date.UTC(2026, 10, 24, 8)],
    ['2026-11-24T08:00Z', Date.UTC(2026, 10, 24, 8)],
    ['2026-11-24T08:00:00.123Z', Date.UTC(2026, 10, 24, 8, 0, 0, 123)],
    ['2026-11-24T08:00:00.123456789Z', Date.UTC(2026, 10, 24, 8, 0, 0, 123)],
    ['2026-11-24T09:00:00+01:00', Date.UTC(2026, 10, 24, 8)],
    ['2026-11-24T09:00:00+0100', Date.UTC(2026, 10, 24, 8)],
    // A "+" the query string decoded as a space.
    ['2026-11-24T09:00:00 01:00', Date.UTC(2026, 10, 24, 8)],
    ['2026-11-24T03:00:00-05:00', Date.UTC(2026, 10, 24, 8)],
    ['2026-11-24 08:00:00Z', Date.UTC(2026, 10, 24, 8)],
    ['2026-11-24', Date.UTC(2026, 10, 24)],
    ['2024-02-29', Date.UTC(2024, 1, 29)],
  ])('reads %s', (value, expected) => {
    expect(parseInstant(value)).toBe(expected);
  });

  it.each([
    '2026-02-30',
    '2025-02-29',
    '2026-13-01',
    '2026-00-10',
    '2026-11-24T24:00:00Z',
    '2026-11-24T08:60:00Z',
    '2026-11-24T08:00:61Z',
    '2026-11-24T08:00:00',
    '2026-11-24T08:00:00+19:00',
    '2026-11-24T08:00:00+01:61',
    '26-11-24',
    'today',
  ])('refuses %s', (value) => {
    expect(parseInstant(value)).toBeNull();
  });

  it('places an instant after every change made within its millisecond', () => {
    const ms = Date.UTC(2026, 10, 24);
    expect(seqAfterInstant(ms)).toBe(ms * 1000 + 999);
    expect(parseSince('2026-11-24')).toEqual({
      kind: 'instant',
      afterSeq: ms * 1000 + 999,
      at: ms,
      viewVersion: null,
    });
  });

  it('round-trips tokens and refuses forged or damaged ones', () => {
    const token = encodeSince(1_764_000_000_000_123, 1_764_000_000_500, 1_764_000_000_400);
    expect(token).toMatch(/^s[A-Za-z0-9_-]+$/);
    expect(parseSince(token)).toEqual({
      kind: 'token',
      afterSeq: 1_764_000_000_000_123,
      at: 1_764_000_000_500,
      viewVersion: 1_764_000_000_400,
    });
    const forge = (payload: unknown) =>
      `s${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
    // A token from before key views: any view is newer than when it was issued.
    expect(parseSince(forge({ v: 1, s: 5, t: 7 }))).toMatchObject({ viewVersion: 7 });
    for (const bad of [
      forge({ v: 2, s: 1, t: 1 }),
      forge({ v: 1, s: -1, t: 1 }),
      forge({ v: 1, s: 1.5, t: 1 }),
      forge({ v: 1, s: '1', t: 1 }),
      forge({ v: 1, s: 1 }),
      forge({ v: 1, s: 1, t: 1, w: -1 }),
      forge({ v: 1, s: 1, t: 1, w: 'x' }),
      forge([1, 2]),
      forge(null),
      `s${Buffer.from('not json').toString('base64url')}`,
      token.slice(1),
      'x',
    ]) {
      expect(parseSince(bad), bad).toBeNull();
    }
  });
});
