import { ConnectionError, RateLimitError, ServerError, type StockroomError } from './errors.js';
import { parseRateLimit, type RateLimitInfo } from './response.js';

/** When and how long to wait before trying a failed request again. */
export interface RetryPolicy {
  /** Delay before the first retry when the server gives no `Retry-After`. */
  initialDelayMs: number;
  /** Ceiling of the exponential backoff. */
  maxDelayMs: number;
  /**
   * The longest wait before a retry: a `Retry-After` (or a backoff delay) beyond it is not
   * waited out, the error is given straight back to the caller. Waiting less than the server
   * asked would only fail again.
   */
  maxRetryWait: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  initialDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryWait: 10_000,
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

/** The `Retry-After` of a failed answer, in seconds; null when there is none. */
export function errorRetryAfter(error: StockroomError): number | null {
  return error instanceof RateLimitError
    ? error.retryAfter
    : parseRetryAfter(error.headers?.get('retry-after') ?? null);
}

/**
 * How long to wait before retrying after `error`, or null when it must not be retried.
 * Retried: no response (connection failures and timeouts), 5xx, and `RATE_LIMITED`.
 * Never retried: any other 4xx, `KEY_EXHAUSTED` above all, which only an operator can fix;
 * nor anything whose wait (`Retry-After`, or the backoff) is longer than `maxRetryWait`.
 */
export function retryDelay(
  error: StockroomError,
  attempt: number,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number | null {
  let ms: number;
  if (error instanceof ConnectionError) ms = backoffDelay(attempt, policy, random);
  else if (!(error instanceof RateLimitError) && !(error instanceof ServerError)) return null;
  else {
    const retryAfter = errorRetryAfter(error);
    ms = retryAfter === null ? backoffDelay(attempt, policy, random) : retryAfter * 1000;
  }
  return ms > policy.maxRetryWait ? null : ms;
}

/**
 * What `onRetry` and `onRateLimit` are told before the client waits to try a call again.
 * They are called synchronously, before the wait; what they return is ignored, and an
 * exception thrown by one rejects the call with that exception, without the retry.
 */
export interface RetryEvent<E extends StockroomError = StockroomError> {
  /** The retry about to be made: 1 for the first retry of the call. */
  attempt: number;
  /** The most retries this call may make (`maxRetries`). */
  maxRetries: number;
  /** How long the client now waits before the retry, in milliseconds. */
  delayMs: number;
  /** The failure being retried: a `RateLimitError`, a `ServerError` or a `ConnectionError`. */
  error: E;
  /** HTTP status of the failed answer; null when no answer arrived. */
  status: number | null;
  /** The answer's `Retry-After`, in seconds; null when it gave none. */
  retryAfter: number | null;
  /** The key's `X-RateLimit-*` state in the failed answer; null when it had none. */
  rateLimit: RateLimitInfo | null;
  /** `x-request-id` of the failed answer, when there was one. */
  requestId: string | null;
  /** The path called, without its query string (`/api/v1/inventory/items`). */
  path: string;
}

export function retryEvent(
  error: StockroomError,
  parts: { attempt: number; maxRetries: number; delayMs: number; path: string },
): RetryEvent {
  return {
    ...parts,
    error,
    status: error.status,
    retryAfter: errorRetryAfter(error),
    rateLimit: error.headers ? parseRateLimit(error.headers) : null,
    requestId: error.requestId,
  };
}
