import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { generateKey } from '../keys/format.js';
import { rotateKey } from '../keys/issue.js';
import { startTestServer, type TestServer } from '../testing/harness.js';
import { expectApiError, untilChanged } from '../testing/security-suite.js';

const ITEMS = '/api/v1/inventory/items';

/** One request through node:http, for what fetch will not send (TRACE, repeated headers). */
function rawRequest(
  url: string,
  method: string,
  headers: string[] = [],
): Promise<{ status: number; allow: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    // A raw header list replaces Node's defaults, Host included.
    const host = new URL(url).host;
    const outgoing = httpRequest(url, { method, headers: ['Host', host, ...headers] }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, allow: res.headers.allow, body }));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** Bytes straight to the socket, for what no HTTP client will send; resolves with the reply. */
function rawExchange(url: string, bytes: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(bytes));
    let reply = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      reply += chunk;
    });
    socket.on('end', () => resolve(reply));
    socket.on('error', reject);
  });
}

/** A raw HTTP reply split into status, lower-cased headers and body. */
function parseRaw(reply: string) {
  const [head = '', body = ''] = reply.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = new Map(
    lines.map((line) => {
      const at = line.indexOf(':');
      return [line.slice(0, at).toLowerCase(), line.slice(at + 1).trim()] as const;
    }),
  );
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}

