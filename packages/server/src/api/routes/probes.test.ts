import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type Env, loadConfig } from '../../config.js';
import { createServices, type Services } from '../../context.js';
import {
  announceSkip,
  redisUnavailable,
  TEST_REDIS_URL,
  testRedisPrefix,
} from '../../testing/services.js';
import { createApiApp } from '../app.js';

/**
 * /livez and /readyz through app.inject, on a real SQLite store (closed to take the database
 * away) and real Redis (the shared one, or an address where nothing answers or one that never
 * answers).
 */
const dirs: string[] = [];
const opened: Array<{ app: FastifyInstance; services: Services }> = [];
const servers: net.Server[] = [];
afterEach(async () => {
  for (const { app, services } of opened.splice(0)) {
    await app.close();
    await services.close().catch(() => {});
  }
});
afterAll(async () => {
  for (const server of servers) server.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function api(env: Env = {}): Promise<{ app: FastifyInstance; services: Services }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'stockroom-probes-'));
  dirs.push(dir);
  const config = loadConfig({
    DATABASE_URL: path.join(dir, 'stockroom.db'),
    LOG_LEVEL: 'silent',
    REDIS_PREFIX: testRedisPrefix(),
    ...env,
  });
  const services = await createServices(config, {
    publicDocsUrl: 'http://docs.example.test',
    publicApiUrl: 'http://api.example.test',
  });
  await services.store.migrate();
  const app = await createApiApp(services);
  opened.push({ app, services });
  return { app, services };
}

/** A TCP server on a free port that accepts connections and never answers (a hung Redis). */
async function silentServer(): Promise<number> {
  const server = net.createServer(() => {});
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as net.AddressInfo).port;
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function expectNotReady(
  response: { statusCode: number; headers: Record<string, unknown>; json(): unknown },
  ...named: RegExp[]
) {
  expect(response.statusCode).toBe(503);
  expect(response.headers['retry-after']).toBe('1');
  const body = response.json() as { error: { code: string; message: string; status: number } };
  expect(body.error.code).toBe('SERVICE_UNAVAILABLE');
  expect(body.error.status).toBe(503);
  for (const pattern of named) expect(body.error.message).toMatch(pattern);
  return body.error.message;
}

