import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { newId } from '../ids.js';
import { PostgresStore } from '../store/postgres/postgres-store.js';
import { SqliteStore } from '../store/sqlite/sqlite-store.js';
import { createTestSchema, type TestSchema } from '../testing/postgres.js';
import {
  announceSkip,
  dropRedisPrefix,
  postgresUnavailable,
  redisUnavailable,
  TEST_REDIS_URL,
  testRedisPrefix,
} from '../testing/services.js';
import { DatabaseRateLimiter } from './db-rate-limit.js';
import { MemoryRateLimiter, type RateLimiter } from './rate-limit.js';
import { createRateLimiter } from './rate-limiters.js';
import { RedisRateLimiter, reconnectDelay } from './redis-rate-limit.js';

/** The organization of the keys counted here (counters are keyed by it first). */
const ORG = newId();

/**
 * One limiter contract, three implementations. Times are passed in (fixed, in the future so
 * Redis expiries lie ahead), so windows are exact and nothing waits for the clock.
 */
interface LimiterLeg {
  name: string;
  unavailable(): Promise<string | null>;
  /** Two limiters sharing one counter store (two processes, as far as counting goes). */
  open(): Promise<{ a: RateLimiter; b: RateLimiter; cleanup(): Promise<void> }>;
}

const LEGS: LimiterLeg[] = [
  {
    name: 'in-process',
    unavailable: async () => null,
    async open() {
      const a = new MemoryRateLimiter();
      return { a, b: a, cleanup: () => a.close() };
    },
  },
  {
    name: 'database (PostgreSQL)',
    unavailable: postgresUnavailable,
    async open() {
      const schema = await createTestSchema();
      const stores = [new PostgresStore(schema.url), new PostgresStore(schema.url)] as const;
      await stores[0].migrate();
      const [a, b] = stores.map((store) => new DatabaseRateLimiter(store)) as [
        DatabaseRateLimiter,
        DatabaseRateLimiter,
      ];
      return {
        a,
        b,
        async cleanup() {
          await Promise.all([a.close(), b.close(), ...stores.map((store) => store.close())]);
          await schema.drop();
        },
      };
    },
  },
  {
    name: 'Redis',
    unavailable: redisUnavailable,
    async open() {
      const prefix = testRedisPrefix();
      const a = new RedisRateLimiter(TEST_REDIS_URL, { prefix });
      const b = new RedisRateLimiter(TEST_REDIS_URL, { prefix });
      await Promise.all([a.connect(), b.connect()]);
      return {
        a,
        b,
        async cleanup() {
          await Promise.all([a.close(), b.close()]);
          await dropRedisPrefix(TEST_REDIS_URL, prefix);
        },
      };
    },
  },
];

/** 30 s into a minute an hour from now: in the future (Redis expiries lie ahead), soon gone. */
const T0 = Math.floor(Date.now() / 60_000) * 60_000 + 3_600_000 + 30_000;
const MINUTE = { max: 3, windowSeconds: 60 };

for (const leg of LEGS) {
  const skip = announceSkip(`rate limiter "${leg.name}"`, await leg.unavailable());
  describe.skipIf(skip)(`rate limiter: ${leg.name}`, () => {
    let a: RateLimiter;
    let b: RateLimiter;
    let cleanup: () => Promise<void>;
    beforeAll(async () => {
      ({ a, b, cleanup } = await leg.open());
    });
    afterAll(() => cleanup?.());

    it('counts every hit in fixed windows aligned to the epoch', async () => {
      const key = newId();
      const first = await a.hit(ORG, key, MINUTE, T0);
      expect(first).toEqual({
        allowed: true,
        limit: 3,
        remaining: 2,
        reset: (T0 + 30_000) / 1000,
        retryAfter: 30,
      });
      await b.hit(ORG, key, MINUTE, T0 + 1000);
      expect(await a.hit(ORG, key, MINUTE, T0 + 29_999)).toMatchObject({
        allowed: true,
        remaining: 0,
      });
      expect(await b.hit(ORG, key, MINUTE, T0 + 29_999)).toMatchObject({
        allowed: false,
        remaining: 0,
        retryAfter: 1,
      });
      // The next window starts from zero.
      expect(await a.hit(ORG, key, MINUTE, T0 + 30_000)).toMatchObject({
        allowed: true,
        remaining: 2,
        reset: (T0 + 90_000) / 1000,
      });
    });

    it('keeps keys and window lengths apart', async () => {
      const key = newId();
      await a.hit(ORG, key, MINUTE, T0);
      await a.hit(ORG, key, MINUTE, T0);
      expect((await a.hit(ORG, newId(), MINUTE, T0)).remaining).toBe(2);
      expect((await a.hit(ORG, key, { max: 3, windowSeconds: 3600 }, T0)).remaining).toBe(2);
    });

    it('admits exactly max of a concurrent burst split over two limiters', async () => {
      const key = newId();
      const policy = { max: 50, windowSeconds: 60 };
      const results = await Promise.all(
        Array.from({ length: 300 }, (_, i) => (i % 2 === 0 ? a : b).hit(ORG, key, policy, T0)),
      );
      expect(results.filter((r) => r.allowed)).toHaveLength(50);
      expect(new Set(results.filter((r) => r.allowed).map((r) => r.remaining)).size).toBe(50);
    });
  });
}

