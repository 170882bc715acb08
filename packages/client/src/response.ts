/**
 * What `inventory.list` and `inventory.get` resolve to when they were given `ifNoneMatch` and
 * the server answered 304 Not Modified: the result held under that `etag` is still current.
 * Compare with `===`. (`Symbol.for`, so the ESM and CommonJS builds share it.)
 */
export const NOT_MODIFIED: unique symbol = Symbol.for('@stockroom/client.notModified');
export type NotModified = typeof NOT_MODIFIED;

/** What the client read off an HTTP response besides its body. */
export interface ResponseInfo {
  status: number;
  headers: Headers;
  /**
   * The `ETag` of the result (item list and item detail), to send back as `ifNoneMatch`; null
   * when the response has none.
   */
  etag: string | null;
  /** True for a 304 Not Modified answer to `ifNoneMatch`: the result is `NOT_MODIFIED`. */
  notModified: boolean;
  /** `x-request-id`: quote it when reporting a problem. */
  requestId: string | null;
  /** The key's rate-limit state after this request; null for keys without a limit. */
  rateLimit: RateLimitInfo | null;
  /** True when the server marked the request deprecated (the `organizationId` override). */
  deprecated: boolean;
  /** Attempts made, retries included. */
  attempts: number;
}

export interface RateLimitInfo {
  /** Requests allowed per window. */
  limit: number;
  /** Requests left in the current window. */
  remaining: number;
  /** End of the current window, in epoch seconds. */
  reset: number;
}

function integer(value: string | null): number | null {
  return value !== null && /^\d+$/.test(value.trim()) ? Number(value) : null;
}

/** `X-RateLimit-*` headers, when all three are present and readable. */
export function parseRateLimit(headers: Headers): RateLimitInfo | null {
  const limit = integer(headers.get('x-ratelimit-limit'));
  const remaining = integer(headers.get('x-ratelimit-remaining'));
  const reset = integer(headers.get('x-ratelimit-reset'));
  if (limit === null || remaining === null || reset === null) return null;
  return { limit, remaining, reset };
}

export function responseInfo(status: number, headers: Headers, attempts: number): ResponseInfo {
  return {
    status,
    headers,
    etag: headers.get('etag'),
    notModified: status === 304,
    requestId: headers.get('x-request-id'),
    rateLimit: parseRateLimit(headers),
    deprecated: headers.get('deprecation')?.trim().toLowerCase() === 'true',
    attempts,
  };
}