describe('GET /livez', () => {
  it('answers 200 {"status":"ok"} without a key, ignoring a bad one, and HEAD too', async () => {
    const { app } = await api();
    const response = await app.inject({ url: '/livez' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.body).toBe('{"status":"ok"}');
    const keyed = await app.inject({ url: '/livez', headers: { 'x-api-key': 'garbage' } });
    expect(keyed.statusCode).toBe(200);
    const head = await app.inject({ method: 'HEAD', url: '/livez' });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
  });

  it('stays 200 while the database is down and while draining', async () => {
    const { app, services } = await api();
    services.draining = true;
    expect((await app.inject({ url: '/livez' })).statusCode).toBe(200);
    await services.store.close();
    expect((await app.inject({ url: '/livez' })).statusCode).toBe(200);
  });

  it('refuses other methods with 405', async () => {
    const { app } = await api();
    const response = await app.inject({ method: 'POST', url: '/livez', payload: '{' });
    expect(response.statusCode).toBe(405);
    expect(response.json().error.code).toBe('METHOD_NOT_ALLOWED');
  });
});

describe('GET /readyz', () => {
  it('answers 200 and says what it checked when the database answers', async () => {
    const { app } = await api();
    const response = await app.inject({ url: '/readyz' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('{"status":"ok","checks":{"database":"ok"}}');
    const head = await app.inject({ method: 'HEAD', url: '/readyz' });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
  });

  it('answers 503 naming the database once the store is closed, and HEAD too', async () => {
    const { app, services } = await api();
    expect((await app.inject({ url: '/readyz' })).statusCode).toBe(200);
    await services.store.close();
    const message = expectNotReady(await app.inject({ url: '/readyz' }), /database/);
    expect(message).not.toMatch(/redis|draining/i);
    const head = await app.inject({ method: 'HEAD', url: '/readyz' });
    expect(head.statusCode).toBe(503);
    expect(head.body).toBe('');
  });

  it('answers 503 naming draining once the process drains, with a working database', async () => {
    const { app, services } = await api();
    services.draining = true;
    const message = expectNotReady(await app.inject({ url: '/readyz' }), /draining/);
    expect(message).not.toMatch(/database/);
    // The database itself still answers: only readiness changed.
    await expect(services.store.ping()).resolves.toBeUndefined();
  });

  it('is never rate limited and never counted by the auth-failure throttle', async () => {
    const { app } = await api({ AUTH_FAILURE_LIMIT: '2/1h' });
    for (let i = 0; i < 10; i++) {
      for (const url of ['/readyz', '/livez']) {
        const response = await app.inject({ url, headers: { 'x-api-key': `sr_org_guess${i}` } });
        expect(response.statusCode).toBe(200);
      }
    }
    // Had the probes counted, the address would be throttled already: it is not.
    for (let i = 0; i < 2; i++) {
      const response = await app.inject({
        url: '/api/v1/organization',
        headers: { 'x-api-key': 'garbage' },
      });
      expect(response.json().error.code).toBe('INVALID_API_KEY');
    }
    const throttled = await app.inject({
      url: '/api/v1/organization',
      headers: { 'x-api-key': 'garbage' },
    });
    expect(throttled.json().error.code).toBe('RATE_LIMITED');
    // And the throttled address still gets its probes.
    expect((await app.inject({ url: '/readyz' })).statusCode).toBe(200);
  });

  // Without Redis every instance serves on its local fallback rate limiter: were readiness to
  // depend on it, a Redis outage would take every instance out of the load balancer at once.
  it('stays 200, reporting redis down, when the configured Redis does not answer', async () => {
    const { app } = await api({ REDIS_URL: `redis://127.0.0.1:${await closedPort()}` });
    const response = await app.inject({ url: '/readyz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: 'degraded',
      checks: { database: 'ok', redis: 'down' },
    });
    // And the API itself serves, on the fallback limiter.
    expect((await app.inject({ url: '/api/v1/health' })).statusCode).toBe(200);
  });

  it('stays 200 rather than hanging when the configured Redis accepts and never answers', async () => {
    const { app } = await api({ REDIS_URL: `redis://127.0.0.1:${await silentServer()}` });
    const response = await app.inject({ url: '/readyz' });
    expect(response.statusCode).toBe(200);
    // The rate limiter's own deadline may answer first ("down") or readyz's ("timeout").
    expect(response.json()).toEqual({
      status: 'degraded',
      checks: { database: 'ok', redis: expect.stringMatching(/^(down|timeout)$/) },
    });
  });

  it('fails on the database and on draining only, whatever Redis says', async () => {
    const { app, services } = await api({ REDIS_URL: `redis://127.0.0.1:${await closedPort()}` });
    await services.store.close();
    services.draining = true;
    // Draining is answered without checking anything.
    const draining = expectNotReady(await app.inject({ url: '/readyz' }), /draining/);
    expect(draining).not.toMatch(/database|redis/);
    services.draining = false;
    const message = expectNotReady(await app.inject({ url: '/readyz' }), /database/);
    expect(message).not.toMatch(/redis/);
  });

  it('appears in the OpenAPI document, outside /api/v1, without security', async () => {
    const { app } = await api();
    await app.ready();
    const doc = app.swagger() as {
      paths: Record<string, Record<string, { tags?: string[]; security?: unknown }>>;
    };
    for (const probe of ['/livez', '/readyz']) {
      expect(doc.paths[probe]?.get?.tags).toEqual(['Probes']);
      expect(doc.paths[probe]?.get?.security).toBeUndefined();
    }
  });
});

describe.skipIf(announceSkip('readyz with Redis', await redisUnavailable()))(
  'GET /readyz with Redis',
  () => {
    it('checks Redis too when it is configured', async () => {
      const { app } = await api({ REDIS_URL: TEST_REDIS_URL });
      const response = await app.inject({ url: '/readyz' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ status: 'ok', checks: { database: 'ok', redis: 'ok' } });
    });
  },
);