describe.skipIf(announceSkip('database limiter sweep', await postgresUnavailable()))(
  'database rate limiter',
  () => {
    let schema: TestSchema;
    let store: PostgresStore;
    beforeAll(async () => {
      schema = await createTestSchema();
      store = new PostgresStore(schema.url);
      await store.migrate();
    });
    afterAll(async () => {
      await store?.close();
      await schema?.drop();
    });

    it('sweeps counters of ended windows and keeps the current ones', async () => {
      const limiter = new DatabaseRateLimiter(store);
      const now = Date.now();
      await limiter.hit(ORG, 'old-key', MINUTE, now - 3_600_000);
      await limiter.hit(ORG, 'new-key', MINUTE, now);
      await store.sweepRateLimitCounters(now);
      const rows = await store.query(
        'SELECT organization_id, key_id FROM rate_limit_counters ORDER BY key_id',
      );
      expect(rows).toEqual([{ organization_id: ORG, key_id: 'new-key' }]);
      await limiter.close();
    });
  },
);

describe.skipIf(announceSkip('Redis limiter expiry', await redisUnavailable()))(
  'Redis rate limiter',
  () => {
    it('gives each window counter an expiry after the window ends', async () => {
      const prefix = testRedisPrefix();
      const limiter = new RedisRateLimiter(TEST_REDIS_URL, { prefix });
      await limiter.connect();
      try {
        const key = newId();
        const now = Date.now();
        const { reset } = await limiter.hit(ORG, key, MINUTE, now);
        const [counter] = await limiter.client.keys(`${prefix}${key}:*`);
        expect(counter).toBeDefined();
        const expiresAt = await limiter.client.pexpiretime(counter as string);
        expect(expiresAt).toBe(reset * 1000 + 60_000);
      } finally {
        await limiter.close();
        await dropRedisPrefix(TEST_REDIS_URL, prefix);
      }
    });

    it('writes under REDIS_PREFIX, never under the default prefix, and the test prefix is dropped', async () => {
      const prefix = testRedisPrefix();
      const dir = mkdtempSync(path.join(tmpdir(), 'stockroom-prefix-'));
      const config = loadConfig({
        DATABASE_URL: path.join(dir, 'stockroom.db'),
        REDIS_URL: TEST_REDIS_URL,
        REDIS_PREFIX: prefix,
      });
      const store = new SqliteStore(config.databaseUrl);
      const limiter = await createRateLimiter(config, store, { warn() {}, info() {} });
      const probe = new RedisRateLimiter(TEST_REDIS_URL);
      const underPrefix = async () => {
        const found: string[] = [];
        let cursor = '0';
        do {
          const [next, keys] = await probe.client.scan(cursor, 'MATCH', `${prefix}*`);
          cursor = next;
          found.push(...keys);
        } while (cursor !== '0');
        return found;
      };
      try {
        await probe.connect();
        const key = newId();
        const { reset } = await limiter.hit(ORG, key, MINUTE);
        const window = reset / 60 - 1;
        expect(await underPrefix()).toEqual([`${prefix}rl:${key}:60:${window}`]);
        expect(await probe.client.exists(`stockroom:rl:${key}:60:${window}`)).toBe(0);
        expect(await dropRedisPrefix(TEST_REDIS_URL, prefix)).toBe(1);
        expect(await underPrefix()).toEqual([]);
      } finally {
        await Promise.all([limiter.close(), probe.close(), store.close()]);
        rmSync(dir, { recursive: true, force: true });
      }
    });
  },
);

describe('reconnecting to Redis', () => {
  it('retries quickly at first, then about once a second per process, never in a tight loop', () => {
    for (let attempt = 1; attempt < 1000; attempt++) {
      const delay = reconnectDelay(attempt);
      expect(delay).toBeGreaterThanOrEqual(Math.min(attempt * 100, 1000));
      expect(delay).toBeLessThan(1100);
    }
  });
});
