import type { RateLimitPolicy } from '../store/types.js';

export interface RateLimitResult {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Epoch seconds at which the current window ends. */
  reset: number;
  /** Seconds until a new window admits requests again. */
  retryAfter: number;
}

/**
 * Fixed windows aligned to the epoch; every request of an identified key counts. The key's
 * organization comes first, as in every repository: a limiter that stores counters keys them
 * by organization (PostgreSQL, distributable by organization).
 */
export interface RateLimiter {
  hit(
    organizationId: string,
    keyId: string,
    policy: RateLimitPolicy,
    nowMs?: number,
  ): Promise<RateLimitResult>;
  /** Checks of the optional dependencies it uses, for health (e.g. `{ redis: "down" }`). */
  health?(): Promise<Record<string, 'ok' | 'down'>>;
  close(): Promise<void>;
}

/**
 * The limiter could not count this request (its counter store is out of reach): the request
 * is refused with 503 SERVICE_UNAVAILABLE, never admitted unlimited.
 */
export class RateLimiterUnavailableError extends Error {
  override name = 'RateLimiterUnavailableError';
}

export function windowOf(policy: RateLimitPolicy, nowMs: number) {
  const window = Math.floor(nowMs / 1000 / policy.windowSeconds);
  const reset = (window + 1) * policy.windowSeconds;
  return { window, reset, retryAfter: Math.max(1, Math.ceil(reset - nowMs / 1000)) };
}

export function resultFor(policy: RateLimitPolicy, count: number, nowMs: number): RateLimitResult {
  const { reset, retryAfter } = windowOf(policy, nowMs);
  return {
    allowed: count <= policy.max,
    limit: policy.max,
    remaining: Math.max(0, policy.max - count),
    reset,
    retryAfter,
  };
}

/** One process's counters; exact when one process serves the keys (the embedded engine). */
export class MemoryRateLimiter implements RateLimiter {
  private readonly counters = new Map<string, { window: number; count: number }>();
  private sweepAt = 0;

  async hit(
    _organizationId: string,
    keyId: string,
    policy: RateLimitPolicy,
    nowMs = Date.now(),
  ): Promise<RateLimitResult> {
    // Key ids are unique across organizations: the id alone names the counter.
    const { window } = windowOf(policy, nowMs);
    const counterKey = `${keyId}:${policy.windowSeconds}`;
    const counter = this.counters.get(counterKey);
    let count: number;
    if (counter && counter.window === window) count = ++counter.count;
    else {
      count = 1;
      this.counters.set(counterKey, { window, count });
    }
    this.sweep(nowMs);
    return resultFor(policy, count, nowMs);
  }

  /** Forget counters of past windows now and then, so memory follows the active keys only. */
  private sweep(nowMs: number): void {
    if (nowMs < this.sweepAt) return;
    this.sweepAt = nowMs + 60_000;
    for (const [key, counter] of this.counters) {
      const windowSeconds = Number(key.slice(key.lastIndexOf(':') + 1));
      if (counter.window < Math.floor(nowMs / 1000 / windowSeconds)) this.counters.delete(key);
    }
  }

  async close(): Promise<void> {}
}
