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
  /** How long a successful check of Redis stands for health while it is up (ms). */
  healthTtlMs?: number;
}

/**
 * Redis first; while Redis cannot be reached, the fallback (the database limiter on
 * PostgreSQL; on SQLite the process's own counters or, in a worker of `serve --workers N`, the
 * cluster primary's) so requests keep being limited rather than failing. The fallback is exact
 * across the processes of one server (across all servers on PostgreSQL); the window during
 * which a switch happens is counted afresh by the limiter switched to.
 *
 * A circuit breaker: once Redis is marked down, requests do not try it any more. A hung Redis
 * (connected, silent) would add the deadline to every request, and each timed-out INCR may
 * still be applied when Redis wakes up (counted twice, once there and once by the fallback).
 * Instead one PING at a time probes it in the background, every `probeIntervalMs` and at once
 * when the connection comes back, and the first that succeeds switches back. No request ever
 * waits for Redis longer than the Redis limiter's deadline (REDIS_DEADLINE_MS).
 *
 * The switch is logged once each way (per process), and health reports `redis: "down"`
 * meanwhile. Emits `down` and `up` on each switch (tests wait for them).
 */
export class FallbackRateLimiter extends EventEmitter implements RateLimiter {
  private down = false;
  private downSince = 0;
  /** Requests answered by the fallback since Redis was marked down. */
  private fallbackHits = 0;
  private checkedAt = 0;
  private probing: Promise<void> | null = null;
  private probeTimer: NodeJS.Timeout | null = null;
  private closed = false;
  private readonly probeIntervalMs: number;
  private readonly healthTtlMs: number;
  /** Set by the first health check: connection events before it are the start's own. */
  private started = false;

  constructor(
    /** Public so a test can wait for its connection events. */
    readonly redis: RedisRateLimiter,
    private readonly fallback: RateLimiter,
    private readonly log: LimiterLog,
    options: FallbackOptions = {},
  ) {
    super();
    this.probeIntervalMs = options.probeIntervalMs ?? PROBE_INTERVAL_MS;
    this.healthTtlMs = options.healthTtlMs ?? HEALTH_TTL_MS;
    // A reconnected client is worth asking at once rather than at the next tick.
    redis.client.on('ready', () => {
      if (this.down) void this.probe();
    });
    // A lost connection is logged when it happens, not at the next request.
    redis.client.on('close', () => {
      if (this.started) this.markDown(new Error('the connection to Redis closed'));
    });
  }

  /** Whether requests are counted by the fallback right now. */
  get isDown(): boolean {
    return this.down;
  }

  async hit(
    organizationId: string,
    keyId: string,
    policy: RateLimitPolicy,
    nowMs = Date.now(),
  ): Promise<RateLimitResult> {
    // A closed connection is known without asking (ioredis would refuse the command anyway).
    if (!this.down && !this.redis.connected) {
      this.markDown(this.redis.notConnected());
    }
    if (!this.down) {
      try {
        const result = await this.redis.hit(organizationId, keyId, policy, nowMs);
        this.checkedAt = Date.now();
        return result;
      } catch (error) {
        this.markDown(error);
      }
    }
    this.fallbackHits += 1;
    return this.fallback.hit(organizationId, keyId, policy, nowMs);
  }

  /**
   * The `checks` entry of health and readiness, within Redis's deadline: while Redis is marked
   * down this answers at once (the background probe notices its return); while it is up, it is
   * asked at most once a second (a hung connection is only found out by asking).
   */
  async health(): Promise<Record<string, 'ok' | 'down'>> {
    this.started = true;
    if (!this.down && !this.redis.connected) {
      this.markDown(this.redis.notConnected());
    }
    if (!this.down && Date.now() - this.checkedAt >= this.healthTtlMs) await this.probe();
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
    this.downSince = Date.now();
    this.fallbackHits = 0;
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
    this.log.info(
      { downMs: Date.now() - this.downSince, fallbackRequests: this.fallbackHits },
      'Redis is reachable again: rate limits are shared through it',
    );
    this.emit('up');
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.probeTimer) clearInterval(this.probeTimer);
    await Promise.all([this.redis.close(), this.fallback.close()]);
  }
}
