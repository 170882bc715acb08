import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN } from '../admin/testing.js';
import { generateKey } from '../keys/format.js';
import { startTestServer, type TestServer } from '../testing/harness.js';

/**
 * TRUST_PROXY on a real server (its API, docs and admin hosts, as `serve` builds them): clients
 * behind one proxy are told apart by the address X-Forwarded-For names, in every request log
 * line (`clientAddress`), in the invalid-key throttle and in the admin API's audit actor. The
 * requests are injected with the peer address a proxy would connect from.
 */
const ITEMS = '/api/v1/inventory/items?limit=1';
const PROXY = '10.0.0.1';

interface Sent {
  status: number;
  requestId: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests inspect arbitrary JSON
  body: any;
}

async function send(
  app: FastifyInstance,
  url: string,
  from: { peer: string; xff?: string },
  headers: Record<string, string> = {},
  method: 'GET' | 'POST' = 'GET',
  payload?: unknown,
): Promise<Sent> {
  const reply = await app.inject({
    method,
    url,
    remoteAddress: from.peer,
    headers: { ...(from.xff === undefined ? {} : { 'x-forwarded-for': from.xff }), ...headers },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  const type = String(reply.headers['content-type'] ?? '');
  return {
    status: reply.statusCode,
    requestId: String(reply.headers['x-request-id']),
    body: type.includes('json') ? reply.json() : null,
  };
}

function logLine(server: TestServer, requestId: string): Record<string, unknown> {
  const line = server.logs.find((l) => l.msg === 'request' && l.requestId === requestId);
  if (!line) throw new Error(`no request log line with request id ${requestId}`);
  return line;
}

describe('TRUST_PROXY with the proxy’s address', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      captureLogs: true,
      env: { TRUST_PROXY: PROXY, AUTH_FAILURE_LIMIT: '3/1d', ADMIN_TOKEN, ADMIN_PORT: '0' },
    });
  });
  afterAll(() => server.close());

  it('logs the client the proxy names on every host; a direct sender’s header is ignored', async () => {
    const { api, admin } = server.server;
    const docs = await server.docs();
    // The client sent a forged entry; the proxy appended the address it saw.
    const viaProxy = { peer: PROXY, xff: '198.51.100.66, 203.0.113.9' };
    const direct = { peer: '192.0.2.77', xff: '203.0.113.9' };

    const a = await send(api, ITEMS, viaProxy, { 'x-api-key': server.demo.key });
    expect(a.status).toBe(200);
    expect(logLine(server, a.requestId)).toMatchObject({
      route: '/api/v1/inventory/items',
      status: 200,
      clientAddress: '203.0.113.9',
    });
    const b = await send(api, ITEMS, direct, { 'x-api-key': server.demo.key });
    expect(logLine(server, b.requestId).clientAddress).toBe('192.0.2.77');
    // Answers given before routing (a malformed percent-encoding) log it too.
    const c = await send(api, '/api/v1/%zz', viaProxy);
    expect(c.status).toBe(400);
    expect(logLine(server, c.requestId).clientAddress).toBe('203.0.113.9');

    const d = await send(docs, '/en/docs/introduction', viaProxy);
    expect(d.status).toBe(200);
    const docsLine = server.logs.findLast((l) => l.app === 'docs' && l.msg === 'request');
    expect(docsLine).toMatchObject({ status: 200, clientAddress: '203.0.113.9' });
    await send(docs, '/en/docs/introduction', direct);
    expect(server.logs.findLast((l) => l.app === 'docs')?.clientAddress).toBe('192.0.2.77');

    expect(admin).not.toBeNull();
    const e = await send(admin as FastifyInstance, '/admin/v1/organizations', viaProxy, {
      authorization: `Bearer ${ADMIN_TOKEN}`,
    });
    expect(e.status).toBe(200);
    expect(logLine(server, e.requestId)).toMatchObject({
      app: 'admin',
      clientAddress: '203.0.113.9',
    });
  });

  it('records the admin API’s actor as admin-api:<client address>', async () => {
    const admin = server.server.admin as FastifyInstance;
    const created = await send(
      admin,
      '/admin/v1/organizations',
      { peer: PROXY, xff: '2001:db8::42' },
      { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      'POST',
      { name: 'Behind the proxy' },
    );
    expect(created.status).toBe(201);
    const [event] = await server.store.listAuditEvents(created.body.data.id);
    expect(event).toMatchObject({
      action: 'organization.created',
      actor: 'admin-api:2001:db8::42',
    });
  });

  it('throttles a key guesser behind the proxy without locking out another client of it', async () => {
    const { api } = server.server;
    const guesser = { peer: PROXY, xff: '203.0.113.20' };
    const neighbour = { peer: PROXY, xff: '203.0.113.21' };
    for (let i = 0; i < 3; i++) {
      const guess = await send(api, ITEMS, guesser, { 'x-api-key': generateKey('user').key });
      expect(guess.body.error.code).toBe('INVALID_API_KEY');
    }
    // Keys this server has never accepted: the throttle alone decides.
    const first = await server.createKey({ organizationId: server.demo.organizationId });
    const second = await server.createKey({ organizationId: server.demo.organizationId });
    const refused = await send(api, ITEMS, guesser, { 'x-api-key': first.key });
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('RATE_LIMITED');
    expect(logLine(server, refused.requestId).clientAddress).toBe('203.0.113.20');
    expect((await send(api, ITEMS, neighbour, { 'x-api-key': second.key })).status).toBe(200);
    // Nor the proxy's own requests (a health check with a key, say), nor a direct client.
    const third = await server.createKey({ organizationId: server.demo.organizationId });
    expect((await send(api, ITEMS, { peer: PROXY }, { 'x-api-key': third.key })).status).toBe(200);
    // A guesser cannot escape by forging an entry: the proxy's appended address still counts.
    const forged = await send(
      api,
      ITEMS,
      { peer: PROXY, xff: '198.51.100.1, 203.0.113.20' },
      { 'x-api-key': generateKey('user').key },
    );
    expect(forged.body.error.code).toBe('RATE_LIMITED');
  });
});

