import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { newId } from '../ids.js';
import { SqliteStore } from '../store/sqlite/sqlite-store.js';
import { startTestServer, type TestServer } from '../testing/harness.js';
import { type PrivateRedis, privateRedis, redisServerMissing } from '../testing/redis-server.js';
import { announceSkip, postgresUnavailable } from '../testing/services.js';
import { FallbackRateLimiter } from './fallback-rate-limit.js';
import { MemoryRateLimiter, type RateLimiter } from './rate-limit.js';
import { createRateLimiter } from './rate-limiters.js';
import { RedisRateLimiter } from './redis-rate-limit.js';

/** The organization of the keys counted here (counters are keyed by it first). */
const ORG = newId();

/**
 * Redis going away and coming back, with a Redis of the test's own: requests keep being
 * limited by the fallback, the switch is logged once each way, and health says degraded.
 */
const missing = redisServerMissing();
const skip = announceSkip('Redis fallback', missing);

async function untilDisconnected(redis: RedisRateLimiter): Promise<void> {
  if (redis.client.status === 'ready') await once(redis.client, 'close');
}

class CountingLimiter implements RateLimiter {
  hits = 0;
  private readonly inner = new MemoryRateLimiter();
  hit(...args: Parameters<RateLimiter['hit']>) {
    this.hits += 1;
    return this.inner.hit(...args);
  }
  close() {
    return this.inner.close();
  }
}

