import { InvalidArgumentError } from 'commander';
import { isId } from '../ids.js';
import type { RateLimitPolicy } from '../store/types.js';

/**
 * Parsers for option values, used as commander argParsers: a bad value throws
 * InvalidArgumentError, which commander reports as a usage error (exit 2) naming the option.
 */

const UNIT_SECONDS = { s: 1, m: 60, h: 3600, d: 86_400 } as const;
const DURATION = /^([1-9]\d*)([smhd])$/;

function fail(message: string): never {
  throw new InvalidArgumentError(message);
}

/** DURATION (DECISIONS.md): a positive integer followed by s, m, h or d; returns seconds. */
export function parseDuration(raw: string): number {
  const match = DURATION.exec(raw);
  if (!match) fail('DURATION must be a positive integer followed by s, m, h or d, e.g. 90d');
  const seconds = Number(match[1]) * UNIT_SECONDS[match[2] as keyof typeof UNIT_SECONDS];
  if (!Number.isSafeInteger(seconds)) fail('the duration is too long');
  return seconds;
}

/**
 * Bounds of what a key may be given, checked before anything is written. Past them a value is
 * a typo rather than a wish (`999999999d`), and some would not even be storable: a time beyond
 * year 275760 has no date, and PostgreSQL keeps rate limits in 32-bit integers.
 * - an expiry at most 100 years ahead (a key that should never expire gets no expiry);
 * - a rate-limit window of at most 365 days, and a MAX of at most 1,000,000,000;
 * - a quota (--remaining) of at most 1,000,000,000 uses (more is what "no quota" is for).
 */
export const MAX_EXPIRY_SECONDS = 36_500 * 86_400;
export const MAX_RATE_WINDOW_SECONDS = 365 * 86_400;
export const MAX_RATE_LIMIT = 1_000_000_000;
export const MAX_QUOTA = 1_000_000_000;

/** --expires-in: a DURATION of at most 100 years. */
export function parseExpiresIn(raw: string): number {
  const seconds = parseDuration(raw);
  if (seconds > MAX_EXPIRY_SECONDS) {
    fail(
      'the expiry must be at most 100 years ahead (36500d); omit it for a key that never expires',
    );
  }
  return seconds;
}

/** The longest grace period of a rotation: past it, the old secret is a second key, not a grace. */
export const MAX_GRACE_SECONDS = 90 * 86_400;

/** --grace of `key rotate`: a DURATION of at most 90 days. */
export function parseGrace(raw: string): number {
  const seconds = parseDuration(raw);
  if (seconds > MAX_GRACE_SECONDS) {
    fail('the grace period must be at most 90 days (90d); create a second key to keep two');
  }
  return seconds;
}

/** Seconds back in DURATION form, with the largest unit that divides it (60 → 1m). */
export function formatDuration(seconds: number): string {
  for (const unit of ['d', 'h', 'm'] as const) {
    if (seconds % UNIT_SECONDS[unit] === 0) return `${seconds / UNIT_SECONDS[unit]}${unit}`;
  }
  return `${seconds}s`;
}

/**
 * `MAX/DURATION` (600/1m) or `none`. `none` stays a string: commander replaces a parser's
 * null with an empty string.
 */
export function parseRateLimit(raw: string): RateLimitPolicy | 'none' {
  if (raw === 'none') return 'none';
  const match = /^([1-9]\d*)\/(.+)$/.exec(raw);
  if (!match || !DURATION.test(match[2] as string)) {
    fail('use MAX/DURATION with a positive MAX, e.g. 600/1m or 10000/1d, or "none"');
  }
  const max = Number(match[1]);
  if (max > MAX_RATE_LIMIT) {
    fail(
      `MAX must be at most ${MAX_RATE_LIMIT.toLocaleString('en-US')} requests per window, or use "none"`,
    );
  }
  const windowSeconds = parseDuration(match[2] as string);
  if (windowSeconds > MAX_RATE_WINDOW_SECONDS) {
    fail('the window must be at most 365 days (365d), e.g. 10000/1d');
  }
  return { max, windowSeconds };
}

const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?$/;

/**
 * An ISO 8601 date (`2027-01-31`, midnight UTC) or date-time with an explicit zone
 * (`2027-01-31T18:00:00Z`, `…+02:00`). A zone-less time would silently mean this machine's
 * local time, so it is refused; impossible dates (Feb 30) are refused rather than rolled over.
 */
