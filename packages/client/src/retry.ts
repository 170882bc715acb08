import { ConnectionError, RateLimitError, ServerError, type StockroomError } from './errors.js';

/** When and how long to wait before trying a failed request again. */
export interface RetryPolicy {
  /** Delay before the first retry when the server gives no `Retry-After`. */
  initialDelayMs: number;
  /** Ceiling of the exponential backoff. */
  maxDelayMs: number;
  /**
   * The longest `Retry-After` the client will wait out. A longer one is given straight back to
   * the caller as the error: waiting less than the server asked would only fail again.
   */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  initialDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
};

/**
 * Exponential backoff with jitter: `initial × 2^attempt`, capped, then shortened by up to a
 * quarter at random so that clients failing together do not retry in lockstep.
 * `attempt` counts retries already made (0 before the first retry).
 */
export function backoffDelay(
  attempt: number,
  policy: Pick<RetryPolicy, 'initialDelayMs' | 'maxDelayMs'>,
  random: () => number = Math.random,
): number {
  const exponential = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** attempt);
  return Math.round(exponential * (1 - 0.25 * random()));
}

/**
 * `Retry-After` as seconds from now: either delay-seconds or an HTTP date (RFC 9110 §10.2.3).
 * Null when absent or unreadable; a date in the past gives 0.
 */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | null {
  if (value === null) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  // Only an IMF-fixdate-like value is a date; Date.parse alone would accept "1.5" or "-1".
  if (!/^[A-Za-z]{3}, /.test(trimmed)) return null;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return null;
  return Math.max(0, Math.ceil((date - now) / 1000));
}

/**
 * How long to wait before retrying after `error`, or null when it must not be retried.
 * Retried: no response (connection failures and timeouts), 5xx, and `RATE_LIMITED`.
 * Never retried: any other 4xx, `KEY_EXHAUSTED` above all, which only an operator can fix.
 */
export function retryDelay(
  error: StockroomError,
  attempt: number,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number | null {
  if (error instanceof ConnectionError) return backoffDelay(attempt, policy, random);
  if (!(error instanceof RateLimitError) && !(error instanceof ServerError)) return null;
  const retryAfter =
    error instanceof RateLimitError
      ? error.retryAfter
      : parseRetryAfter(error.headers?.get('retry-after') ?? null);
  if (retryAfter === null) return backoffDelay(attempt, policy, random);
  const ms = retryAfter * 1000;
  return ms > policy.maxRetryAfterMs ? null : ms;
}
