import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiPromise } from './api-promise.js';
import { Stockroom } from './client.js';
import {
  AuthenticationError,
  ConnectionError,
  RateLimitError,
  ServerError,
  StockroomError,
  SyncExpiredError,
  TimeoutError,
} from './errors.js';
import { NOT_MODIFIED } from './response.js';
import {
  deadUrl,
  envelope,
  json,
  type Peer,
  type PeerHandler,
  startHangUp,
  startPeer,
} from './testing/http-peer.js';
import type { ItemField } from './types.js';

/**
 * The client against real HTTP peers scripted per test: retries, timeouts, aborts and odd
 * answers that a healthy Stockroom server never gives on demand. Behaviour against the real
 * server is covered in test/client-api.test.ts.
 */

const KEY = 'sr_org_0123456789abcdefghijABCDEFGHIJklmnop';
const peers: Peer[] = [];

afterEach(async () => {
  await Promise.all(peers.splice(0).map((peer) => peer.close()));
});

async function peer(handler: PeerHandler): Promise<Peer> {
  const started = await startPeer(handler);
  peers.push(started);
  return started;
}

function client(baseUrl: string, options: ConstructorParameters<typeof Stockroom>[0] = {}) {
  // Short backoff keeps retry tests quick; the waits themselves are the client's, not the test's.
  return new Stockroom({ baseUrl, apiKey: KEY, retryDelayMs: 1, maxRetryDelayMs: 5, ...options });
}

const PAGE = { data: [{ _id: 'a', name: 'A' }], organizationId: 'o', count: 1, nextCursor: null };

describe('requests', () => {
  it('sends the key as a Bearer token and the parameters the API names', async () => {
    const server = await peer((_req, res) => json(res, 200, PAGE));
    await client(server.url).inventory.list({
      limit: 5,
      search: 'tent',
      status: 'Active',
      fields: ['_id', 'name'],
      cursor: 'c1',
      organizationId: 'org',
      // A property the API does not know is not sent: it would be a 400.
      ...({ colour: 'red' } as object),
    });
    const [request] = server.requests;
    expect(request?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request?.headers['x-api-key']).toBeUndefined();
    const url = new URL(request?.url ?? '', server.url);
    expect(url.pathname).toBe('/api/v1/inventory/items');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      organizationId: 'org',
      limit: '5',
      search: 'tent',
      status: 'Active',
      fields: '_id,name',
      cursor: 'c1',
    });
  });

  it('sends the exact filters and the sync parameters the API names', async () => {
    const server = await peer((_req, res) => json(res, 200, PAGE));
    const { inventory } = client(server.url);
    await inventory.list({
      sku: 'DRL-1',
      barcode: '4006381333931',
      ids: ['6740a1f2c3d4e5f6a7b8c9d0', '6740a1f2c3d4e5f6a7b8c9d1'],
    });
    await inventory.list({
      updatedSince: new Date(Date.UTC(2026, 10, 24, 8)),
      includeDeleted: false,
      status: 'Active',
    });
    const [exact, sync] = server.requests.map((r) => new URL(r.url, server.url).searchParams);
    expect(Object.fromEntries(exact ?? [])).toEqual({
      sku: 'DRL-1',
      barcode: '4006381333931',
      ids: '6740a1f2c3d4e5f6a7b8c9d0,6740a1f2c3d4e5f6a7b8c9d1',
    });
    expect(Object.fromEntries(sync ?? [])).toEqual({
      status: 'Active',
      updatedSince: '2026-11-24T08:00:00.000Z',
      includeDeleted: 'false',
    });
  });

  it('rejects an empty fields list with a TypeError, before sending anything', async () => {
    const server = await peer((_req, res) => json(res, 200, PAGE));
    const { inventory } = client(server.url);
    // The types refuse a literal []; a list built at run time can still come out empty.
    const chosen: ItemField[] = [];
    for (const pending of [
      inventory.list({ fields: chosen }),
      inventory.get('x', { fields: chosen }),
      inventory.all({ fields: chosen }).next(),
    ]) {
      const error = await pending.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TypeError);
      expect((error as Error).message).toMatch(/fields must name at least one field/);
    }
    expect(server.requests).toHaveLength(0);
  });

  it('accepts a base URL with a path prefix, a trailing slash or /api/v1', async () => {
    const server = await peer((_req, res) => json(res, 200, { data: { _id: 'x' } }));
    for (const base of [`${server.url}/stock/`, `${server.url}/stock/api/v1`]) {
      await client(base).inventory.get('x');
    }
    expect(server.requests.map((r) => r.url)).toEqual([
      '/stock/api/v1/inventory/item?itemId=x',
      '/stock/api/v1/inventory/item?itemId=x',
    ]);
  });

  it('sends no Authorization header without a key', async () => {
    const server = await peer((_req, res) =>
      json(res, 200, { status: 'ok', version: '1', checks: {} }),
    );
    const report = await new Stockroom({ baseUrl: server.url, apiKey: null }).health();
    expect(report.status).toBe('ok');
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
  });

  it('calls an injected fetch as a plain function', async () => {
    const server = await peer((_req, res) => json(res, 200, { data: { _id: 'o' } }));
    const seen: string[] = [];
    const organization = await client(server.url, {
      fetch(this: unknown, input, init) {
        // Browsers throw "Illegal invocation" when fetch runs with another `this`.
        expect(this).toBeUndefined();
        seen.push(input);
        return fetch(input, init);
      },
    }).organization.get();
    expect(organization).toEqual({ _id: 'o' });
    expect(seen).toEqual([`${server.url}/api/v1/organization`]);
  });
});

