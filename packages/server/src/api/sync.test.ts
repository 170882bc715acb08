import { describe, expect, it } from 'vitest';
import {
  encodeSince,
  parseInstant,
  parseSince,
  type SincePoint,
  seqAfterInstant,
  sinceSigned,
} from './sync.js';
import { newSyncSecret, SIGNATURE_CHARS, syncSigner } from './sync-signing.js';

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
      seenAfter: ms * 1000 + 999,
      signed: null,
    });
  });

  it('round-trips tokens and refuses forged or damaged ones', () => {
    const signer = syncSigner(newSyncSecret());
    const token = encodeSince(signer, 1_764_000_000_000_123, 1_764_000_000_500, 1_764_000_000_400);
    expect(token).toMatch(/^s[A-Za-z0-9_-]+$/);
    const since = parseSince(token);
    expect(since).toMatchObject({
      kind: 'token',
      afterSeq: 1_764_000_000_000_123,
      at: 1_764_000_000_500,
      viewVersion: 1_764_000_000_400,
    });
    expect(sinceSigned(since as SincePoint, signer)).toBe(true);
    const sign = (payload: unknown) => {
      const text = `s${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
      return `${text}${signer.sign(text)}`;
    };
    // Well signed but not a token of this version, or not well-formed: refused as unreadable.
    for (const bad of [
      sign({ v: 1, s: 5, t: 7, w: 0 }),
      sign({ v: 2, s: 1, t: 1 }),
      sign({ v: 2, s: -1, t: 1, w: 0 }),
      sign({ v: 2, s: 1.5, t: 1, w: 0 }),
      sign({ v: 2, s: '1', t: 1, w: 0 }),
      sign({ v: 2, s: 1, w: 0 }),
      sign({ v: 2, s: 1, t: 1, w: -1 }),
      sign({ v: 2, s: 1, t: 1, w: 'x' }),
      sign([1, 2]),
      sign(null),
      token.slice(1),
      'x',
    ]) {
      expect(parseSince(bad), bad).toBeNull();
    }
  });

  it('reads a token from before signing as an instant issued at the epoch', () => {
    const legacy = (payload: object) =>
      `s${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
    expect(parseSince(legacy({ v: 1, s: 5, t: 7, w: 3 }))).toEqual({
      kind: 'legacy-token',
      afterSeq: 5,
      at: 0,
      viewVersion: 3,
      seenAfter: 5,
      signed: null,
    });
    // From before key views: any view is newer than when it was issued.
    expect(parseSince(legacy({ v: 1, s: 5, t: 7 }))).toMatchObject({ viewVersion: 7 });
    for (const bad of [
      legacy({ v: 1, s: -1, t: 7 }),
      legacy({ v: 1, s: 5 }),
      legacy({ v: 3, s: 5, t: 7 }),
      `${legacy({ v: 1, s: 5, t: 7 })}AAAA`,
    ]) {
      expect(parseSince(bad), bad).toBeNull();
    }
  });

  it('carries where the copy stands from the middle of a walk', () => {
    const signer = syncSigner(newSyncSecret());
    // The end of a walk: the copy stands at the token's own position.
    expect(parseSince(encodeSince(signer, 500, 1, 0))).toMatchObject({
      afterSeq: 500,
      seenAfter: 500,
    });
    // The middle of a walk: where it began, or unknown when it started over.
    expect(parseSince(encodeSince(signer, 500, 1, 0, 200))).toMatchObject({
      afterSeq: 500,
      seenAfter: 200,
    });
    expect(parseSince(encodeSince(signer, 500, 1, 0, null))).toMatchObject({
      afterSeq: 500,
      seenAfter: null,
    });
    // An instant stands for its own position.
    expect(parseSince('2026-11-24')?.seenAfter).toBe(seqAfterInstant(Date.UTC(2026, 10, 24)));
    // Never after the position itself.
    expect(parseSince(encodeSince(signer, 500, 1, 0, 501))).toBeNull();
  });

  it('tells a token another key signed, or one edited and signed again, from its own', () => {
    const signer = syncSigner(newSyncSecret());
    const token = encodeSince(signer, 10_000, 20_000, 0);
    const edited = (payload: unknown) => {
      // The date moved forward, the old signature kept: what a client could forge.
      const text = `s${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
      return `${text}${token.slice(-SIGNATURE_CHARS)}`;
    };
    const forged = parseSince(edited({ v: 2, s: 10_000, t: Date.now(), w: 0 }));
    expect(forged).not.toBeNull();
    expect(sinceSigned(forged as SincePoint, signer)).toBe(false);
    const foreign = encodeSince(syncSigner(newSyncSecret()), 10_000, 20_000, 0);
    expect(sinceSigned(parseSince(foreign) as SincePoint, signer)).toBe(false);
    // One character of the signature changed.
    const last = token.at(-1) === 'A' ? 'B' : 'A';
    expect(sinceSigned(parseSince(`${token.slice(0, -1)}${last}`) as SincePoint, signer)).toBe(
      false,
    );
    // Instants carry no signature.
    expect(sinceSigned(parseSince('2026-11-24') as SincePoint, signer)).toBe(true);
  });
});