describe('the API host', () => {
  let server: TestServer;
  beforeAll(async () => {
    // Listening: some of these answers are to bytes that are not HTTP, sent over a socket.
    server = await startTestServer({ captureLogs: true, listen: true });
  });
  afterAll(() => server.close());

  it('answers unknown paths with a JSON 404', async () => {
    for (const path of [
      '/',
      '/api/v1',
      '/api/v2/health',
      '/api/v1/inventory/items/123',
      '/api/v1/health/',
    ]) {
      expectApiError(await server.request(path), 404, 'ROUTE_NOT_FOUND');
    }
  });

  it('answers a path with a malformed percent-encoding with a 400 in the envelope', async () => {
    for (const path of ['/api/v1/%', '/api/v1/inventory/items%', '/api/v1/%E0%A4%A?limit=1']) {
      const response = await server.request(path, {
        headers: { origin: 'https://shop.example', 'x-request-id': 'bad-url-1' },
      });
      expectApiError(response, 400, 'INVALID_PARAMETER');
      expect(response.body.error.param).toBeUndefined();
      expect(response.body.error.message).toContain(JSON.stringify(path.split('?')[0]));
      expect(response.body.error.message).toContain('malformed percent-encoding');
      expect(response.body.error.message).toContain('%25');
      expect(response.body.error.requestId).toBe('bad-url-1');
      expect(response.headers.get('x-request-id')).toBe('bad-url-1');
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('access-control-expose-headers')).toContain('x-request-id');
    }
    expect(server.logs.filter((entry) => entry.requestId === 'bad-url-1')).toMatchObject([
      { method: 'GET', route: null, status: 400 },
      { method: 'GET', route: null, status: 400 },
      { method: 'GET', route: null, status: 400 },
    ]);
  });

  it('answers an overlong path in the envelope without echoing all of it', async () => {
    const response = await server.request(`/api/v1/${'a'.repeat(5000)}`);
    expectApiError(response, 404, 'ROUTE_NOT_FOUND');
    expect(response.body.error.message.length).toBeLessThan(400);
  });

  it('answers a URL over 8192 characters with a 400 naming the limit; one at the limit is read', async () => {
    const path = '/api/v1/inventory/items?search=';
    const over = await server.request(`${path}${'a'.repeat(8193 - path.length)}`, {
      key: server.demo.key,
    });
    expectApiError(over, 400, 'INVALID_PARAMETER');
    expect(over.body.error.message).toMatch(
      /^The URL is 8193 characters long; the API reads at most 8192 /,
    );
    // At the limit the request is read, and refused for what it says (search is too long).
    const at = await server.request(`${path}${'a'.repeat(8192 - path.length)}`, {
      key: server.demo.key,
    });
    expectApiError(at, 400, 'INVALID_PARAMETER');
    expect(at.body.error.param).toBe('search');
  });

  it('sends nosniff, a CSP that allows nothing and no-referrer on every answer, with CORS intact', async () => {
    const ok = await server.request('/api/v1/organization', {
      key: server.demo.key,
      headers: { origin: 'https://shop.example' },
    });
    const refused = await server.request('/api/v1/organization');
    const preflight = await server.request('/api/v1/organization', {
      method: 'OPTIONS',
      headers: { origin: 'https://shop.example', 'access-control-request-method': 'GET' },
    });
    expect([ok.status, refused.status, preflight.status]).toEqual([200, 401, 204]);
    for (const response of [ok, refused, preflight]) {
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('content-security-policy')).toBe(
        "default-src 'none'; frame-ancestors 'none'",
      );
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
    }
  });

  it('answers headers too large to read in the envelope, with a request id and a log line', async () => {
    const response = await server.request('/api/v1/health', {
      headers: { 'x-padding': 'a'.repeat(20_000) },
    });
    expectApiError(response, 400, 'INVALID_PARAMETER');
    expect(response.body.error.message).toMatch(/headers are larger .*Send fewer or shorter/);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const id = response.headers.get('x-request-id');
    expect(id).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
    expect(response.body.error.requestId).toBe(id);
    expect(server.logs.find((entry) => entry.requestId === id)).toMatchObject({ status: 400 });
  });

  it('answers a request that is not HTTP in the envelope', async () => {
    const reply = parseRaw(await rawExchange(server.apiUrl, 'GARBAGE\r\n\r\n'));
    expect(reply.status).toBe(400);
    expect(reply.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const body = JSON.parse(reply.body);
    expect(body.error).toMatchObject({ code: 'INVALID_PARAMETER', status: 400 });
    expect(body.error.message).toMatch(/not valid HTTP/);
    expect(body.error.requestId).toBe(reply.headers.get('x-request-id'));
  });

  it('answers OPTIONS on an unknown path with 404; preflights on every known path still work', async () => {
    const preflight = {
      origin: 'https://shop.example',
      'access-control-request-method': 'GET',
    };
    for (const path of ['/api/v1/nope', '/', '/api/v1/health/']) {
      const response = await server.request(path, { method: 'OPTIONS', headers: preflight });
      expectApiError(response, 404, 'ROUTE_NOT_FOUND');
      expect(response.headers.get('access-control-allow-methods')).toBeNull();
    }
    for (const path of [
      '/api/v1/health',
      '/api/v1/auth/verify',
      '/api/v1/organization',
      ITEMS,
      '/api/v1/inventory/item',
    ]) {
      const response = await server.request(path, { method: 'OPTIONS', headers: preflight });
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-methods')).toBe('GET, HEAD, OPTIONS');
    }
  });

  it('never reads the body of a request to an unknown path or an unrouted method', async () => {
    for (const [type, body] of [
      ['application/json', '{not json'],
      ['application/xml', '<item/>'],
    ]) {
      for (const method of ['POST', 'PUT', 'OPTIONS']) {
        const response = await server.request('/api/v1/nope', {
          method,
          headers: { 'content-type': type as string },
          body,
        });
        expectApiError(response, 404, 'ROUTE_NOT_FOUND');
      }
    }
    // A method without a route of its own on a known path, with a body it would choke on.
    const propfind = parseRaw(
      await rawExchange(
        server.apiUrl,
        'PROPFIND /api/v1/health HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5\r\nConnection: close\r\n\r\n{nope',
      ),
    );
    expect(propfind.status).toBe(405);
    expect(JSON.parse(propfind.body).error.code).toBe('METHOD_NOT_ALLOWED');
  });

  it('writes the error envelope in the documented key order, param before docUrl', async () => {
    const withParam = await server.request(`${ITEMS}?limit=0`, { key: server.demo.key });
    expectApiError(withParam, 400, 'INVALID_PARAMETER');
    expect(Object.keys(withParam.body.error)).toEqual([
      'code',
      'message',
      'status',
      'requestId',
      'param',
      'docUrl',
    ]);
    const withoutParam = await server.request(ITEMS);
    expect(Object.keys(withoutParam.body.error)).toEqual([
      'code',
      'message',
      'status',
      'requestId',
      'docUrl',
    ]);
  });

  it('answers other methods with a JSON 405 and Allow', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'PROPFIND', 'SEARCH', 'MKCOL']) {
      const response = await server.request(`${ITEMS}?limit=1`, { method, key: server.demo.key });
      expectApiError(response, 405, 'METHOD_NOT_ALLOWED');
      expect(response.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    }
  });

  it('answers 405 to a write method whatever its body', async () => {
    for (const [type, body] of [
      ['application/json', '{not json'],
      ['application/xml', '<item/>'],
    ]) {
      const response = await server.request(ITEMS, {
        method: 'POST',
        headers: { 'content-type': type as string },
        body,
      });
      expectApiError(response, 405, 'METHOD_NOT_ALLOWED');
    }
  });

  it('answers TRACE on a known path with 405 and on an unknown path with 404', async () => {
    // fetch refuses to send TRACE, so this one goes through node:http.
    const trace = (path: string) => rawRequest(`${server.apiUrl}${path}`, 'TRACE');
    const known = await trace('/api/v1/health');
    expect(known.status).toBe(405);
    expect(known.allow).toBe('GET, HEAD, OPTIONS');
    expect(JSON.parse(known.body).error.code).toBe('METHOD_NOT_ALLOWED');
    const unknown = await trace('/api/v1/nothing-here');
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body).error.code).toBe('ROUTE_NOT_FOUND');
  });

  it('reads repeated key headers one by one: the same key is fine, two different keys conflict', async () => {
    // fetch merges repeated headers, so these go through node:http with raw header lists.
    const other = (await server.createKey({ organizationId: server.demo.organizationId })).key;
    const send = (headers: string[]) =>
      rawRequest(`${server.apiUrl}/api/v1/organization`, 'GET', headers);
    const key = server.demo.key;
    expect((await send(['x-api-key', key, 'x-api-key', key])).status).toBe(200);
    expect((await send(['Authorization', `Bearer ${key}`, 'x-api-key', key])).status).toBe(200);
    for (const headers of [
      ['x-api-key', key, 'x-api-key', other],
      ['Authorization', `Bearer ${key}`, 'Authorization', `Bearer ${other}`],
      ['Authorization', `Bearer ${other}`, 'Authorization', `Bearer ${key}`],
    ]) {
      const response = await send(headers);
      expect(response.status).toBe(401);
      expect(JSON.parse(response.body).error.code).toBe('CONFLICTING_API_KEYS');
    }
  });

  it('echoes a well-formed x-request-id and replaces any other', async () => {
    const echoed = await server.request('/api/v1/health', {
      headers: { 'x-request-id': 'abc.DEF_1:2-3' },
    });
    expect(echoed.headers.get('x-request-id')).toBe('abc.DEF_1:2-3');
    for (const bad of ['has space', 'x'.repeat(129), 'semi;colon']) {
      const replaced = await server.request(ITEMS, { headers: { 'x-request-id': bad } });
      const id = replaced.headers.get('x-request-id');
      expect(id).not.toBe(bad);
      expect(id).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
      expect(replaced.body.error.requestId).toBe(id);
    }
  });

  it('answers CORS preflights with the allowed headers and caches them 10 minutes', async () => {
    const response = await server.request(ITEMS, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://shop.example',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'x-api-key',
      },
    });
    expect(response.status).toBe(204);
    // Every response carries x-request-id, preflights included.
    expect(response.headers.get('x-request-id')).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-headers')).toBe(
      'authorization, content-type, x-api-key, if-none-match',
    );
    expect(response.headers.get('access-control-max-age')).toBe('600');
  });

  it('exposes the rate-limit, request-id and deprecation headers to browsers', async () => {
    const response = await server.request(ITEMS, {
      key: server.demo.key,
      headers: { origin: 'https://shop.example' },
    });
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-expose-headers')).toBe(
      'x-request-id, retry-after, x-ratelimit-limit, x-ratelimit-remaining, x-ratelimit-reset, etag, deprecation',
    );
  });

  it('logs one line per request with method, route, status, duration, request id and key id, never the key', async () => {
    const response = await server.request(`${ITEMS}?limit=1`, {
      key: server.demo.key,
      headers: { 'x-request-id': 'log-check-1' },
    });
    expect(response.status).toBe(200);
    await server.request('/api/v1/health', {
      headers: { authorization: `Bearer ${server.demo.key}` },
    });
    const line = server.logs.find((entry) => entry.requestId === 'log-check-1');
    expect(line).toMatchObject({
      method: 'GET',
      route: ITEMS,
      status: 200,
      requestId: 'log-check-1',
    });
    expect(typeof line?.durationMs).toBe('number');
    expect(line?.keyId).toMatch(/^[0-9a-f]{24}$/);
    expect(server.logs.filter((entry) => entry.requestId === 'log-check-1')).toHaveLength(1);
    const everything = JSON.stringify(server.logs);
    expect(everything).not.toContain(server.demo.key);
    expect(everything.toLowerCase()).not.toContain('authorization');
  });
});