describe('TRUST_PROXY=1 (one proxy in front)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      captureLogs: true,
      env: { TRUST_PROXY: '1', AUTH_FAILURE_LIMIT: '2/1d' },
    });
  });
  afterAll(() => server.close());

  it('takes the entry the proxy appended, and keeps clients behind it apart', async () => {
    const { api } = server.server;
    const logged = await send(api, ITEMS, { peer: PROXY, xff: '198.51.100.66, 203.0.113.9' });
    expect(logLine(server, logged.requestId).clientAddress).toBe('203.0.113.9');
    for (let i = 0; i < 2; i++) {
      await send(api, ITEMS, { peer: PROXY, xff: '203.0.113.30' }, { 'x-api-key': 'nope' });
    }
    const key = await server.createKey({ organizationId: server.demo.organizationId });
    const other = await server.createKey({ organizationId: server.demo.organizationId });
    const refused = await send(
      api,
      ITEMS,
      { peer: PROXY, xff: '203.0.113.30' },
      { 'x-api-key': key.key },
    );
    expect(refused.body.error.code).toBe('RATE_LIMITED');
    const allowed = await send(
      api,
      ITEMS,
      { peer: PROXY, xff: '203.0.113.31' },
      { 'x-api-key': other.key },
    );
    expect(allowed.status).toBe(200);
  });
});

describe('without TRUST_PROXY, behind a proxy', () => {
  it('every client is the proxy: one guesser locks out the others (why the setting matters)', async () => {
    const server = await startTestServer({
      captureLogs: true,
      env: { AUTH_FAILURE_LIMIT: '2/1d' },
    });
    try {
      const { api } = server.server;
      for (let i = 0; i < 2; i++) {
        await send(api, ITEMS, { peer: PROXY, xff: '203.0.113.30' }, { 'x-api-key': 'nope' });
      }
      const other = await server.createKey({ organizationId: server.demo.organizationId });
      const refused = await send(
        api,
        ITEMS,
        { peer: PROXY, xff: '203.0.113.31' },
        { 'x-api-key': other.key },
      );
      expect(refused.body.error.code).toBe('RATE_LIMITED');
      expect(logLine(server, refused.requestId).clientAddress).toBe(PROXY);
    } finally {
      await server.close();
    }
  });
});
