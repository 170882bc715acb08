import { EventEmitter } from 'node:events';
import type { RateLimitPolicy } from '../store/types.js';
import type { RateLimiter, RateLimitResult } from './rate-limit.js';
import type { RedisRateLimiter } from './redis-rate-limit.js';

export interface LimiterLog {
  warn(object: Record<string, unknown>, message: string): void;
  info(object: Record<string, unknown>, message: string): void;
}

const HEALTH_TTL_MS = 1000;
/** How often Redis is asked (PING) whether it is back, while it is marked down. */
const PROBE_INTERVAL_MS = 1000;

export interface FallbackOptions {
  probeIntervalMs?: number;
}

/**
 * Redis first; while Redis cannot be reached, the fallback (the database limiter on
 * PostgreSQL, in-process on SQLite) so requests keep being limited rather than failing. The
 * switch is logged once each way, and health reports `redis: "down"` meanwhile. Exactness
 * across processes holds within each limiter: the window during which Redis went away is
 * counted afresh by the fallback.
 *
 * Once Redis is marked down, requests do not try it any more: a hung Redis (connected,
 * silent) would add its command timeout to every request, and each timed-out INCR may still
 * be applied when Redis wakes up (counted twice, once there and once by the fallback).
 * Instead one PING at a time probes it in the background, every `probeIntervalMs` and at
 * once when the connection comes back, and the first that succeeds switches back.
 *
 * Emits `down` and `up` on each switch (tests wait for them).
 */
export class FallbackRateLimiter extends EventEmitter implements RateLimiter {
  private down = false;
  private checkedAt = 0;
  private probing: Promise<void> | null = null;
  private probeTimer: NodeJS.Timeout | null = null;
  private closed = false;
  private readonly probeIntervalMs: number;

  constructor(
    /** Public so a test can wait for its connection events. */
    readonly redis: RedisRateLimiter,
    private readonly fallback: RateLimiter,
    private readonly log: LimiterLog,
    options: FallbackOptions = {},
  ) {
    super();
    this.probeIntervalMs = options.probeIntervalMs ?? PROBE_INTERVAL_MS;
    // A reconnected client is worth asking at once rather than at the next tick.
    redis.client.on('ready', () => {
      if (this.down) void this.probe();
    });
  }

  async hit(
    organizationId: string,
    keyId: string,
    policy: RateLimitPolicy,
    nowMs = Date.now(),
  ): Promise<RateLimitResult> {
    if (this.down) return this.fallback.hit(organizationId, keyId, policy, nowMs);
    // A closed connection is known without asking (ioredis would refuse the command anyway).
    if (!this.redis.connected) {
      this.markDown(new Error(`Redis connection is ${this.redis.client.status}`));
      return this.fallback.hit(organizationId, keyId, policy, nowMs);
    }
    try {
      return await this.redis.hit(organizationId, keyId, policy, nowMs);
    } catch (error) {
      this.markDown(error);
      return this.fallback.hit(organizationId, keyId, policy, nowMs);
    }
  }

  /** The `checks` entry of health; Redis is asked at most once a second while it is up. */
  async health(): Promise<Record<string, 'ok' | 'down'>> {
    if (!this.redis.connected) {
      this.markDown(new Error(`Redis connection is ${this.redis.client.status}`));
      return { redis: 'down' };
    }
    // A hung connection is only found out by asking.
    if (this.down || Date.now() - this.checkedAt >= HEALTH_TTL_MS) await this.probe();
    return { redis: this.down ? 'down' : 'ok' };
  }

  /** One PING at a time: marks Redis up when it answers, down when it does not. */
  private probe(): Promise<void> {
    this.probing ??= (async () => {
      try {
        await this.redis.ping();
        this.markUp();
      } catch (error) {
        this.markDown(error);
      } finally {
        this.checkedAt = Date.now();
        this.probing = null;
      }
    })();
    return this.probing;
  }

  private markDown(error: unknown): void {
    if (this.down || this.closed) return;
    this.down = true;
    this.probeTimer = setInterval(() => void this.probe(), this.probeIntervalMs);
    // The probe never keeps a process alive that has nothing else to do.
    this.probeTimer.unref();
    this.log.warn(
      { err: error },
      'Redis is unreachable: rate limits fall back to the local limiter until it returns',
    );
    this.emit('down');
  }

  private markUp(): void {
    if (!this.down || this.closed) return;
    this.down = false;
    if (this.probeTimer) clearInterval(this.probeTimer);
    this.probeTimer = null;
    this.log.info({}, 'Redis is reachable again: rate limits are shared through it');
    this.emit('up');
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.probeTimer) clearInterval(this.probeTimer);
    await Promise.all([this.redis.close(), this.fallback.close()]);
  }
}
