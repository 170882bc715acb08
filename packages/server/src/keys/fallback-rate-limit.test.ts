import { once } from 'node:events';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../ids.js';
import { startTestServer, type TestServer } from '../testing/harness.js';
import { type PrivateRedis, privateRedis, redisServerMissing } from '../testing/redis-server.js';
import { announceSkip, postgresUnavailable } from '../testing/services.js';
import { FallbackRateLimiter } from './fallback-rate-limit.js';
import { MemoryRateLimiter, type RateLimiter } from './rate-limit.js';
import { RedisRateLimiter } from './redis-rate-limit.js';

/** The organization of the keys counted here (counters are keyed by it first). */
const ORG = newId();

/**
 * Redis going away and coming back, with a Redis of the test's own: requests keep being
 * limited by the fallback, the switch is logged once each way, and health says degraded.
 */
const missing = redisServerMissing();
const skip = announceSkip('Redis fallback', missing);

async function untilReady(redis: RedisRateLimiter): Promise<void> {
  if (redis.client.status !== 'ready') await once(redis.client, 'ready');
}

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
    const redis = new RedisRateLimiter(redisServer.url);
    const fallback = new CountingLimiter();
    const limiter = new FallbackRateLimiter(redis, fallback, {
      warn: (_o, message) => logs.push(['warn', message]),
      info: (_o, message) => logs.push(['info', message]),
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
      await down.start();
      await untilReady(redis);
      expect(await limiter.health()).toEqual({ redis: 'ok' });
    } finally {
      await limiter.close();
      await down.kill();
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
