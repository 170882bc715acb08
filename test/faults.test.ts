import { describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../packages/server/src/testing/harness.js';
import { TEST_DATABASE_URL } from '../packages/server/src/testing/postgres.js';
import { expectApiError } from '../packages/server/src/testing/security-suite.js';
import {
  announceSkip,
  postgresUnavailable,
  redisUnavailable,
  TEST_REDIS_URL,
} from '../packages/server/src/testing/services.js';
import { tcpProxy } from '../packages/server/src/testing/tcp-proxy.js';

/**
 * Faults within one server: a database that goes away and comes back (the server recovers by
 * itself) and a locked database. SIGTERM and a killed cluster worker, with real `stockroom
 * serve` processes: faults.e2e.test.ts.
 */
const pgSkip = await postgresUnavailable();
const redisSkip = await redisUnavailable();

/** Repeats `send` until `done` holds, for at most `ms` (the condition under test has a bound). */
async function until<T>(send: () => Promise<T>, done: (value: T) => boolean, ms: number) {
  const deadline = Date.now() + ms;
  let value = await send();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    value = await send();
  }
  return value;
}

describe.skipIf(announceSkip('faults on PostgreSQL', pgSkip))(
  'PostgreSQL going away and coming back',
  () => {
    it('answers 503 with Retry-After and health names the database, then recovers by itself', async () => {
      const { hostname, port } = new URL(TEST_DATABASE_URL);
      const proxy = await tcpProxy({ host: hostname, port: Number(port || 5432) });
      let server: TestServer | undefined;
      try {
        server = await startTestServer({
          listen: true,
          engine: 'postgres',
          env: {
            DATABASE_TIMEOUT_MS: '1000',
            ...(redisSkip ? {} : { REDIS_URL: TEST_REDIS_URL }),
          },
          serverDatabaseUrl: (url) => {
            const proxied = new URL(url);
            proxied.hostname = proxy.host;
            proxied.port = String(proxy.port);
            return proxied.toString();
          },
        });
        const live = server;
        const { key } = await live.createKey({
          organizationId: live.demo.organizationId,
          rateLimit: null,
        });
        const items = () => live.request('/api/v1/inventory/items?limit=5', { key });
        const redis = redisSkip ? {} : { redis: 'ok' };
        expect((await items()).status).toBe(200);
        expect((await live.request('/api/v1/health')).body.checks).toEqual({
          database: 'ok',
          ...redis,
        });

        proxy.cut();
        const down = await items();
        expectApiError(down, 503, 'SERVICE_UNAVAILABLE');
        expect(down.headers.get('retry-after')).toBe('1');
        expect(down.text).not.toMatch(/ECONNRESET|postgres|SELECT|at .*\.js/i);
        // The health check is cached for at most a second.
        const health = await until(
          () => live.request('/api/v1/health'),
          (r) => r.status === 503,
          3000,
        );
        expect(health.status).toBe(503);
        expect(health.headers.get('retry-after')).toBe('1');
        expect(health.body).toMatchObject({
          status: 'unavailable',
          checks: { database: 'down', ...redis },
        });
        // Keyed requests keep answering 503 (never a 500 or a hang) while it is down.
        for (const path of ['/api/v1/organization', '/api/v1/inventory/items?limit=1']) {
          const response = await live.request(path, { key });
          if (response.status !== 200) expectApiError(response, 503, 'SERVICE_UNAVAILABLE');
        }

        proxy.restore();
        // No restart: the same process serves again once the database is back.
        const back = await until(items, (r) => r.status === 200, 10_000);
        expect(back.status).toBe(200);
        expect(back.body.count).toBe(5);
        const healthy = await until(
          () => live.request('/api/v1/health'),
          (r) => r.status === 200,
          3000,
        );
        expect(healthy.body).toEqual(
          expect.objectContaining({ status: 'ok', checks: { database: 'ok', ...redis } }),
        );
      } finally {
        await server?.close();
        await proxy.close();
      }
    });
  },
);

describe('a SQLite database locked by another connection', () => {
  it('answers 503 past busy_timeout, keeps serving reads, and serves writes again once released', async () => {
    const server = await startTestServer({
      listen: true,
      engine: 'sqlite',
      env: { DATABASE_TIMEOUT_MS: '200' },
    });
    try {
      const { key, record } = await server.createKey({
        organizationId: server.demo.organizationId,
        remaining: 10,
        rateLimit: null,
      });
      const { key: unlimited } = await server.createKey({
        organizationId: server.demo.organizationId,
        rateLimit: null,
      });
      // Another connection holds the write lock (in WAL mode, readers go on).
      const release = await server.lockWrites();
      let charged: Awaited<ReturnType<TestServer['request']>>;
      let read: Awaited<ReturnType<TestServer['request']>>;
      let health: Awaited<ReturnType<TestServer['request']>>;
      try {
        charged = await server.request('/api/v1/inventory/items?limit=1', { key });
        read = await server.request('/api/v1/inventory/items?limit=1', { key: unlimited });
        health = await server.request('/api/v1/health');
      } finally {
        await release();
      }
      expectApiError(charged, 503, 'SERVICE_UNAVAILABLE');
      expect(charged.headers.get('retry-after')).toBe('1');
      expect(read.status).toBe(200);
      expect(health.body.checks.database).toBe('ok');
      expect((await server.request('/api/v1/inventory/items?limit=1', { key })).status).toBe(200);
      // The refused request spent nothing; the one after it, one use.
      expect(await server.store.getRemaining(record.id)).toBe(9);
    } finally {
      await server.close();
    }
  });
});
