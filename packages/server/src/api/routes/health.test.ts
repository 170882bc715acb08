import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness.js';
import { announceSkip, postgresUnavailable, redisUnavailable } from '../../testing/services.js';
import { VERSION } from '../../version.js';

describe('GET /api/v1/health', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('answers without a key', async () => {
    const response = await server.request('/api/v1/health');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    // With Redis configured (the PostgreSQL leg), health reports it too.
    const redis = server.server.services.config.redisUrl ? { redis: 'ok' } : {};
    expect(response.body).toEqual({
      status: 'ok',
      version: VERSION,
      checks: { database: 'ok', ...redis },
    });
  });

  it('ignores a supplied key, even an invalid one, and any query', async () => {
    const response = await server.request('/api/v1/health?verbose=1', { key: 'garbage' });
    expect(response.status).toBe(200);
    expect(response.body.status).toBe('ok');
  });

  it('answers HEAD with headers and no body', async () => {
    const response = await server.request('/api/v1/health', { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(response.text).toBe('');
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });
});

const [pgMissing, redisMissing] = await Promise.all([postgresUnavailable(), redisUnavailable()]);
const skipPostgresRedis = announceSkip(
  'health on PostgreSQL with Redis',
  pgMissing ?? redisMissing,
);

describe.skipIf(skipPostgresRedis)('GET /api/v1/health on PostgreSQL with Redis', () => {
  it('reports the database and Redis', async () => {
    const server = await startTestServer({ engine: 'postgres', redis: true });
    try {
      const response = await server.request('/api/v1/health');
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        status: 'ok',
        version: VERSION,
        checks: { database: 'ok', redis: 'ok' },
      });
    } finally {
      await server.close();
    }
  });
});

describe('the health database check', () => {
  it('pings the database at most once a second, however many requests come', async () => {
    const server = await startTestServer();
    try {
      // Count the real store's pings (the check itself is unchanged).
      const store = server.store;
      const ping = store.ping.bind(store);
      let pings = 0;
      store.ping = () => {
        pings += 1;
        return ping();
      };
      const started = Date.now();
      for (let round = 0; round < 3; round++) {
        const burst = await Promise.all(
          Array.from({ length: 40 }, () => server.request('/api/v1/health')),
        );
        for (const response of burst) expect(response.status).toBe(200);
        expect((await server.request('/api/v1/health')).status).toBe(200);
      }
      const elapsedSeconds = (Date.now() - started) / 1000;
      expect(pings).toBeGreaterThanOrEqual(1);
      // One ping per started second of the run at most, plus the first.
      expect(pings).toBeLessThanOrEqual(Math.ceil(elapsedSeconds) + 1);
    } finally {
      await server.close();
    }
  });

  it('sees the database go down within one second', async () => {
    const server = await startTestServer();
    try {
      expect((await server.request('/api/v1/health')).status).toBe(200);
      await server.store.close();
      const closedAt = Date.now();
      let status = 200;
      for (let i = 0; i < 300 && status === 200; i++) {
        const sentAt = Date.now();
        status = (await server.request('/api/v1/health')).status;
        // A cached "ok" may only come from a check made before the database went down, so a
        // request sent a second or more after that is answered by a fresh check.
        if (status === 200) expect(sentAt - closedAt).toBeLessThan(1000);
        else break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(status).toBe(503);
    } finally {
      await server.close();
    }
  });
});

describe('health when the database is down', () => {
  it('answers 503 with status unavailable and keyed routes answer SERVICE_UNAVAILABLE', async () => {
    const server = await startTestServer();
    try {
      await server.store.close();
      const health = await server.request('/api/v1/health');
      expect(health.status).toBe(503);
      expect(health.body).toMatchObject({ status: 'unavailable', checks: { database: 'down' } });
      const verify = await server.request('/api/v1/auth/verify', { key: server.demo.key });
      // The key may still be cached; the item list needs the database either way.
      const items = await server.request('/api/v1/inventory/items', { key: server.demo.key });
      for (const response of [verify, items].filter((r) => r.status !== 200)) {
        expect(response.status).toBe(503);
        expect(response.body.error.code).toBe('SERVICE_UNAVAILABLE');
        expect(response.headers.get('retry-after')).toBe('1');
        expect(response.text).not.toMatch(/sqlite|SELECT|at .*\.js/i);
      }
      expect(items.status).toBe(503);
    } finally {
      await server.close();
    }
  });
});
