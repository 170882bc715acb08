/**
 * Incremental sync (`updatedSince`): where a sync starts and the `nextSince` token that says
 * where the next one continues. Positions are change sequence numbers of the organization's
 * change feed (store/types.ts, ChangeQuery): a hybrid logical clock whose value divided by
 * 1000 is never earlier than the wall-clock millisecond of the change, so an instant maps to a
 * position by arithmetic alone.
 */

import { SIGNATURE_CHARS, type SyncSigner } from './sync-signing.js';

/** How far in the future an instant may lie (client clocks drift); past it, a 400. */
export const MAX_FUTURE_MS = 5 * 60_000;

/**
 * A parsed `updatedSince`: the position after which changes are read, and the time the point
 * stands for when judging whether deletions since then are still kept (the instant itself, or
 * when the token was issued).
 */
export interface SincePoint {
  /**
   * `legacy-token`: a `nextSince` of a release before tokens were signed. Nothing in it can be
   * trusted, so it is read as an instant at its position (which any key may ask for) issued
   * at the epoch: with `includeDeleted` it answers SYNC_EXPIRED, the answer every sync client
   * already handles by starting over, rather than a 400 it does not.
   */
  kind: 'instant' | 'token' | 'legacy-token';
  afterSeq: number;
  at: number;
  /**
   * For a token: the version of the key view (its viewUpdatedAt, 0 for none) the sync that
   * reached this point applied. A key whose view has changed since sees items differently
   * from what that sync copied, so its next sync starts over from the first change. Null for
   * an instant, which is compared with the view's change by time.
   */
  viewVersion: number | null;
  /**
   * Where the reader's copy is known to stand for the items changed after `afterSeq`: the
   * position of an instant or of a token that ended a walk; for a token from the middle of a
   * walk, where that walk began (items changed after the token's position were last copied
   * then); null for the middle of a walk that started over under a new view (the copy may
   * hold anything the old view showed). Deletions are judged from it (ChangeQuery.seenAfterSeq).
   */
  seenAfter: number | null;
  /** A token's text and signature, checked against the installation's key; null for an instant. */
  signed: { text: string; signature: string } | null;
}

/**
 * Whether a sync from this point must start over for a key whose view has this version: the
 * view changed after the point (within the same millisecond, an instant cannot tell, so it
 * starts over then too).
 */
export function startsOver(since: SincePoint, viewVersion: number): boolean {
  return since.viewVersion === null ? since.at <= viewVersion : since.viewVersion < viewVersion;
}

const INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(?:([Zz])|([+ -])(\d{2}):?(\d{2})))?$/;

/** Epoch ms of an ISO 8601 instant with a zone, or of a date (midnight UTC); null if invalid. */
export function parseInstant(value: string): number | null {
  const match = INSTANT.exec(value);
  if (!match) return null;
  const [, y, mo, d, h, mi, s, fraction, , sign, oh, om] = match;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h ?? 0);
  const minute = Number(mi ?? 0);
  const second = Number(s ?? 0);
  const offsetMinutes = sign === undefined ? 0 : Number(oh) * 60 + Number(om);
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return null;
  if (Number(om ?? 0) > 59 || offsetMinutes > 18 * 60) return null;
  const utc = Date.UTC(year, month - 1, day, hour, minute, second);
  // Date.UTC rolls 31 February over into March: a day the month does not have is refused.
  if (new Date(utc).getUTCDate() !== day) return null;
  const millis = fraction === undefined ? 0 : Math.trunc(Number(`0${fraction}`) * 1000);
  // A space where the offset sign belongs is a "+" that the query string decoded as a space.
  const direction = sign === '-' ? -1 : 1;
  return utc + millis - direction * offsetMinutes * 60_000;
}

/** The position just after every change made at or before `ms`. */
export function seqAfterInstant(ms: number): number {
  return ms * 1000 + 999;
}

/**
 * The token of a position, stamped with when it was issued: a deletion after the position was
 * committed after that moment, so its tombstone is kept as long as the token is younger than
 * the retention period. Signed with the installation's key (api/sync-signing.ts): a token with
 * an edited position, date or view version, or one from another installation, is refused
 * rather than read, so the SYNC_EXPIRED rule cannot be stepped around.
 */
