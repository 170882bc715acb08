import type { Config } from '../config.js';
import type { Store } from '../store/types.js';
import { DatabaseRateLimiter, hasRateLimitCounters } from './db-rate-limit.js';
import { FallbackRateLimiter, type LimiterLog } from './fallback-rate-limit.js';
import { MemoryRateLimiter, type RateLimiter } from './rate-limit.js';
import { RedisRateLimiter } from './redis-rate-limit.js';

/**
 * The limiter a process uses: with REDIS_URL, Redis (exact across processes) falling back to
 * the local one; without it, the database's counters on PostgreSQL (exact across processes)
 * or in-process counters on SQLite (one process serves it).
 */
export async function createRateLimiter(
  config: Config,
  store: Store,
  log: LimiterLog,
): Promise<RateLimiter> {
  const local = hasRateLimitCounters(store)
    ? new DatabaseRateLimiter(store)
    : new MemoryRateLimiter();
  if (!config.redisUrl) return local;
  const redis = new RedisRateLimiter(config.redisUrl, { prefix: `${config.redisPrefix}rl:` });
  const limiter = new FallbackRateLimiter(redis, local, log);
  // Redis is optional: a server starts without it (degraded) and picks it up when it comes.
  await redis.connect().catch(() => {});
  await limiter.health();
  return limiter;
}