export function parseIsoDate(raw: string): number {
  const match = ISO.exec(raw);
  const hint = 'use an ISO 8601 date such as 2027-01-31 or 2027-01-31T18:00:00Z';
  if (!match) fail(hint);
  const [, y, mo, d, h = '0', mi = '0', s = '0'] = match;
  const wall = new Date(
    Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)),
  );
  const sameWall =
    wall.getUTCFullYear() === Number(y) &&
    wall.getUTCMonth() === Number(mo) - 1 &&
    wall.getUTCDate() === Number(d) &&
    wall.getUTCHours() === Number(h) &&
    wall.getUTCMinutes() === Number(mi) &&
    wall.getUTCSeconds() === Number(s);
  const ms = Date.parse(raw);
  if (!sameWall || Number.isNaN(ms)) fail(`${raw} is not a real date; ${hint}`);
  return ms;
}

/** A future instant for --expires-at: an already expired key is never what was meant. */
export function parseFutureDate(raw: string): number {
  const ms = parseIsoDate(raw);
  const now = Date.now();
  if (ms <= now) fail(`${raw} is in the past; the expiry must be in the future`);
  if (ms > now + MAX_EXPIRY_SECONDS * 1000) {
    fail(`${raw} is more than 100 years ahead; omit --expires-at for a key that never expires`);
  }
  return ms;
}

/** --remaining: uses of a quota, 0 to MAX_QUOTA. */
export function parseQuota(raw: string): number {
  const uses = parseNonNegativeInteger(raw);
  if (uses > MAX_QUOTA) {
    fail(
      `must be at most ${MAX_QUOTA.toLocaleString('en-US')}; omit --remaining for a key without a quota`,
    );
  }
  return uses;
}

export function parseNonNegativeInteger(raw: string): number {
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(Number(raw))) {
    fail('must be a non-negative integer, e.g. 1000');
  }
  return Number(raw);
}

/** A comma-separated list of known names, or `none` for the empty list. */
export function listParser(allowed: readonly string[], what: string): (raw: string) => string[] {
  return (raw) => {
    if (raw === 'none') return [];
    const names = raw.split(',').map((name) => name.trim());
    for (const name of names) {
      if (!allowed.includes(name)) {
        fail(
          `unknown ${what} ${JSON.stringify(name)}; known: ${allowed.join(', ')} (or "none" for no ${what}s)`,
        );
      }
    }
    return [...new Set(names)];
  };
}

/** One known name (e.g. a feature to enable); repeated flags accumulate. */
export function nameCollector(
  allowed: readonly string[],
  what: string,
): (raw: string, previous: string[] | undefined) => string[] {
  return (raw, previous = []) => {
    if (!allowed.includes(raw)) {
      fail(`unknown ${what} ${JSON.stringify(raw)}; known: ${allowed.join(', ')}`);
    }
    return [...previous, raw];
  };
}

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const MAX_SLUG = 63;

/**
 * Slugs share the ORG argument with ids, so a slug that looks like an id (24 hex characters)
 * is refused: `org show` must never have to guess which one was meant.
 */
export function slugProblem(slug: string): string | null {
  if (!SLUG.test(slug) || slug.length > MAX_SLUG) {
    return `slug must be 1-${MAX_SLUG} lowercase letters, digits and single dashes (e.g. acme-outdoor), got ${JSON.stringify(slug)}`;
  }
  if (isId(slug)) return 'slug must not look like an id (24 hex characters)';
  return null;
}

export function parseSlug(raw: string): string {
  const problem = slugProblem(raw);
  if (problem) fail(problem);
  return raw;
}

/** Lowercase ASCII with dashes: "Café Déjà Vu!" → "cafe-deja-vu". */
export function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, MAX_SLUG)
    .replace(/-+$/, '');
}

/** Trimmed text of 1..max characters (names of organizations, users, keys). */
export function textParser(max: number): (raw: string) => string {
  return (raw) => {
    const value = raw.trim();
    if (value.length === 0) fail('must not be empty');
    if ([...value].length > max) fail(`must be at most ${max} characters`);
    return value;
  };
}

export function parseEmail(raw: string): string {
  const value = raw.trim();
  if (value.length > 254 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) {
    fail('must be an email address such as ana@example.com');
  }
  return value;
}

export function parseId(raw: string): string {
  if (!isId(raw)) fail('must be an id: 24 lowercase hex characters');
  return raw;
}

export function parsePort(raw: string): string {
  if (!/^\d+$/.test(raw) || Number(raw) > 65535) fail('must be a port number from 0 to 65535');
  return raw;
}

export function parseWorkers(raw: string): string {
  if (raw !== 'auto' && (!/^[1-9]\d*$/.test(raw) || Number(raw) > 256)) {
    fail('must be a number of processes from 1 to 256, or "auto"');
  }
  return raw;
}

/** A sku exactly as stored (not trimmed: it is matched byte for byte). */
export function parseSku(raw: string): string {
  if (raw.length === 0 || [...raw].length > 100) fail('must be 1-100 characters');
  return raw;
}