export function encodeSince(
  signer: SyncSigner,
  seq: number,
  issuedAt: number,
  viewVersion: number,
  seenAfter: number | null = seq,
): string {
  // `p` only from the middle of a walk: a walk that reached the end leaves the copy exact.
  const payload = {
    v: 2,
    s: seq,
    t: issuedAt,
    w: viewVersion,
    ...(seenAfter === seq ? {} : { p: seenAfter }),
  };
  // "s" keeps a token from ever starting with a digit, so it cannot be read as an instant.
  const text = `s${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
  return `${text}${signer.sign(text)}`;
}

function decodeSince(token: string): {
  seq: number;
  issuedAt: number;
  viewVersion: number;
  seenAfter: number | null;
  text: string;
  signature: string;
} | null {
  if (!looksLikeToken(token)) return null;
  const text = token.slice(0, -SIGNATURE_CHARS);
  try {
    const parsed = JSON.parse(Buffer.from(text.slice(1), 'base64url').toString('utf8')) as unknown;
    if (typeof parsed !== 'object' || parsed === null) return null;
    const { v, s, t, w, p } = parsed as Record<string, unknown>;
    const valid = (n: unknown): n is number =>
      typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;
    if (v !== 2 || !valid(s) || !valid(t) || !valid(w)) return null;
    if (p !== undefined && p !== null && !(valid(p) && p <= s)) return null;
    return {
      seq: s,
      issuedAt: t,
      viewVersion: w,
      seenAfter: p === undefined ? s : p,
      text,
      signature: token.slice(-SIGNATURE_CHARS),
    };
  } catch {
    return null;
  }
}

/** A `nextSince` of a release before signing: `s` and base64url JSON `{ v: 1, s, t, w? }`. */
function decodeLegacySince(token: string): SincePoint | null {
  if (!token.startsWith('s')) return null;
  try {
    const parsed = JSON.parse(Buffer.from(token.slice(1), 'base64url').toString('utf8')) as unknown;
    if (typeof parsed !== 'object' || parsed === null) return null;
    const { v, s, t, w } = parsed as Record<string, unknown>;
    const valid = (n: unknown): n is number =>
      typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;
    if (v !== 1 || !valid(s) || !valid(t) || (w !== undefined && !valid(w))) return null;
    return {
      kind: 'legacy-token',
      afterSeq: s,
      at: 0,
      viewVersion: w ?? t,
      seenAfter: s,
      signed: null,
    };
  } catch {
    return null;
  }
}

/**
 * Why a token-shaped `updatedSince` is refused when it is not one this installation issued,
 * and how to go on.
 */
export const FOREIGN_TOKEN =
  "it is not a nextSince this Stockroom installation issued (it was edited, comes from another installation, or was issued before the installation's sync key was rotated). Start a fresh sync: read every item with updatedSince=1970-01-01 (without includeDeleted), replace your copy with what it returns, then continue from its nextSince";

/** Whether a value has a token's shape (then refused as not issued here, rather than as garbage). */
export function looksLikeToken(value: string): boolean {
  return value.startsWith('s') && value.length > 1 + SIGNATURE_CHARS;
}

/** Whether a token's signature is the installation's (an instant has none to check). */
export function sinceSigned(since: SincePoint, signer: SyncSigner): boolean {
  return since.signed === null || signer.verify(since.signed.text, since.signed.signature);
}

/** Reads a validated-by-pattern `updatedSince`; null when it is not a real instant or token. */
export function parseSince(value: string): SincePoint | null {
  if (/^\d/.test(value)) {
    const ms = parseInstant(value);
    if (ms === null) return null;
    return {
      kind: 'instant',
      afterSeq: seqAfterInstant(Math.max(0, ms)),
      at: ms,
      viewVersion: null,
      seenAfter: seqAfterInstant(Math.max(0, ms)),
      signed: null,
    };
  }
  const token = decodeSince(value);
  if (token === null) return decodeLegacySince(value);
  return {
    kind: 'token',
    afterSeq: token.seq,
    at: token.issuedAt,
    viewVersion: token.viewVersion,
    seenAfter: token.seenAfter,
    signed: { text: token.text, signature: token.signature },
  };
}
