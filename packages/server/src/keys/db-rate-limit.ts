import type { RateLimitPolicy } from '../store/types.js';
import { type RateLimiter, type RateLimitResult, resultFor, windowOf } from './rate-limit.js';

/** The counter table of a database engine (PostgresStore has it). */
export interface RateLimitCounters {
  incrementRateLimitCounter(
    organizationId: string,
    keyId: string,
    windowSeconds: number,
    windowIndex: number,
    expiresAt: number,
  ): Promise<number>;
  sweepRateLimitCounters(now: number): Promise<void>;
}

export function hasRateLimitCounters(store: object): store is RateLimitCounters {
  return (
    typeof (store as Partial<RateLimitCounters>).incrementRateLimitCounter === 'function' &&
    typeof (store as Partial<RateLimitCounters>).sweepRateLimitCounters === 'function'
  );
}

/**
 * Fixed windows counted in the database: one atomic upsert per request, so every process on
 * the same PostgreSQL sees one counter. Used without Redis, and while Redis is unreachable.
 */
export class DatabaseRateLimiter implements RateLimiter {
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly counters: RateLimitCounters,
    sweepIntervalMs = 60_000,
  ) {
    // Ended windows are deleted now and then; losing a sweep costs nothing but space.
    this.timer = setInterval(
      () => void counters.sweepRateLimitCounters(Date.now()).catch(() => {}),
      sweepIntervalMs,
    );
    this.timer.unref();
  }

  async hit(
    organizationId: string,
    keyId: string,
    policy: RateLimitPolicy,
    nowMs = Date.now(),
  ): Promise<RateLimitResult> {
    const { window, reset } = windowOf(policy, nowMs);
    const count = await this.counters.incrementRateLimitCounter(
      organizationId,
      keyId,
      policy.windowSeconds,
      window,
      reset * 1000,
    );
    return resultFor(policy, count, nowMs);
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
  }
}
