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
  /**
   * How long a request may wait for Redis (ms) before it is answered by the fallback: the
   * deadline of `hit` and `ping`. Default 80, so no request waits more than 100 ms for Redis.
   */
  commandTimeoutMs?: number;
  /**
   * How long a command is kept waiting on the connection after its caller gave up, and the
   * deadline of the connection handshake (ms). Default 1000.
   */
  backgroundTimeoutMs?: number;
}

/** The deadline of one request's wait for Redis (see RedisRateLimiterOptions). */
export const REDIS_DEADLINE_MS = 80;

/** Redis did not answer within the deadline (hung, overloaded or too far away). */
export class RedisDeadlineError extends Error {
  override name = 'RedisDeadlineError';
}

/**
 * Resolves or rejects as `work` does, or rejects once `ms` have passed. The deadline is checked
 * once more after the event loop has read its sockets (setImmediate runs after the poll phase):
 * a reply that arrived while the loop was busy elsewhere is taken, not mistaken for a timeout.
 */
function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(() => {
      setImmediate(() => {
        if (settled) return;
        settled = true;
        reject(new RedisDeadlineError(`Redis did not answer ${what} within ${ms} ms`));
      });
    }, ms);
    work.then(
      (value) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** Reconnection: quickly at first, then once a second (with jitter, so processes spread out). */
export function reconnectDelay(attempt: number): number {
  return Math.min(attempt * 100, 1000) + Math.floor(Math.random() * 100);
}

/** Fixed windows in Redis, shared by every process that uses the same Redis. */
export class RedisRateLimiter implements RateLimiter {
  readonly client: Redis;
  private readonly prefix: string;
  private readonly deadlineMs: number;
  private lastError: Error | null = null;

  constructor(url: string, options: RedisRateLimiterOptions = {}) {
    this.prefix = options.prefix ?? 'stockroom:rl:';
    this.deadlineMs = options.commandTimeoutMs ?? REDIS_DEADLINE_MS;
    const backgroundMs = Math.max(options.backgroundTimeoutMs ?? 1000, this.deadlineMs);
    this.client = new Redis(url, {
      // Fail fast instead of queueing while disconnected: the caller falls back to another
      // limiter at once, and ioredis keeps reconnecting in the background.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      // A hit cut off by a dropped connection is never sent again (it may have been counted).
      autoResendUnfulfilledCommands: false,
      // Callers stop waiting at the deadline (withDeadline); this only clears what is left on a
      // hung connection, and bounds the handshake (INFO) of a connection to a hung server.
      commandTimeout: backgroundMs,
      connectTimeout: backgroundMs,
      disableClientInfo: true,
      retryStrategy: reconnectDelay,
      lazyConnect: true,
    });
    this.client.defineCommand('stockroomRateLimitHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
    // Connection errors are reported through hit(), ping() and notConnected(); without a
    // listener ioredis would print each one.
    this.client.on('error', (error: Error) => {
      this.lastError = error;
    });
    this.client.on('ready', () => {
      this.lastError = null;
    });
  }

  /**
   * Starts connecting; resolves when connected, rejects (and keeps retrying in the background)
   * when not, at the latest after `timeoutMs`.
   */
  async connect(timeoutMs = 1000): Promise<void> {
    if (this.client.status !== 'wait') return;
    const connecting = this.client.connect();
    connecting.catch(() => {});
    await withDeadline(connecting, timeoutMs, 'the connection');
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
    const counting = (this.client as unknown as HitCommand).stockroomRateLimitHit(
      key,
      reset * 1000 + EXPIRY_GRACE_MS,
    );
    // Past the deadline nobody waits for it any more: a late rejection is dropped here.
    counting.catch(() => {});
    const count = await withDeadline(counting, this.deadlineMs, 'a rate-limit hit');
    return resultFor(policy, count, nowMs);
  }

  /** Why there is no connection right now, for the log line: the status and last error. */
  notConnected(): Error {
    const cause = this.lastError ? `: ${this.lastError.message}` : '';
    return new Error(`Redis is not connected (${this.client.status})${cause}`);
  }

  /** Whether the connection is up right now (no round trip). */
  get connected(): boolean {
    return this.client.status === 'ready';
  }

  /** One PING, within the same deadline as a hit. */
  async ping(): Promise<void> {
    const pinging = this.client.ping();
    pinging.catch(() => {});
    await withDeadline(pinging, this.deadlineMs, 'PING');
  }

  async close(): Promise<void> {
    this.client.disconnect();
  }
}
