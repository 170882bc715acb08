import type { Config } from '../config.js';
import type { Store } from '../store/types.js';
import { DatabaseRateLimiter, hasRateLimitCounters } from './db-rate-limit.js';
import { FallbackRateLimiter, type LimiterLog } from './fallback-rate-limit.js';
import { type IpcEndpoint, IpcRateLimiter } from './ipc-rate-limit.js';
import { MemoryRateLimiter, type RateLimiter } from './rate-limit.js';

export interface RateLimiterOptions {
  /**
   * Set in a worker of `serve --workers N`: the cluster primary's channel. On SQLite the
   * workers count through the primary (ipc-rate-limit.ts) without Redis and while it is down.
   */
  primary?: IpcEndpoint;
  /** With tracing on: gives the Redis limiter's commands their spans (tracing/tracing.ts). */
  traceRedis?: <L extends RedisCommands>(redis: L) => L;
}

/** What `traceRedis` wraps: the limiter's two Redis commands. */
interface RedisCommands {
  hit: RateLimiter['hit'];
  ping(): Promise<void>;
}

/**
 * The limiter a process uses: with REDIS_URL, Redis (exact across processes) falling back,
 * while Redis is down or hung, to the local one below; without it, the local one: the
 * database's counters on PostgreSQL (exact across processes), on SQLite in-process counters
 * (one process serves the file: serve takes a lock on it) or, in a worker of a cluster, the
 * primary's counters (which the primary keeps on SQLite whether or not REDIS_URL is set).
 */
export async function createRateLimiter(
  config: Config,
  store: Store,
  log: LimiterLog,
  options: RateLimiterOptions = {},
): Promise<RateLimiter> {
  const local = localRateLimiter(config, store, options);
  if (!config.redisUrl) return local;
  // Loaded only when asked for: ioredis is a measurable part of a start without Redis.
  const { RedisRateLimiter } = await import('./redis-rate-limit.js');
  const created = new RedisRateLimiter(config.redisUrl, { prefix: `${config.redisPrefix}rl:` });
  const redis = options.traceRedis ? options.traceRedis(created) : created;
  const limiter = new FallbackRateLimiter(redis, local, log);
  // Redis is optional: a server starts without it (degraded: logged once) and picks it up when
  // it comes. The start waits for it at most a second (a hung Redis accepts connections and
  // never answers).
  await redis.connect(1000).catch(() => {});
  await limiter.health();
  return limiter;
}

/** The limiter without Redis, and Redis's fallback: exact across this server's processes. */
function localRateLimiter(config: Config, store: Store, options: RateLimiterOptions): RateLimiter {
  if (hasRateLimitCounters(store)) return new DatabaseRateLimiter(store);
  // A worker of a cluster on SQLite: per-worker counters would admit N × max.
  if (options.primary) return new IpcRateLimiter(options.primary, config.databaseTimeoutMs);
  return new MemoryRateLimiter();
}
