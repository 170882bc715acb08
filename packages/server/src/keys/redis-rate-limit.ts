import { Redis } from 'ioredis';
import type { RateLimitPolicy } from '../store/types.js';
import { type RateLimiter, type RateLimitResult, resultFor, windowOf } from './rate-limit.js';

/**
 * One round trip, one atomic step: INCR the window's counter and, for the first hit, set it
 * to expire after the window ends. As a script, no other client can interleave, so a burst
 * across any number of processes admits exactly `max`.
 */
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIREAT', KEYS[1], ARGV[1]) end
return count
`;

/** Counters outlive their window a little, for servers whose clocks lag the others'. */
const EXPIRY_GRACE_MS = 60_000;

interface HitCommand {
  stockroomRateLimitHit(key: string, expiresAt: number): Promise<number>;
}

export interface RedisRateLimiterOptions {
  /** Prefix of every key this limiter writes. */
  prefix?: string;
  /** How long one command may take before the request falls back (ms). */
  commandTimeoutMs?: number;
}

/** Fixed windows in Redis, shared by every process that uses the same Redis. */
export class RedisRateLimiter implements RateLimiter {
  readonly client: Redis;
  private readonly prefix: string;

  constructor(url: string, options: RedisRateLimiterOptions = {}) {
    this.prefix = options.prefix ?? 'stockroom:rl:';
    this.client = new Redis(url, {
      // Fail fast instead of queueing while disconnected: the caller falls back to another
      // limiter at once, and ioredis keeps reconnecting in the background.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: options.commandTimeoutMs ?? 500,
      connectTimeout: 2000,
      retryStrategy: (attempt) => Math.min(attempt * 100, 1000),
      lazyConnect: true,
    });
    this.client.defineCommand('stockroomRateLimitHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
    // Connection errors are reported through hit() and ping(); without a listener ioredis
    // would print each one.
    this.client.on('error', () => {});
  }

  /** Starts connecting; resolves when connected, rejects (and keeps retrying) when not. */
  async connect(): Promise<void> {
    if (this.client.status === 'wait') await this.client.connect();
  }

  async hit(
    _organizationId: string,
    keyId: string,
    policy: RateLimitPolicy,
    nowMs = Date.now(),
  ): Promise<RateLimitResult> {
    const { window, reset } = windowOf(policy, nowMs);
    // Named by key id alone (unique across organizations), as before the organization was
    // passed: processes of two versions running side by side during an upgrade share counters.
    const key = `${this.prefix}${keyId}:${policy.windowSeconds}:${window}`;
    const count = await (this.client as unknown as HitCommand).stockroomRateLimitHit(
      key,
      reset * 1000 + EXPIRY_GRACE_MS,
    );
    return resultFor(policy, count, nowMs);
  }

  /** Whether the connection is up right now (no round trip). */
  get connected(): boolean {
    return this.client.status === 'ready';
  }

  async ping(): Promise<void> {
    await this.client.ping();
  }

  async close(): Promise<void> {
    this.client.disconnect();
  }
}