describe('results', () => {
  it('returns a promise whose withResponse() adds the response metadata', async () => {
    const server = await peer((_req, res) =>
      json(res, 200, PAGE, {
        'x-request-id': 'req-42',
        'x-ratelimit-limit': '600',
        'x-ratelimit-remaining': '598',
        'x-ratelimit-reset': '1795000020',
      }),
    );
    const pending = client(server.url).inventory.list();
    expect(pending).toBeInstanceOf(Promise);
    expect(pending).toBeInstanceOf(ApiPromise);
    const { data, response } = await pending.withResponse();
    expect(data).toEqual(PAGE);
    expect(response).toMatchObject({
      status: 200,
      requestId: 'req-42',
      rateLimit: { limit: 600, remaining: 598, reset: 1795000020 },
      deprecated: false,
      attempts: 1,
    });
    expect(await pending).toEqual(PAGE);
    expect(await pending.then((page) => page.count)).toBe(1);
    // Both views come from one request.
    expect(server.requests).toHaveLength(1);
  });

  it('resolves health with the report even when the API answers 503, without retrying', async () => {
    const report = { status: 'unavailable', version: '1', checks: { database: 'down' } };
    const server = await peer((_req, res) => json(res, 503, report, { 'retry-after': '1' }));
    const { data, response } = await client(server.url, { maxRetries: 3 }).health().withResponse();
    expect(data).toEqual(report);
    expect(response.status).toBe(503);
    expect(response.attempts).toBe(1);
    expect(server.requests).toHaveLength(1);
  });

  it('retries health after answers that are not a report, up to the client’s maxRetries', async () => {
    const report = { status: 'ok', version: '1', checks: { database: 'ok' } };
    const server = await peer((_req, res, n) => {
      if (n === 0) {
        res.writeHead(502, { 'content-type': 'text/html' });
        res.end('<h1>Bad gateway</h1>');
      } else if (n === 1) json(res, 500, envelope('INTERNAL_ERROR', 500));
      else json(res, 200, report);
    });
    const { data, response } = await client(server.url).health().withResponse();
    expect(data).toEqual(report);
    expect(response.attempts).toBe(3);
    expect(server.requests).toHaveLength(3);
  });

  it('retries health after connection failures, as often as the client’s maxRetries says', async () => {
    const hangUp = await startHangUp();
    try {
      const error = await client(hangUp.url, { maxRetries: 2 })
        .health()
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConnectionError);
      expect(hangUp.connections()).toBe(3);
      // A probe that wants one attempt says so.
      await client(hangUp.url, { maxRetries: 2 })
        .health({ maxRetries: 0 })
        .catch(() => {});
      expect(hangUp.connections()).toBe(4);
    } finally {
      await hangUp.close();
    }
  });

  it('rejects a success answer that is not JSON, without retrying', async () => {
    const server = await peer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>a login page</html>');
    });
    const error = await client(server.url)
      .verifyKey()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StockroomError);
    expect(error).toMatchObject({ code: 'INVALID_RESPONSE', status: 200 });
    expect(server.requests).toHaveLength(1);
  });

  it('sends If-None-Match only when asked, and takes a 304 for NOT_MODIFIED only then', async () => {
    const server = await peer((req, res) => {
      if (req.headers['if-none-match'] === '"v1"') {
        res.writeHead(304, { etag: '"v1"', 'x-request-id': 'req-304' });
        res.end();
      } else json(res, 200, PAGE, { etag: '"v1"' });
    });
    const { inventory } = client(server.url);
    const fresh = await inventory.list().withResponse();
    expect(fresh.response).toMatchObject({ etag: '"v1"', notModified: false });
    const cached = await inventory.list({}, { ifNoneMatch: '"v1"' }).withResponse();
    expect(cached.data).toBe(NOT_MODIFIED);
    expect(cached.response).toMatchObject({
      status: 304,
      etag: '"v1"',
      notModified: true,
      requestId: 'req-304',
      attempts: 1,
    });
    expect(await inventory.get('x', {}, { ifNoneMatch: '"v1"' })).toBe(NOT_MODIFIED);
    expect(server.requests.map((r) => r.headers['if-none-match'])).toEqual([
      undefined,
      '"v1"',
      '"v1"',
    ]);
  });

  it('treats a 304 nobody asked for as an error, not as a result', async () => {
    const server = await peer((_req, res) => {
      res.writeHead(304);
      res.end();
    });
    const error = await client(server.url)
      .inventory.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StockroomError);
    expect(error).toMatchObject({ code: 'HTTP_ERROR', status: 304 });
  });

  it('sync() refuses an answer without nextSince: a server that does not sync', async () => {
    const server = await peer((_req, res) => json(res, 200, PAGE));
    const error = await client(server.url)
      .inventory.sync({ since: new Date(0) })
      .next()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StockroomError);
    expect(error).toMatchObject({ code: 'INVALID_RESPONSE', status: 200 });
  });

  it('sync() stops at once when the signal is aborted between pages', async () => {
    const server = await peer((_req, res, n) =>
      json(res, 200, { ...PAGE, nextCursor: `c${n + 1}`, nextSince: `s${n}` }),
    );
    const controller = new AbortController();
    const reason = new Error('enough');
    const seen: string[] = [];
    const error = await (async () => {
      for await (const page of client(server.url).inventory.sync(
        { since: 's0' },
        { signal: controller.signal },
      )) {
        seen.push(page.nextSince);
        expect(page.deleted).toEqual([]);
        if (seen.length === 2) controller.abort(reason);
      }
    })().catch((e: unknown) => e);
    expect(error).toBe(reason);
    expect(seen).toEqual(['s0', 's1']);
    expect(server.requests).toHaveLength(2);
  });

  it('rejects 4xx errors with catch() and finally() as a promise does', async () => {
    const server = await peer((_req, res) => json(res, 404, envelope('ITEM_NOT_FOUND', 404)));
    let settled = false;
    const error = await client(server.url)
      .inventory.get('missing')
      .finally(() => {
        settled = true;
      })
      .catch((e: unknown) => e);
    expect(settled).toBe(true);
    expect(error).toMatchObject({ name: 'NotFoundError', code: 'ITEM_NOT_FOUND', status: 404 });
  });
});

