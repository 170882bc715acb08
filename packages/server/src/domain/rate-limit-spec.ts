import type { RateLimitPolicy } from '../store/types.js';
import { formatDuration, isDuration, parseDuration } from './duration.js';
import { DomainError } from './errors.js';

/**
 * A key's rate limit, written `MAX/DURATION` (600/1m: 600 requests per minute) or `none`.
 * Past its bounds a value is a typo rather than a wish, and PostgreSQL keeps rate limits in
 * 32-bit integers: a window of at most 365 days, a MAX of at most 1,000,000,000.
 */
export const MAX_RATE_WINDOW_SECONDS = 365 * 86_400;
export const MAX_RATE_LIMIT = 1_000_000_000;

function fail(message: string): never {
  throw new DomainError('rateLimit', message);
}

/**
 * `MAX/DURATION` or `none`. `none` stays a string rather than null: commander replaces a
 * parser's null with an empty string.
 */
export function parseRateLimit(raw: string): RateLimitPolicy | 'none' {
  if (raw === 'none') return 'none';
  const match = /^([1-9]\d*)\/(.+)$/.exec(raw);
  if (!match || !isDuration(match[2] as string)) {
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

/** A policy back in `MAX/DURATION` form (600/1m); no policy is `none`. */
export function formatRateLimit(policy: RateLimitPolicy | null): string {
  return policy ? `${policy.max}/${formatDuration(policy.windowSeconds)}` : 'none';
}