describe('CORS_ORIGINS', () => {
  it('allows only the configured origins', async () => {
    const server = await startTestServer({ env: { CORS_ORIGINS: 'https://shop.example' } });
    try {
      const allowed = await server.request('/api/v1/health', {
        headers: { origin: 'https://shop.example' },
      });
      expect(allowed.headers.get('access-control-allow-origin')).toBe('https://shop.example');
      const other = await server.request('/api/v1/health', {
        headers: { origin: 'https://evil.example' },
      });
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await server.close();
    }
  });

  it('rejects a malformed origin at boot', () => {
    expect(() => loadConfig({ CORS_ORIGINS: 'not a url' })).toThrow(/CORS_ORIGINS/);
  });
});

describe('the order of checks', () => {
  let server: TestServer;
  let org: string;
  beforeAll(async () => {
    server = await startTestServer();
    org = server.demo.organizationId;
  });
  afterAll(() => server.close());

  const key = async (input: Record<string, unknown>) =>
    (await server.createKey({ organizationId: org, ...input })).key;

  it('disabled wins over expired, expired over exhausted', async () => {
    const { key: disabled, record } = await server.createKey({
      organizationId: org,
      expiresAt: 1,
      remaining: 0,
    });
    await server.store.setApiKeyEnabled(record.id, false);
    expectApiError(await server.request(ITEMS, { key: disabled }), 401, 'KEY_DISABLED');
    expectApiError(
      await server.request(ITEMS, { key: await key({ expiresAt: 1, remaining: 0 }) }),
      401,
      'KEY_EXPIRED',
    );
  });

  it('exhausted wins over the rate limit, and the rate limit over query validation', async () => {
    const exhausted = await key({ remaining: 0, rateLimit: { max: 1, windowSeconds: 3600 } });
    for (let i = 0; i < 3; i++)
      expectApiError(await server.request(ITEMS, { key: exhausted }), 401, 'KEY_EXHAUSTED');
    const limited = await key({ rateLimit: { max: 1, windowSeconds: 3600 } });
    expectApiError(
      await server.request(`${ITEMS}?limit=0`, { key: limited }),
      400,
      'INVALID_PARAMETER',
    );
    // The 400 counted toward the limit.
    expectApiError(await server.request(`${ITEMS}?limit=0`, { key: limited }), 401, 'RATE_LIMITED');
  });

  it('query validation wins over membership, the override, the feature flag and the permission', async () => {
    const noFeature = await server.createOrganization({ features: [] });
    const { key: k } = await server.createKey({ organizationId: noFeature.id, permissions: [] });
    expectApiError(
      await server.request(`${ITEMS}?status=nope`, { key: k }),
      400,
      'INVALID_PARAMETER',
    );
    const user = await server.createUser(org);
    const userKey = await key({ userId: user.id });
    await server.store.removeMember(org, user.id);
    expectApiError(
      await server.request(`${ITEMS}?limit=x`, { key: userKey }),
      400,
      'INVALID_PARAMETER',
    );
    expectApiError(await server.request(ITEMS, { key: userKey }), 403, 'ORGANIZATION_FORBIDDEN');
  });

  it('the override wins over the feature flag, the flag over the permission', async () => {
    const noFeature = await server.createOrganization({ features: [] });
    const { key: k } = await server.createKey({ organizationId: noFeature.id, permissions: [] });
    expectApiError(
      await server.request(`${ITEMS}?organizationId=${org}`, { key: k }),
      403,
      'ORGANIZATION_FORBIDDEN',
    );
    const flag = await server.request(ITEMS, { key: k });
    expectApiError(flag, 403, 'FEATURE_DISABLED');
    expect(flag.body.error.message).toContain('"inventory"');
    const noPermission = await key({ permissions: [] });
    const permission = await server.request(ITEMS, { key: noPermission });
    expectApiError(permission, 403, 'INSUFFICIENT_PERMISSIONS');
    expect(permission.body.error.message).toContain('inventory:view');
    // The organization summary needs neither.
    expect((await server.request('/api/v1/organization', { key: noPermission })).status).toBe(200);
  });

  it('spends quota only on requests that pass every check, including a 404 item', async () => {
    const { key: k, record } = await server.createKey({ organizationId: org, remaining: 5 });
    await server.request(`${ITEMS}?limit=0`, { key: k });
    await server.request(`${ITEMS}?organizationId=${'0'.repeat(24)}`, { key: k });
    await server.request('/api/v1/auth/verify', { key: k });
    expect(await server.store.getRemaining(record.id)).toBe(5);
    await server.request(`/api/v1/inventory/item?itemId=${'0'.repeat(24)}`, { key: k });
    expect(await server.store.getRemaining(record.id)).toBe(4);
  });

  it('spends no quota on a 403, whichever check refused', async () => {
    const quota = { remaining: 5, rateLimit: null };
    const other = await server.createOrganization();
    const noFeature = await server.createOrganization({ features: [] });
    const user = await server.createUser(org);
    const cases = [
      {
        code: 'FEATURE_DISABLED',
        issued: await server.createKey({ organizationId: noFeature.id, ...quota }),
        path: ITEMS,
      },
      {
        code: 'INSUFFICIENT_PERMISSIONS',
        issued: await server.createKey({ organizationId: org, permissions: [], ...quota }),
        path: ITEMS,
      },
      {
        code: 'ORGANIZATION_FORBIDDEN',
        issued: await server.createKey({ organizationId: org, userId: user.id, ...quota }),
        path: ITEMS,
      },
      {
        code: 'ORGANIZATION_FORBIDDEN',
        issued: await server.createKey({ organizationId: org, ...quota }),
        path: `${ITEMS}?organizationId=${other.id}`,
      },
    ];
    // The user key's user leaves before the key is first used.
    await server.store.removeMember(org, user.id);
    for (const { code, issued, path } of cases) {
      for (let i = 0; i < 3; i++) {
        expectApiError(await server.request(path, { key: issued.key }), 403, code);
      }
      expect(await server.store.getRemaining(issued.record.id), code).toBe(5);
    }
    // Control: the same organization key is charged once it asks for its own data.
    const own = cases[3]?.issued as { key: string; record: { id: string } };
    expect((await server.request(ITEMS, { key: own.key })).status).toBe(200);
    expect(await server.store.getRemaining(own.record.id)).toBe(4);
  });

  it('checks membership before the organizationId override: a removed member gets 403, not 404', async () => {
    const user = await server.createUser(org);
    const { key: k } = await server.createKey({ organizationId: org, userId: user.id });
    await server.store.removeMember(org, user.id);
    const unknown = await server.request(`${ITEMS}?organizationId=${'0'.repeat(24)}`, { key: k });
    expectApiError(unknown, 403, 'ORGANIZATION_FORBIDDEN');
    expect(unknown.body.error.message).toContain('no longer a member');
    const organization = await server.request(
      `/api/v1/organization?organizationId=${'f'.repeat(24)}`,
      {
        key: k,
      },
    );
    expectApiError(organization, 403, 'ORGANIZATION_FORBIDDEN');
  });

  it('a quota of N admits exactly N of many concurrent requests', async () => {
    const k = await key({ remaining: 10, rateLimit: null });
    const responses = await Promise.all(
      Array.from({ length: 40 }, () => server.request(`${ITEMS}?limit=1`, { key: k })),
    );
    expect(responses.filter((r) => r.status === 200)).toHaveLength(10);
    for (const r of responses.filter((r) => r.status !== 200))
      expectApiError(r, 401, 'KEY_EXHAUSTED');
  });

  it('a rate limit of N admits exactly N of many concurrent requests', async () => {
    const k = await key({ rateLimit: { max: 7, windowSeconds: 3600 } });
    const responses = await Promise.all(
      Array.from({ length: 30 }, () => server.request('/api/v1/auth/verify', { key: k })),
    );
    expect(responses.filter((r) => r.status === 200)).toHaveLength(7);
    expect(responses.filter((r) => r.body?.error?.code === 'RATE_LIMITED')).toHaveLength(23);
  });

  it('gives back the use of a request that failed on our side', async () => {
    const { key: k, record } = await server.createKey({
      organizationId: org,
      remaining: 3,
      rateLimit: null,
    });
    expect((await server.request('/api/v1/organization', { key: k })).status).toBe(200);
    expect(await server.store.getRemaining(record.id)).toBe(2);
    // Make item reads fail after the charge: the table disappears under the running server.
    await server.exec('ALTER TABLE items RENAME TO items_hidden');
    try {
      const response = await server.request(`${ITEMS}?limit=1`, { key: k });
      expectApiError(response, 500, 'INTERNAL_ERROR');
      expect(response.text).not.toMatch(/items_hidden|no such table|does not exist|SELECT/i);
    } finally {
      await server.exec('ALTER TABLE items_hidden RENAME TO items');
    }
    expect(await server.store.getRemaining(record.id)).toBe(2);
  });
});