describe('retries', () => {
  it('retries 5xx until an attempt succeeds and reports the attempts', async () => {
    const server = await peer((_req, res, n) =>
      n < 2 ? json(res, 503, envelope('SERVICE_UNAVAILABLE', 503)) : json(res, 200, PAGE),
    );
    const { response } = await client(server.url).inventory.list().withResponse();
    expect(response.attempts).toBe(3);
    expect(server.requests).toHaveLength(3);
  });

  it('gives up after maxRetries with the last error', async () => {
    const server = await peer((_req, res) => json(res, 500, envelope('INTERNAL_ERROR', 500)));
    const error = await client(server.url, { maxRetries: 3 })
      .verifyKey()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ code: 'INTERNAL_ERROR', status: 500 });
    expect(server.requests).toHaveLength(4);
  });

  it('retries a proxy 502 without a Stockroom body', async () => {
    const server = await peer((_req, res, n) => {
      if (n === 0) {
        res.writeHead(502, { 'content-type': 'text/html' });
        res.end('<h1>Bad gateway</h1>');
      } else json(res, 200, { data: { _id: 'o' } });
    });
    expect(await client(server.url).organization.get()).toEqual({ _id: 'o' });
    expect(server.requests).toHaveLength(2);
  });

  it('retries RATE_LIMITED after Retry-After', async () => {
    const server = await peer((_req, res, n) =>
      n === 0
        ? json(res, 401, envelope('RATE_LIMITED', 401), { 'retry-after': '0' })
        : json(res, 200, PAGE),
    );
    const { response } = await client(server.url).inventory.list().withResponse();
    expect(response.attempts).toBe(2);
  });

  it('throws RateLimitError at once when Retry-After is beyond the cap', async () => {
    const server = await peer((_req, res) =>
      json(res, 401, envelope('RATE_LIMITED', 401), { 'retry-after': '30' }),
    );
    const error = await client(server.url, { maxRetryWait: 10_000 })
      .inventory.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ retryAfter: 30, status: 401, code: 'RATE_LIMITED' });
    expect(server.requests).toHaveLength(1);
  });

  it.each([
    ['KEY_EXHAUSTED', 401],
    ['INVALID_API_KEY', 401],
    ['ORGANIZATION_FORBIDDEN', 403],
    ['INVALID_PARAMETER', 400],
    ['ITEM_NOT_FOUND', 404],
    ['SYNC_EXPIRED', 410],
  ])('never retries %s', async (code, status) => {
    const server = await peer((_req, res) => json(res, status, envelope(code, status)));
    const error = await client(server.url, { maxRetries: 5 })
      .inventory.list()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code, status });
    if (code === 'SYNC_EXPIRED') expect(error).toBeInstanceOf(SyncExpiredError);
    expect(server.requests).toHaveLength(1);
  });

  it('retries connection failures, then throws ConnectionError', async () => {
    const url = await deadUrl();
    // The real fetch, only counted: each call is one attempt to connect.
    let attempts = 0;
    const error = await client(url, {
      maxRetries: 2,
      fetch: (input, init) => {
        attempts += 1;
        return fetch(input, init);
      },
    })
      .verifyKey()
      .catch((e: unknown) => e);
    expect(attempts).toBe(3);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).not.toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ code: 'CONNECTION_ERROR', status: null });
    expect((error as Error).message).toContain('ECONNREFUSED');
    expect((error as Error).cause).toBeInstanceOf(Error);
  });

  it('honours a per-call maxRetries', async () => {
    const server = await peer((_req, res) => json(res, 503, envelope('SERVICE_UNAVAILABLE', 503)));
    await client(server.url, { maxRetries: 5 })
      .verifyKey({ maxRetries: 0 })
      .catch(() => {});
    expect(server.requests).toHaveLength(1);
  });
});

