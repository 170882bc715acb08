import type { RateLimitPolicy } from '../store/types.js';
import type { RateLimiter, RateLimitResult } from './rate-limit.js';
import type { RedisRateLimiter } from './redis-rate-limit.js';

export interface LimiterLog {
  warn(object: Record<string, unknown>, message: string): void;
  info(object: Record<string, unknown>, message: string): void;
}

const HEALTH_TTL_MS = 1000;

/**
 * Redis first; while Redis cannot be reached, the fallback (the database limiter on
 * PostgreSQL, in-process on SQLite) so requests keep being limited rather than failing. The
 * switch is logged once each way, and health reports `redis: "down"` meanwhile. Exactness
 * across processes holds within each limiter: the window during which Redis went away is
 * counted afresh by the fallback.
 */
export class FallbackRateLimiter implements RateLimiter {
  private down = false;
  private checked: { at: number; ok: boolean } | null = null;

  constructor(
    /** Public so a test can wait for its connection events. */
    readonly redis: RedisRateLimiter,
    private readonly fallback: RateLimiter,
    private readonly log: LimiterLog,
  ) {}

  async hit(keyId: string, policy: RateLimitPolicy, nowMs = Date.now()): Promise<RateLimitResult> {
    try {
      const result = await this.redis.hit(keyId, policy, nowMs);
      this.markUp();
      return result;
    } catch (error) {
      this.markDown(error);
      return this.fallback.hit(keyId, policy, nowMs);
    }
  }

  /** The `checks` entry of health, refreshed at most once a second. */
  async health(): Promise<Record<string, 'ok' | 'down'>> {
    const now = Date.now();
    // A closed connection is known without asking; a hung one only by a ping.
    if (!this.redis.connected) {
      this.markDown(new Error(`Redis connection is ${this.redis.client.status}`));
      return { redis: 'down' };
    }
    if (!this.checked || now - this.checked.at >= HEALTH_TTL_MS) {
      let ok = true;
      try {
        await this.redis.ping();
        this.markUp();
      } catch (error) {
        ok = false;
        this.markDown(error);
      }
      this.checked = { at: now, ok };
    }
    return { redis: this.checked.ok && !this.down ? 'ok' : 'down' };
  }

  private markDown(error: unknown): void {
    this.checked = null;
    if (this.down) return;
    this.down = true;
    this.log.warn(
      { err: error },
      'Redis is unreachable: rate limits fall back to the local limiter until it returns',
    );
  }

  private markUp(): void {
    if (!this.down) return;
    this.down = false;
    this.checked = null;
    this.log.info({}, 'Redis is reachable again: rate limits are shared through it');
  }

  async close(): Promise<void> {
    await Promise.all([this.redis.close(), this.fallback.close()]);
  }
}