describe('with the database down', () => {
  it('still tells a malformed key or a bad checksum from an unknown one, without the database', async () => {
    const server = await startTestServer();
    try {
      const key = server.demo.key;
      const tampered = `${key.slice(0, 7)}${key[7] === 'A' ? 'B' : 'A'}${key.slice(8)}`;
      await server.store.close();
      // Control: a well-formed key needs the database, which is gone.
      const wellFormed = await server.request(ITEMS, {
        key: generateKey('organization').key,
      });
      expectApiError(wellFormed, 503, 'SERVICE_UNAVAILABLE');
      for (const bad of ['not-a-key', `${key}x`, tampered, 'sr_org_short']) {
        expectApiError(await server.request(ITEMS, { key: bad }), 401, 'INVALID_API_KEY');
      }
    } finally {
      await server.close();
    }
  });
});

describe('a refunded use', () => {
  it('is usable at once, even by a key served from the cache', async () => {
    // A cache that outlives the test: only the refund itself can make the key usable again.
    const server = await startTestServer({ captureLogs: true, keyCacheTtlMs: 600_000 });
    try {
      const { key, record } = await server.createKey({
        organizationId: server.demo.organizationId,
        remaining: 1,
        rateLimit: null,
      });
      // Cached with its one use left.
      expect((await server.request('/api/v1/auth/verify', { key })).body.key.remaining).toBe(1);
      await server.exec('ALTER TABLE items RENAME TO items_hidden');
      try {
        const failed = await server.request(`${ITEMS}?limit=1`, {
          key,
          headers: { 'x-request-id': 'refund-then-retry' },
        });
        expectApiError(failed, 500, 'INTERNAL_ERROR');
      } finally {
        await server.exec('ALTER TABLE items_hidden RENAME TO items');
      }
      // The request's log line is written once its refund is done.
      for (let i = 0; i < 500; i++) {
        if (server.logs.some((line) => line.requestId === 'refund-then-retry')) break;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(server.logs.find((line) => line.requestId === 'refund-then-retry')).toMatchObject({
        status: 500,
      });
      expect(await server.store.getRemaining(record.id)).toBe(1);
      const retried = await server.request(`${ITEMS}?limit=1`, { key });
      expect(retried.status, retried.text).toBe(200);
      expect(await server.store.getRemaining(record.id)).toBe(0);
      expectApiError(await server.request(`${ITEMS}?limit=1`, { key }), 401, 'KEY_EXHAUSTED');
    } finally {
      await server.close();
    }
  });
});

describe('stored times no date can show', () => {
  it('are answered clamped to years 0000-9999, never with a 500', async () => {
    const server = await startTestServer();
    try {
      const org = await server.createOrganization();
      await server.createItems(org.id, [
        {
          name: 'Out of range',
          description: null,
          sku: 'oor-1',
          barcode: null,
          status: 'Active',
          quantity: 1,
          customFields: '{}',
        },
      ]);
      const { key } = await server.createKey({ organizationId: org.id });
      // Values written by hand (or by an older version): past what toISOString accepts.
      await server.exec(
        `UPDATE organizations SET created_at = 100000000000000000 WHERE id = '${org.id}'`,
      );
      await server.exec(
        `UPDATE items SET created_at = 100000000000000000, updated_at = -100000000000000000 WHERE organization_id = '${org.id}'`,
      );
      const organization = await server.request('/api/v1/organization', { key });
      expect(organization.status).toBe(200);
      expect(organization.body.data.createdAt).toBe('9999-12-31T23:59:59.999Z');
      const list = await server.request(ITEMS, { key });
      expect(list.status).toBe(200);
      expect(list.body.data[0]).toMatchObject({
        createdAt: '9999-12-31T23:59:59.999Z',
        updatedAt: '0000-01-01T00:00:00.000Z',
      });
      const one = await server.request(`/api/v1/inventory/item?itemId=${list.body.data[0]._id}`, {
        key,
      });
      expect(one.status).toBe(200);
      expect(one.body.data.createdAt).toBe('9999-12-31T23:59:59.999Z');
    } finally {
      await server.close();
    }
  });
});

describe('changes made while the server runs', () => {
  it('reach the server within one second', async () => {
    const server = await startTestServer();
    try {
      const { key, record } = await server.createKey({
        organizationId: server.demo.organizationId,
        rateLimit: null,
      });
      expect((await server.request(ITEMS, { key })).status).toBe(200);
      await server.store.setApiKeyEnabled(record.id, false);
      expectApiError(await untilChanged(() => server.request(ITEMS, { key })), 401, 'KEY_DISABLED');
      await server.store.setApiKeyEnabled(record.id, true);
      expect((await server.request(ITEMS, { key })).status).toBeLessThan(500);
      await server.store.updateOrganization(server.demo.organizationId, { features: [] });
      const deadline = Date.now() + 1000;
      let response = await server.request(ITEMS, { key });
      while (response.status !== 403 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        response = await server.request(ITEMS, { key });
      }
      expectApiError(response, 403, 'FEATURE_DISABLED');
    } finally {
      await server.close();
    }
  });

  it('a rotated key: both secrets work during the grace period, sharing one quota; then only the new one', async () => {
    const server = await startTestServer();
    try {
      const { key: oldSecret, record } = await server.createKey({
        organizationId: server.demo.organizationId,
        remaining: 1000,
        rateLimit: null,
      });
      expect((await server.request(ITEMS, { key: oldSecret })).status).toBe(200);
      const rotated = await rotateKey(server.store, record, 3600);
      const newSecret = rotated?.key as string;
      const viaNew = await server.request('/api/v1/auth/verify', { key: newSecret });
      expect(viaNew.status).toBe(200);
      expect(viaNew.body.key).toMatchObject({ id: record.id, prefix: newSecret.slice(0, 11) });
      // The same key answers to both secrets: one quota, spent by either.
      expect((await server.request(ITEMS, { key: oldSecret })).status).toBe(200);
      expect((await server.request(ITEMS, { key: newSecret })).status).toBe(200);
      expect(await server.store.getRemaining(record.id)).toBe(997);
      const viaOld = await server.request('/api/v1/auth/verify', { key: oldSecret });
      expect(viaOld.body.key).toMatchObject({ id: record.id, remaining: 997 });

      // The grace period ends (here: a rotation whose grace is already over) → the previous
      // secret is unknown within a second, the current one keeps working.
      const again = await rotateKey(server.store, { id: record.id, type: 'organization' }, 0);
      const latest = again?.key as string;
      expectApiError(
        await untilChanged(() => server.request(ITEMS, { key: newSecret })),
        401,
        'INVALID_API_KEY',
      );
      expectApiError(await server.request(ITEMS, { key: oldSecret }), 401, 'INVALID_API_KEY');
      expect((await server.request(ITEMS, { key: latest })).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