describe('timeouts and cancellation', () => {
  const stall: PeerHandler = () => {
    // Never answers; the peer's close() drops the connection.
  };

  it('times out an attempt that gets no answer', async () => {
    const server = await peer(stall);
    const error = await client(server.url, { timeoutMs: 50, maxRetries: 0 })
      .verifyKey()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ code: 'TIMEOUT', status: null });
    expect((error as Error).message).toContain('50 ms');
  });

  it('times out a body that stalls after the headers, and retries the timeout', async () => {
    const server = await peer((_req, res, n) => {
      if (n === 0) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"data":');
      } else json(res, 200, { data: { _id: 'o' } });
    });
    const { data, response } = await client(server.url, { timeoutMs: 100 })
      .organization.get()
      .withResponse();
    expect(data).toEqual({ _id: 'o' });
    expect(response.attempts).toBe(2);
  });

  it('stops at once when the caller aborts, with the caller’s reason', async () => {
    const server = await peer(stall);
    const controller = new AbortController();
    const pending = client(server.url, { maxRetries: 5 })
      .inventory.list({}, { signal: controller.signal })
      .catch((e: unknown) => e);
    await waitFor(() => server.requests.length === 1);
    const reason = new Error('user went away');
    controller.abort(reason);
    expect(await pending).toBe(reason);
    expect(server.requests).toHaveLength(1);
  });

  it('aborts the wait between retries too', async () => {
    const server = await peer((_req, res) =>
      json(res, 401, envelope('RATE_LIMITED', 401), { 'retry-after': '50' }),
    );
    const controller = new AbortController();
    const pending = client(server.url, { maxRetryWait: 60_000 })
      .inventory.list({}, { signal: controller.signal })
      .catch((e: unknown) => e);
    await waitFor(() => server.requests.length === 1);
    controller.abort();
    expect(await pending).toMatchObject({ name: 'AbortError' });
    expect(server.requests).toHaveLength(1);
  });

  it('does not start when the signal is already aborted', async () => {
    const server = await peer((_req, res) => json(res, 200, PAGE));
    const error = await client(server.url)
      .inventory.list({}, { signal: AbortSignal.abort() })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'AbortError' });
    expect(server.requests).toHaveLength(0);
  });
});

