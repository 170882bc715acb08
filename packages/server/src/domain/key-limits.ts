import { parseDuration } from './duration.js';
import { DomainError } from './errors.js';
import { parseIsoDate } from './iso-date.js';

/**
 * Bounds of what a key may be given, checked before anything is written. Past them a value is
 * a typo rather than a wish (`999999999d`), and some would not even be storable: a time beyond
 * year 275760 has no date. (The rate limit's bounds are in rate-limit-spec.ts.)
 * - an expiry at most 100 years ahead (a key that should never expire gets no expiry);
 * - a quota (remaining uses) of at most 1,000,000,000 (more is what "no quota" is for);
 * - a rotation's grace period of at most 90 days: past it, the old secret is a second key,
 *   not a grace.
 */
export const MAX_EXPIRY_SECONDS = 36_500 * 86_400;
export const MAX_QUOTA = 1_000_000_000;
export const MAX_GRACE_SECONDS = 90 * 86_400;

/** An expiry as a DURATION from now (`--expires-in`, `expiresIn`), in seconds. */
export function parseExpiresIn(raw: string): number {
  const seconds = parseDuration(raw);
  if (seconds > MAX_EXPIRY_SECONDS) {
    throw new DomainError(
      'expiresIn',
      'the expiry must be at most 100 years ahead (36500d); omit it for a key that never expires',
    );
  }
  return seconds;
}

/**
 * An expiry as an instant (`--expires-at`, `expiresAt`), in epoch milliseconds: an already
 * expired key is never what was meant.
 */
export function parseFutureDate(raw: string): number {
  const ms = parseIsoDate(raw);
  const now = Date.now();
  if (ms <= now) {
    throw new DomainError('expiresAt', `${raw} is in the past; the expiry must be in the future`);
  }
  if (ms > now + MAX_EXPIRY_SECONDS * 1000) {
    throw new DomainError(
      'expiresAt',
      `${raw} is more than 100 years ahead; omit --expires-at for a key that never expires`,
    );
  }
  return ms;
}

/** The grace period of a rotation (`--grace`, `grace`): a DURATION of at most 90 days. */
export function parseGrace(raw: string): number {
  const seconds = parseDuration(raw);
  if (seconds > MAX_GRACE_SECONDS) {
    throw new DomainError(
      'grace',
      'the grace period must be at most 90 days (90d); create a second key to keep two',
    );
  }
  return seconds;
}

/** A whole number written in digits only (`1000`). */
export function parseNonNegativeInteger(raw: string): number {
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(Number(raw))) {
    throw new DomainError('integer', 'must be a non-negative integer, e.g. 1000');
  }
  return Number(raw);
}

/** A quota (`--remaining`): uses from 0 to MAX_QUOTA. */
export function parseQuota(raw: string): number {
  const uses = parseNonNegativeInteger(raw);
  if (uses > MAX_QUOTA) {
    throw new DomainError(
      'remaining',
      `must be at most ${MAX_QUOTA.toLocaleString('en-US')}; omit --remaining for a key without a quota`,
    );
  }
  return uses;
}