describe.skipIf(skip)('FallbackRateLimiter', () => {
  let redisServer: PrivateRedis;
  beforeAll(async () => {
    redisServer = await privateRedis();
    await redisServer.start();
  });
  afterAll(() => redisServer?.kill());

  it('falls back while Redis is down, logs once each way, and returns to Redis', async () => {
    const logs: Array<[string, string]> = [];
    const backObjects: Array<Record<string, unknown>> = [];
    const redis = new RedisRateLimiter(redisServer.url);
    const fallback = new CountingLimiter();
    const limiter = new FallbackRateLimiter(redis, fallback, {
      warn: (_o, message) => logs.push(['warn', message]),
      info: (object, message) => {
        logs.push(['info', message]);
        backObjects.push(object);
      },
    });
    const key = newId();
    const policy = { max: 100, windowSeconds: 3600 };
    try {
      await redis.connect();
      for (let i = 0; i < 3; i++) await limiter.hit(ORG, key, policy);
      expect(fallback.hits).toBe(0);
      expect(await limiter.health()).toEqual({ redis: 'ok' });

      const disconnected = untilDisconnected(redis);
      await redisServer.kill();
      await disconnected;
      const during = await Promise.all(
        Array.from({ length: 10 }, () => limiter.hit(ORG, key, policy)),
      );
      expect(fallback.hits).toBe(10);
      expect(during.every((r) => r.allowed)).toBe(true);
      expect(await limiter.health()).toEqual({ redis: 'down' });
      expect(logs).toEqual([
        [
          'warn',
          'Redis is unreachable: rate limits fall back to the local limiter until it returns',
        ],
      ]);

      const up = once(limiter, 'up');
      await redisServer.start();
      await up;
      // A fresh Redis has no counters: its window starts over.
      expect((await limiter.hit(ORG, key, policy)).remaining).toBe(99);
      expect(fallback.hits).toBe(10);
      expect(await limiter.health()).toEqual({ redis: 'ok' });
      expect(logs.map(([level]) => level)).toEqual(['warn', 'info']);
      // The line of its return says how many requests the fallback answered meanwhile.
      expect(backObjects).toEqual([{ downMs: expect.any(Number), fallbackRequests: 10 }]);
    } finally {
      await limiter.close();
    }
  });

  it('falls back while Redis hangs (connected, silent), and returns to it when it answers', async () => {
    const logs: string[] = [];
    const redis = new RedisRateLimiter(redisServer.url, { commandTimeoutMs: 200 });
    const fallback = new CountingLimiter();
    const limiter = new FallbackRateLimiter(redis, fallback, {
      warn: (_o, message) => logs.push(message),
      info: (_o, message) => logs.push(message),
    });
    const key = newId();
    const policy = { max: 100, windowSeconds: 3600 };
    try {
      await redis.connect();
      await limiter.hit(ORG, key, policy);
      redisServer.pause();
      try {
        const during = await Promise.all(
          Array.from({ length: 5 }, () => limiter.hit(ORG, key, policy)),
        );
        expect(during.every((r) => r.allowed)).toBe(true);
        expect(fallback.hits).toBe(5);
        expect(await limiter.health()).toEqual({ redis: 'down' });
      } finally {
        redisServer.resume();
      }
      await once(limiter, 'up');
      // The same Redis, its counter intact: one hit before, this one, and whatever of the
      // timed-out hits it applied when it woke up (each a stricter count, never a laxer one).
      const after = await limiter.hit(ORG, key, policy);
      expect(after.remaining).toBeLessThanOrEqual(98);
      expect(fallback.hits).toBe(5);
      expect(await limiter.health()).toEqual({ redis: 'ok' });
      expect(logs).toEqual([
        'Redis is unreachable: rate limits fall back to the local limiter until it returns',
        'Redis is reachable again: rate limits are shared through it',
      ]);
    } finally {
      await limiter.close();
    }
  });

  it('once Redis is marked down, sends it nothing but probes until it answers again', async () => {
    const logs: string[] = [];
    const redis = new RedisRateLimiter(redisServer.url, { commandTimeoutMs: 200 });
    const fallback = new CountingLimiter();
    const limiter = new FallbackRateLimiter(redis, fallback, {
      warn: (_o, message) => logs.push(message),
      info: (_o, message) => logs.push(message),
    });
    // A connection of its own, opened before the freeze, reads what Redis executed.
    const observer = new Redis(redisServer.url);
    const incrCalls = async () => {
      const stats = await observer.info('commandstats');
      return Number(/cmdstat_incr:calls=(\d+)/.exec(stats)?.[1] ?? 0);
    };
    const key = newId();
    const policy = { max: 100, windowSeconds: 3600 };
    try {
      await redis.connect();
      await observer.ping();
      await limiter.hit(ORG, key, policy);
      const before = await incrCalls();
      redisServer.pause();
      try {
        // The first request after the freeze waits for the command timeout and marks it down.
        const down = once(limiter, 'down');
        expect((await limiter.hit(ORG, key, policy)).allowed).toBe(true);
        await down;
        // From then on every request is answered by the fallback while Redis stays frozen.
        const during = await Promise.all(
          Array.from({ length: 20 }, () => limiter.hit(ORG, key, policy)),
        );
        expect(during.every((r) => r.allowed)).toBe(true);
        expect(fallback.hits).toBe(21);
      } finally {
        redisServer.resume();
      }
      await once(limiter, 'up');
      // Redis executed the hit before the freeze and the one that timed out (it was already
      // on the wire), never the 20 answered meanwhile.
      expect((await incrCalls()) - before).toBe(1);
      await limiter.hit(ORG, key, policy);
      expect(fallback.hits).toBe(21);
      expect(await incrCalls()).toBe(before + 2);
      expect(logs).toEqual([
        'Redis is unreachable: rate limits fall back to the local limiter until it returns',
        'Redis is reachable again: rate limits are shared through it',
      ]);
    } finally {
      observer.disconnect();
      await limiter.close();
    }
  });

  it('answers a hit from the fallback at its own deadline while Redis hangs, not at the connection timeout', async () => {
    // The connection's own command timeout is a minute, beyond the test's timeout: only the
    // limiter's deadline can have answered these.
    const redis = new RedisRateLimiter(redisServer.url, { backgroundTimeoutMs: 60_000 });
    const fallback = new CountingLimiter();
    const limiter = new FallbackRateLimiter(redis, fallback, { warn() {}, info() {} });
    const observer = new Redis(redisServer.url);
    const pingCalls = async () => {
      const stats = await observer.info('commandstats');
      return Number(/cmdstat_ping:calls=(\d+)/.exec(stats)?.[1] ?? 0);
    };
    const key = newId();
    const policy = { max: 100, windowSeconds: 3600 };
    try {
      await redis.connect();
      await observer.ping();
      expect(await limiter.health()).toEqual({ redis: 'ok' });
      redisServer.pause();
      try {
        expect((await limiter.hit(ORG, key, policy)).remaining).toBe(99);
        expect(fallback.hits).toBe(1);
        expect(limiter.isDown).toBe(true);
        // Health while down is the breaker's state: Redis is not asked.
        expect(await limiter.health()).toEqual({ redis: 'down' });
      } finally {
        redisServer.resume();
      }
      await once(limiter, 'up');
      const pings = await pingCalls();
      for (let i = 0; i < 3; i++) await limiter.health();
      // Asked at most once a second while up: three checks in a row are at most one PING.
      expect((await pingCalls()) - pings).toBeLessThanOrEqual(1);
    } finally {
      observer.disconnect();
      await limiter.close();
    }
  });

  it('notices a hung Redis through health alone (no request needed), within the deadline', async () => {
    const logs: string[] = [];
    const redis = new RedisRateLimiter(redisServer.url, { backgroundTimeoutMs: 60_000 });
    const limiter = new FallbackRateLimiter(
      redis,
      new MemoryRateLimiter(),
      { warn: (_o, message) => logs.push(message), info: (_o, message) => logs.push(message) },
      // Every health check asks Redis while it is up (no one-second cache to wait out).
      { healthTtlMs: 0 },
    );
    try {
      await redis.connect();
      expect(await limiter.health()).toEqual({ redis: 'ok' });
      redisServer.pause();
      try {
        expect(await limiter.health()).toEqual({ redis: 'down' });
        expect(await limiter.health()).toEqual({ redis: 'down' });
      } finally {
        redisServer.resume();
      }
      expect(logs).toEqual([
        'Redis is unreachable: rate limits fall back to the local limiter until it returns',
      ]);
      await once(limiter, 'up');
      expect(await limiter.health()).toEqual({ redis: 'ok' });
    } finally {
      redisServer.resume();
      await limiter.close();
    }
  });

  it('starts (degraded) when Redis is down at boot', async () => {
    const down = await privateRedis();
    const redis = new RedisRateLimiter(down.url);
    const limiter = new FallbackRateLimiter(redis, new MemoryRateLimiter(), {
      warn: () => {},
      info: () => {},
    });
    try {
      await expect(redis.connect()).rejects.toThrow();
      expect((await limiter.hit(ORG, newId(), { max: 1, windowSeconds: 60 })).allowed).toBe(true);
      expect(await limiter.health()).toEqual({ redis: 'down' });
      // The reconnected client is probed at once; health follows the switch.
      const up = once(limiter, 'up');
      await down.start();
      await up;
      expect(await limiter.health()).toEqual({ redis: 'ok' });
    } finally {
      await limiter.close();
      await down.kill();
    }
  });
});