describe('the key stays secret', () => {
  it('is redacted from error messages that echo it', async () => {
    const server = await peer((_req, res) =>
      json(res, 401, envelope('INVALID_API_KEY', 401, `The key ${KEY} is not known.`)),
    );
    const error = (await client(server.url)
      .verifyKey()
      .catch((e: unknown) => e)) as AuthenticationError;
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.message).toBe('The key [redacted] is not known.');
    for (const text of [String(error), error.stack, inspect(error), JSON.stringify(error)]) {
      expect(text).not.toContain(KEY);
    }
  });

  it('never shows in the client’s inspect, JSON or string forms', async () => {
    const stockroom = client('http://127.0.0.1:9');
    for (const text of [
      inspect(stockroom, { depth: 10 }),
      JSON.stringify(stockroom),
      String(stockroom),
    ]) {
      expect(text).not.toContain(KEY);
      expect(text).not.toContain(KEY.slice(11));
    }
    expect(inspect(stockroom)).toContain('sr_org_0123…');
    expect(inspect(stockroom.inventory, { depth: 10 })).not.toContain(KEY);
  });

  it('refuses a key that cannot go in a header, without quoting it or sending anything', () => {
    // fetch's own error for these quotes the whole Authorization header, key included.
    for (const mangled of [`${KEY.slice(0, 20)}\n${KEY.slice(20)}`, `${KEY.slice(0, 20)}…`]) {
      let error: unknown;
      try {
        new Stockroom({ baseUrl: 'http://127.0.0.1:9', apiKey: mangled });
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(TypeError);
      expect((error as Error).message).toMatch(/cannot be sent in an HTTP header/);
      expect(inspect(error, { depth: 10 })).not.toContain(KEY.slice(11, 20));
    }
  });

  it('drops whitespace around the key, such as the final newline of a key file', async () => {
    const server = await peer((_req, res) => json(res, 200, { valid: true, key: {} }));
    await client(server.url, { apiKey: ` ${KEY}\n` }).verifyKey();
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('never shows in connection errors', async () => {
    const error = await client(await deadUrl(), { maxRetries: 0 })
      .verifyKey()
      .catch((e: unknown) => e);
    expect(inspect(error, { depth: 10 })).not.toContain(KEY);
  });

  it('never shows in the cause of a connection error, even one that echoes the headers', async () => {
    const error = (await client('http://127.0.0.1:9', {
      maxRetries: 0,
      // A fetch wrapper (tracing, a proxy agent) whose error quotes the request it failed.
      async fetch(_input, init) {
        const headers = init.headers as Record<string, string>;
        throw Object.assign(new TypeError(`refused: authorization=${headers.authorization}`), {
          code: 'E_PROXY',
          request: { headers },
          cause: new Error(`upstream said ${headers.authorization}`),
        });
      },
    })
      .verifyKey()
      .catch((e: unknown) => e)) as ConnectionError;
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.message).toBe(
      'Could not reach http://127.0.0.1:9 (GET /api/v1/auth/verify): refused: authorization=Bearer [redacted] (E_PROXY)',
    );
    expect(error.cause).toMatchObject({
      name: 'TypeError',
      message: 'refused: authorization=Bearer [redacted]',
      code: 'E_PROXY',
      cause: { message: 'upstream said Bearer [redacted]' },
    });
    for (const text of [
      inspect(error, { depth: 20, showHidden: true }),
      inspect(error.cause, { depth: 20, showHidden: true }),
      JSON.stringify(error),
      String(error.stack),
    ]) {
      expect(text).not.toContain(KEY);
    }
  });

  it('leaves error bodies intact when the key is too short to be a secret', async () => {
    // With a one-letter key, replacing it everywhere would break the JSON and every word.
    const server = await peer((_req, res) =>
      json(res, 401, envelope('INVALID_API_KEY', 401, 'The key is not a Stockroom key.')),
    );
    const error = await client(server.url, { apiKey: 'e' })
      .verifyKey()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({
      code: 'INVALID_API_KEY',
      message: 'The key is not a Stockroom key.',
      requestId: 'req-invalid_api_key',
      docUrl: 'http://docs.test/en/docs/errors#invalid_api_key',
    });
  });
});

describe('configuration', () => {
  it('needs a base URL', () => {
    expect(() => new Stockroom({ apiKey: KEY })).toThrow(/baseUrl/);
    expect(() => new Stockroom({ baseUrl: 'stock.example.com' })).toThrow(/absolute/);
    expect(() => new Stockroom({ baseUrl: 'ftp://stock.example.com' })).toThrow(/absolute/);
    expect(() => new Stockroom({ baseUrl: 'https://x.example/?a=1' })).toThrow(/query/);
  });

  it('reads STOCKROOM_BASE_URL and STOCKROOM_API_KEY from the environment', async () => {
    const server = await peer((_req, res) => json(res, 200, { valid: true, key: {} }));
    process.env.STOCKROOM_BASE_URL = server.url;
    process.env.STOCKROOM_API_KEY = KEY;
    try {
      await new Stockroom().verifyKey();
    } finally {
      delete process.env.STOCKROOM_BASE_URL;
      delete process.env.STOCKROOM_API_KEY;
    }
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('treats an environment it may not read as unset, as in Deno without --allow-env', async () => {
    const server = await peer((_req, res) =>
      json(res, 200, { status: 'ok', version: '1', checks: {} }),
    );
    const real = process.env;
    // Deno's process.env throws NotCapable for every variable it is not allowed to read.
    process.env = new Proxy(real, {
      get(target, name) {
        if (typeof name === 'string' && name.startsWith('STOCKROOM_')) {
          throw new Error(`NotCapable: Requires env access to "${name}"`);
        }
        return Reflect.get(target, name);
      },
    });
    let stockroom: Stockroom;
    try {
      stockroom = new Stockroom({ baseUrl: server.url, apiKey: null });
      expect(() => new Stockroom()).toThrow(/no baseUrl/);
      // An unreadable STOCKROOM_API_KEY is an unset one: the constructor says what is missing.
      expect(() => new Stockroom({ baseUrl: server.url })).toThrow(/STOCKROOM_API_KEY/);
    } finally {
      process.env = real;
    }
    expect((await stockroom.health()).status).toBe('ok');
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
  });

  it('rejects nonsensical per-call numbers as the constructor does, before sending anything', async () => {
    const server = await peer((_req, res) => json(res, 200, PAGE));
    const stockroom = client(server.url);
    for (const options of [
      { timeoutMs: Number.NaN },
      { timeoutMs: -1 },
      { timeoutMs: 0 },
      { timeoutMs: Number.POSITIVE_INFINITY },
      { maxRetries: Number.POSITIVE_INFINITY },
      { maxRetries: -1 },
      { maxRetries: Number.NaN },
      { maxRetries: '2' as unknown as number },
    ]) {
      const error = await stockroom.inventory.list({}, options).catch((e: unknown) => e);
      expect(error, inspect(options)).toBeInstanceOf(RangeError);
      expect((error as Error).message).toContain(Object.keys(options)[0]);
    }
    expect(server.requests).toHaveLength(0);
  });

  it('counts whole retries in a per-call maxRetries, as the constructor does', async () => {
    const server = await peer((_req, res) => json(res, 503, envelope('SERVICE_UNAVAILABLE', 503)));
    await client(server.url)
      .verifyKey({ maxRetries: 1.5 })
      .catch(() => {});
    expect(server.requests).toHaveLength(2);
  });

  it('rejects nonsensical numbers', () => {
    expect(() => client('http://x.test', { timeoutMs: 0 })).toThrow(RangeError);
    expect(() => client('http://x.test', { maxRetries: -1 })).toThrow(RangeError);
    expect(() => client('http://x.test', { maxRetries: Number.NaN })).toThrow(RangeError);
  });
});

/** Waits for a condition the peer reports (a request has arrived), checking on each tick. */
async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}
