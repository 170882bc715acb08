import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../testing/harness.js';
import {
  ADMIN_TOKEN,
  type AdminTestServer,
  adminRequest,
  startAdminTestServer,
} from './testing.js';

/** A port free right now on 127.0.0.1. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Whether something accepts TCP connections on the port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('the admin API is off unless ADMIN_TOKEN is set', () => {
  it('opens no port and serves nothing on the API port', async () => {
    const port = await freePort();
    const server = await startTestServer({ listen: true, env: { ADMIN_PORT: String(port) } });
    try {
      expect(server.server.adminUrl).toBeNull();
      expect(server.server.admin).toBeNull();
      expect(await listening(port)).toBe(false);
      const onApi = await server.request('/admin/v1/organizations', {
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      });
      expect(onApi.status).toBe(404);
      expect(onApi.body.error.code).toBe('ROUTE_NOT_FOUND');
    } finally {
      await server.close();
    }
  });
});

describe('the admin host', () => {
  let t: AdminTestServer;

  beforeAll(async () => {
    t = await startAdminTestServer({ captureLogs: true });
  });
  afterAll(() => t?.close());

  it('serves nothing of the admin API on the API port, even with the token', async () => {
    const answer = await t.server.request('/admin/v1/organizations', {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(answer.status).toBe(404);
  });

  it('answers with the token, in the Bearer scheme of any case', async () => {
    for (const scheme of ['Bearer', 'bearer', 'BEARER']) {
      const answer = await t.admin('GET', '/admin/v1/organizations', {
        token: null,
        headers: { authorization: `${scheme} ${ADMIN_TOKEN}` },
      });
      expect(answer.status, scheme).toBe(200);
    }
  });

  describe('refuses a missing, malformed or wrong token with 401 ADMIN_UNAUTHORIZED', () => {
    const wrong: Array<[string, Record<string, string>]> = [
      ['no Authorization header', {}],
      ['an empty header', { authorization: '' }],
      ['the token without a scheme', { authorization: ADMIN_TOKEN }],
      ['another scheme', { authorization: `Basic ${ADMIN_TOKEN}` }],
      ['the scheme alone', { authorization: 'Bearer' }],
      ['a token with a space in it', { authorization: `Bearer ${ADMIN_TOKEN} x` }],
      ['one character off', { authorization: `Bearer ${ADMIN_TOKEN.slice(0, -1)}w` }],
      ['a prefix of the token', { authorization: `Bearer ${ADMIN_TOKEN.slice(0, 32)}` }],
      ['the token and more', { authorization: `Bearer ${ADMIN_TOKEN}x` }],
      ['the token in x-api-key', { 'x-api-key': ADMIN_TOKEN }],
    ];
    it.each(wrong)('%s', async (_label, headers) => {
      const answer = await t.admin('GET', '/admin/v1/organizations', { token: null, headers });
      expect(answer.status).toBe(401);
      expect(answer.headers.get('www-authenticate')).toBe('Bearer realm="stockroom-admin"');
      expect(answer.body.error).toMatchObject({ code: 'ADMIN_UNAUTHORIZED', status: 401 });
      expect(answer.text).not.toContain(ADMIN_TOKEN.slice(0, 32));
    });

    it('an API key is not an admin token', async () => {
      const answer = await t.admin('GET', '/admin/v1/organizations', { token: t.server.demo.key });
      expect(answer.status).toBe(401);
      expect(answer.body.error.code).toBe('ADMIN_UNAUTHORIZED');
    });

    it('before anything else: unknown paths, other methods and bad bodies are 401 too', async () => {
      for (const [method, path, raw] of [
        ['GET', '/nowhere', undefined],
        ['GET', '/admin/v1/organizations/nope', undefined],
        ['DELETE', '/admin/v1/organizations', undefined],
        ['POST', '/admin/v1/organizations', '{not json'],
        ['GET', '/admin/v1/openapi.json', undefined],
      ] as const) {
        const answer = await t.admin(method, path, {
          token: 'x'.repeat(40),
          ...(raw === undefined ? {} : { raw, headers: { 'content-type': 'application/json' } }),
        });
        expect(answer.status, `${method} ${path}`).toBe(401);
      }
    });
  });

  it('answers errors in the API envelope, with a docUrl on the admin API page', async () => {
    const answer = await t.admin('GET', '/admin/v1/organizations', {
      token: null,
      headers: { 'x-request-id': 'admin-req-1' },
    });
    expect(Object.keys(answer.body.error)).toEqual([
      'code',
      'message',
      'status',
      'requestId',
      'docUrl',
    ]);
    expect(answer.body.error.requestId).toBe('admin-req-1');
    expect(answer.headers.get('x-request-id')).toBe('admin-req-1');
    expect(answer.body.error.docUrl).toBe(
      `${t.server.docsUrl}/en/docs/admin-api#admin_unauthorized`,
    );
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });

  it('sends no CORS headers and does not answer preflights', async () => {
    const origin = 'https://shop.example';
    const get = await t.admin('GET', '/admin/v1/organizations', { headers: { origin } });
    expect(get.status).toBe(200);
    const preflightHeaders = {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization, content-type',
    };
    const anonymous = await t.admin('OPTIONS', '/admin/v1/organizations', {
      token: null,
      headers: preflightHeaders,
    });
    expect(anonymous.status).toBe(401);
    const keyed = await t.admin('OPTIONS', '/admin/v1/organizations', {
      headers: preflightHeaders,
    });
    expect(keyed.status).toBe(405);
    for (const answer of [get, anonymous, keyed]) {
      const cors = [...answer.headers.keys()].filter((name) => name.startsWith('access-control-'));
      expect(cors).toEqual([]);
    }
  });

  it('carries the security headers and forbids caching', async () => {
    const answer = await t.admin('GET', '/admin/v1/organizations');
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    expect(answer.headers.get('content-security-policy')).toBe(
      "default-src 'none'; frame-ancestors 'none'",
    );
    expect(answer.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('404 for unknown paths, 405 with Allow for other methods on known ones', async () => {
    const unknown = await t.admin('GET', '/admin/v1/nothing-here');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('ROUTE_NOT_FOUND');
    const put = await t.admin('PUT', '/admin/v1/organizations', { json: {} });
    expect(put.status).toBe(405);
    expect(put.body.error.code).toBe('METHOD_NOT_ALLOWED');
    expect(put.headers.get('allow')).toBe('GET, HEAD, POST');
    const param = await t.admin('POST', '/admin/v1/organizations/acme/keys/abc', { json: {} });
    expect(param.status).toBe(405);
    expect(param.headers.get('allow')).toBe('GET, HEAD, PATCH');
  });

  it('reads JSON bodies only, and says what is wrong with one it cannot read', async () => {
    const text = await t.admin('POST', '/admin/v1/organizations', {
      raw: '{"name":"Plain"}',
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.status).toBe(415);
    expect(text.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const malformed = await t.admin('POST', '/admin/v1/organizations', {
      raw: '{"name":',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toMatchObject({ code: 'INVALID_REQUEST', param: 'body' });
    const empty = await t.admin('POST', '/admin/v1/organizations', {
      raw: '',
      headers: { 'content-type': 'application/json' },
    });
    expect(empty.status).toBe(400);
    expect(empty.body.error.code).toBe('INVALID_REQUEST');
    const proto = await t.admin('POST', '/admin/v1/organizations', {
      raw: '{"name":"X","__proto__":{"admin":true}}',
      headers: { 'content-type': 'application/json' },
    });
    expect(proto.status).toBe(400);
    const huge = await t.admin('POST', '/admin/v1/organizations', {
      json: { name: 'x'.repeat(2 * 1024 * 1024) },
    });
    expect(huge.status).toBe(413);
    expect(huge.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(await t.server.store.findOrganization('plain')).toBeNull();
  });

  it('serves its own OpenAPI document, behind the token, and the public one stays public-only', async () => {
    const anonymous = await t.admin('GET', '/admin/v1/openapi.json', { token: null });
    expect(anonymous.status).toBe(401);
    const doc = await t.admin('GET', '/admin/v1/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toBe('3.1.0');
    expect(doc.body.servers).toEqual([{ url: t.adminUrl }]);
    expect(doc.body.components.securitySchemes.AdminToken).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
    expect(Object.keys(doc.body.paths).sort()).toEqual([
      '/admin/v1/organizations',
      '/admin/v1/organizations/{org}',
      '/admin/v1/organizations/{org}/items/bulk-delete',
      '/admin/v1/organizations/{org}/items/bulk-upsert',
      '/admin/v1/organizations/{org}/keys',
      '/admin/v1/organizations/{org}/keys/{keyId}',
      '/admin/v1/organizations/{org}/keys/{keyId}/disable',
      '/admin/v1/organizations/{org}/keys/{keyId}/enable',
      '/admin/v1/organizations/{org}/keys/{keyId}/revoke',
      '/admin/v1/organizations/{org}/keys/{keyId}/rotate',
      '/admin/v1/organizations/{org}/locations',
      '/admin/v1/organizations/{org}/locations/{code}',
    ]);
    expect(JSON.stringify(doc.body)).not.toContain(ADMIN_TOKEN);
    const publicDoc = await t.fetch(`${t.server.docsUrl}/openapi.json`);
    expect(publicDoc.status).toBe(200);
    const text = await publicDoc.text();
    expect(text).not.toContain('/admin/');
    expect(text).not.toContain('AdminToken');
  });

  it('logs one line per request with app "admin", and never the token', async () => {
    const wrongToken = `${'w'.repeat(39)}z`;
    await t.admin('GET', '/admin/v1/organizations', { headers: { 'x-request-id': 'log-probe' } });
    await t.admin('GET', '/admin/v1/organizations', { token: wrongToken });
    const line = t.server.logs.find((l) => l.requestId === 'log-probe');
    expect(line).toMatchObject({
      app: 'admin',
      msg: 'request',
      method: 'GET',
      route: '/admin/v1/organizations',
      status: 200,
    });
    const all = JSON.stringify(t.server.logs);
    expect(all).not.toContain(ADMIN_TOKEN);
    expect(all).not.toContain(wrongToken);
  });
});

describe('admin configuration', () => {
  it('listens on its own port of 127.0.0.1, apart from the API and the docs; adminRequest reaches nothing once the server is closed', async () => {
    const t = await startAdminTestServer({ listen: true });
    const url = t.adminUrl;
    const admin = new URL(t.adminUrl);
    expect(admin.hostname).toBe('127.0.0.1');
    expect(admin.port).not.toBe(new URL(t.server.apiUrl).port);
    expect(admin.port).not.toBe(new URL(t.server.docsUrl).port);
    expect((await adminRequest(url, 'GET', '/admin/v1/organizations')).status).toBe(200);
    await t.close();
    await expect(adminRequest(url, 'GET', '/admin/v1/organizations')).rejects.toThrow();
  });
});