describe.skipIf(skip)('createRateLimiter with a Redis that hangs from the start', () => {
  it('starts degraded (logged once), limits locally, and shares through Redis once it answers', async () => {
    const hung = await privateRedis();
    await hung.start();
    hung.pause();
    const dir = mkdtempSync(path.join(tmpdir(), 'stockroom-hung-'));
    const config = loadConfig({
      DATABASE_URL: path.join(dir, 'stockroom.db'),
      REDIS_URL: hung.url,
      REDIS_PREFIX: 'stockroom-hung-test:',
    });
    const store = new SqliteStore(config.databaseUrl);
    const logs: string[] = [];
    let limiter: FallbackRateLimiter | undefined;
    try {
      // It accepts the connection and never answers: the start does not wait for it forever.
      limiter = (await createRateLimiter(config, store, {
        warn: (_o, message) => logs.push(message),
        info: (_o, message) => logs.push(message),
      })) as FallbackRateLimiter;
      expect(await limiter.health()).toEqual({ redis: 'down' });
      const key = newId();
      const policy = { max: 2, windowSeconds: 3600 };
      const during = [];
      for (let i = 0; i < 3; i++) during.push((await limiter.hit(ORG, key, policy)).allowed);
      expect(during).toEqual([true, true, false]);
      expect(logs).toEqual([
        'Redis is unreachable: rate limits fall back to the local limiter until it returns',
      ]);

      const up = once(limiter, 'up');
      hung.resume();
      await up;
      expect(await limiter.health()).toEqual({ redis: 'ok' });
      // Counted in Redis now (a fresh counter there), by any process sharing it.
      const other = new RedisRateLimiter(hung.url, { prefix: 'stockroom-hung-test:rl:' });
      await other.connect();
      try {
        expect((await limiter.hit(ORG, key, policy)).remaining).toBe(1);
        expect((await other.hit(ORG, key, policy)).remaining).toBe(0);
        expect((await limiter.hit(ORG, key, policy)).allowed).toBe(false);
      } finally {
        await other.close();
      }
      expect(logs).toHaveLength(2);
    } finally {
      hung.resume();
      await limiter?.close();
      await store.close();
      await hung.kill();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

const pgSkip = await postgresUnavailable();
for (const engine of ['sqlite', 'postgres'] as const) {
  const reason = missing ?? (engine === 'postgres' ? pgSkip : null);
  describe.skipIf(announceSkip(`health with Redis down on ${engine}`, reason))(
    `health with Redis on ${engine}`,
    () => {
      let redisServer: PrivateRedis;
      let server: TestServer;
      beforeAll(async () => {
        redisServer = await privateRedis();
        await redisServer.start();
        server = await startTestServer({
          listen: true,
          engine,
          env: { REDIS_URL: redisServer.url },
          captureLogs: true,
        });
      });
      afterAll(async () => {
        await server?.close();
        await redisServer?.kill();
      });

      it('reports degraded (200) while Redis is down, keeps limiting, and recovers', async () => {
        const limiter = server.server.services.rateLimiter as FallbackRateLimiter;
        const { key } = await server.createKey({
          organizationId: server.demo.organizationId,
          rateLimit: { max: 2, windowSeconds: 3600 },
        });
        expect((await server.request('/api/v1/health')).body).toMatchObject({
          status: 'ok',
          checks: { database: 'ok', redis: 'ok' },
        });

        const disconnected = untilDisconnected(limiter.redis);
        await redisServer.kill();
        await disconnected;
        const health = await server.request('/api/v1/health');
        expect(health.status).toBe(200);
        expect(health.body).toMatchObject({
          status: 'degraded',
          checks: { database: 'ok', redis: 'down' },
        });
        const statuses = [];
        for (let i = 0; i < 3; i++) {
          statuses.push((await server.request('/api/v1/auth/verify', { key })).status);
        }
        expect(statuses).toEqual([200, 200, 401]);
        const warnings = server.logs.filter((line) =>
          String(line.msg).startsWith('Redis is unreachable'),
        );
        expect(warnings).toHaveLength(1);

        const up = once(limiter, 'up');
        await redisServer.start();
        await up;
        expect((await server.request('/api/v1/auth/verify', { key })).status).toBe(200);
        expect((await server.request('/api/v1/health')).body).toMatchObject({
          status: 'ok',
          checks: { database: 'ok', redis: 'ok' },
        });
      });
    },
  );
}
