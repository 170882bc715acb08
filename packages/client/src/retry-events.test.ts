import { afterEach, describe, expect, it } from 'vitest';
import { Stockroom, type StockroomOptions } from './client.js';
import {
  ConfigurationError,
  ConnectionError,
  NotFoundError,
  RateLimitError,
  ServerError,
  StockroomError,
} from './errors.js';
import type { RetryEvent } from './retry.js';
import {
  deadUrl,
  envelope,
  json,
  type Peer,
  type PeerHandler,
  startPeer,
} from './testing/http-peer.js';

/**
 * What issue 34 asked of the client: a retry is never silent (`onRetry`, `onRateLimit`), a long
 * `Retry-After` fails fast (`maxRetryWait`), a missing key is caught when the client is created,
 * and a `baseUrl` pointing at the docs host says so. Against scripted HTTP peers; the real docs
 * host is in test/client-api.test.ts.
 */

const KEY = 'sr_org_0123456789abcdefghijABCDEFGHIJklmnop';
const PAGE = { data: [], organizationId: 'o', count: 0, nextCursor: null };
const peers: Peer[] = [];

afterEach(async () => {
  await Promise.all(peers.splice(0).map((peer) => peer.close()));
});

async function peer(handler: PeerHandler): Promise<Peer> {
  const started = await startPeer(handler);
  peers.push(started);
  return started;
}

function client(baseUrl: string, options: StockroomOptions = {}) {
  return new Stockroom({ baseUrl, apiKey: KEY, retryDelayMs: 1, maxRetryDelayMs: 5, ...options });
}

const rateLimited = (retryAfter: string) => (res: Parameters<PeerHandler>[1]) =>
  json(res, 401, envelope('RATE_LIMITED', 401), {
    'retry-after': retryAfter,
    'x-ratelimit-limit': '10',
    'x-ratelimit-remaining': '0',
    'x-ratelimit-reset': '1800000000',
  });

describe('onRetry and onRateLimit', () => {
  it('are told each retry before its wait: attempt, delay, Retry-After and the failure', async () => {
    const server = await peer((_req, res, n) =>
      n < 2 ? rateLimited('0')(res) : json(res, 200, PAGE),
    );
    const retries: RetryEvent[] = [];
    const rateLimits: RetryEvent<RateLimitError>[] = [];
    const order: string[] = [];
    const stockroom = client(server.url, {
      onRetry: (event) => {
        retries.push(event);
        // Called before the retry is sent: the peer has seen only the failed attempts.
        order.push(`retry ${event.attempt} after ${server.requests.length} requests`);
      },
      onRateLimit: (event) => {
        rateLimits.push(event);
        order.push(`rate limit ${event.attempt}`);
      },
    });
    const { response } = await stockroom.inventory.list({ limit: 5 }).withResponse();
    expect(response.attempts).toBe(3);
    expect(order).toEqual([
      'retry 1 after 1 requests',
      'rate limit 1',
      'retry 2 after 2 requests',
      'rate limit 2',
    ]);
    expect(rateLimits).toEqual(retries);
    const [first] = retries;
    expect(first).toMatchObject({
      attempt: 1,
      maxRetries: 2,
      delayMs: 0,
      status: 401,
      retryAfter: 0,
      rateLimit: { limit: 10, remaining: 0, reset: 1_800_000_000 },
      requestId: 'req-rate_limited',
      path: '/api/v1/inventory/items',
    });
    expect(first?.error).toBeInstanceOf(RateLimitError);
    expect(first?.error.code).toBe('RATE_LIMITED');
  });

  it('onRetry alone hears 5xx and connection failures, with the backoff delay', async () => {
    const server = await peer((_req, res, n) =>
      n === 0 ? json(res, 503, envelope('SERVICE_UNAVAILABLE', 503)) : json(res, 200, PAGE),
    );
    const retries: RetryEvent[] = [];
    const rateLimits: RetryEvent[] = [];
    await client(server.url, {
      retryDelayMs: 3,
      onRetry: (event) => retries.push(event),
      onRateLimit: (event) => rateLimits.push(event),
    }).inventory.list();
    expect(rateLimits).toEqual([]);
    expect(retries).toHaveLength(1);
    expect(retries[0]?.error).toBeInstanceOf(ServerError);
    // 3 ms shortened by up to a quarter at random (jitter), whole milliseconds.
    expect([2, 3]).toContain(retries[0]?.delayMs);
    expect(retries[0]?.retryAfter).toBeNull();

    const dead = await deadUrl();
    const refused: RetryEvent[] = [];
    const error = await client(dead, { maxRetries: 1, onRetry: (event) => refused.push(event) })
      .verifyKey()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({ attempt: 1, maxRetries: 1, status: null, requestId: null });
  });

  it('are not called when nothing is retried', async () => {
    const server = await peer((_req, res) => json(res, 404, envelope('ITEM_NOT_FOUND', 404)));
    const events: RetryEvent[] = [];
    const error = await client(server.url, { onRetry: (e) => events.push(e) })
      .inventory.get('x')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(events).toEqual([]);
  });

  it('stop the call when they throw: the call rejects with what they threw, without the retry', async () => {
    const server = await peer((_req, res) => rateLimited('0')(res));
    const stop = new Error('no retries during checkout');
    const error = await client(server.url, {
      onRateLimit: () => {
        throw stop;
      },
    })
      .inventory.list()
      .catch((e: unknown) => e);
    expect(error).toBe(stop);
    expect(server.requests).toHaveLength(1);
  });

  it('must be functions', () => {
    expect(() => client('http://x.test', { onRetry: 'log' as never })).toThrow(
      /onRetry must be a function/,
    );
    expect(() => client('http://x.test', { onRateLimit: {} as never })).toThrow(TypeError);
  });
});

describe('maxRetryWait', () => {
  it('throws the RateLimitError at once when Retry-After is longer, without calling back', async () => {
    const server = await peer((_req, res) => rateLimited('51')(res));
    const events: RetryEvent[] = [];
    const error = await client(server.url, { maxRetryWait: 50_000, onRetry: (e) => events.push(e) })
      .inventory.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ code: 'RATE_LIMITED', retryAfter: 51 });
    expect(server.requests).toHaveLength(1);
    expect(events).toEqual([]);
  });

  it('defaults to 10 s: a 51 s Retry-After is not waited out', async () => {
    const server = await peer((_req, res) => rateLimited('51')(res));
    const error = await client(server.url)
      .verifyKey()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'RATE_LIMITED', retryAfter: 51 });
    expect(server.requests).toHaveLength(1);
  });

  it('also bounds the backoff: 0 turns every wait into an error', async () => {
    const server = await peer((_req, res) => json(res, 503, envelope('SERVICE_UNAVAILABLE', 503)));
    const error = await client(server.url, { maxRetryWait: 0 })
      .verifyKey()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect(server.requests).toHaveLength(1);
  });

  it('takes the deprecated maxRetryAfterMs when it is not given itself', async () => {
    const server = await peer((_req, res) => rateLimited('2')(res));
    await client(server.url, { maxRetryAfterMs: 1_000 })
      .verifyKey()
      .catch(() => {});
    expect(server.requests).toHaveLength(1);
  });

  it('rejects nonsensical values', () => {
    expect(() => client('http://x.test', { maxRetryWait: -1 })).toThrow(/maxRetryWait/);
    expect(() => client('http://x.test', { maxRetryWait: Number.NaN })).toThrow(RangeError);
  });
});

describe('a missing API key', () => {
  const saved = process.env.STOCKROOM_API_KEY;
  afterEach(() => {
    if (saved === undefined) delete process.env.STOCKROOM_API_KEY;
    else process.env.STOCKROOM_API_KEY = saved;
  });

  it('is a ConfigurationError when the client is created, naming the option and the variable', () => {
    delete process.env.STOCKROOM_API_KEY;
    for (const options of [{}, { apiKey: undefined }, { apiKey: process.env.STOCKROOM_API_KEY }]) {
      let error: unknown;
      try {
        new Stockroom({ baseUrl: 'http://x.test', ...options });
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(ConfigurationError);
      expect(error).toBeInstanceOf(StockroomError);
      expect(error).toMatchObject({ code: 'MISSING_API_KEY', status: null });
      expect((error as Error).message).toContain('apiKey');
      expect((error as Error).message).toContain('STOCKROOM_API_KEY');
    }
  });

  it('an empty or blank key is one too (an empty key file, a variable set to "")', () => {
    for (const apiKey of ['', '  \n']) {
      expect(() => new Stockroom({ baseUrl: 'http://x.test', apiKey })).toThrow(ConfigurationError);
    }
  });

  it('STOCKROOM_API_KEY fills it in; apiKey: null makes a client without a key', async () => {
    process.env.STOCKROOM_API_KEY = KEY;
    expect(new Stockroom({ baseUrl: 'http://x.test' }).toJSON().apiKey).toBe('sr_org_0123…');
    delete process.env.STOCKROOM_API_KEY;
    const server = await peer((_req, res) => json(res, 200, { status: 'ok', version: '1' }));
    const keyless = new Stockroom({ baseUrl: server.url, apiKey: null });
    expect((await keyless.health()).status).toBe('ok');
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
  });
});

describe('a baseUrl that answers like the docs host', () => {
  it('names the documentation host and the API URL to use instead of a bare 404', async () => {
    const server = await peer((_req, res) => {
      res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        '<!doctype html><title>Page not found · Stockroom docs</title><h1>Page not found</h1>',
      );
    });
    const error = await client(server.url)
      .inventory.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 404, code: 'HTTP_ERROR' });
    const { message } = error as Error;
    expect(message).toContain('this looks like the documentation host');
    expect(message).toContain('use the API URL as baseUrl (port PORT, 3000 by default');
    expect(server.requests).toHaveLength(1);
  });

  it('suggests the API port when baseUrl has the docs port', async () => {
    const stockroom = client('http://127.0.0.1:3001', {
      fetch: async () =>
        new Response(
          '# Page not found\n\nEvery page is listed in http://127.0.0.1:3001/llms.txt\n',
          {
            status: 404,
            headers: { 'content-type': 'text/markdown; charset=utf-8' },
          },
        ),
    });
    const error = await stockroom.organization.get().catch((e: unknown) => e);
    expect((error as Error).message).toContain('e.g. http://127.0.0.1:3000)');
  });

  it('leaves other answers alone: a JSON 404, or an HTML 502 from a proxy', async () => {
    const server = await peer((_req, res, n) => {
      if (n === 0) return json(res, 404, { message: 'no such route' });
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<h1>Bad gateway</h1>');
    });
    const notFound = await client(server.url)
      .inventory.get('x')
      .catch((e: unknown) => e);
    expect((notFound as Error).message).not.toContain('documentation');
    const badGateway = await client(server.url, { maxRetries: 0 })
      .inventory.get('x')
      .catch((e: unknown) => e);
    expect(badGateway).toBeInstanceOf(ServerError);
    expect((badGateway as Error).message).not.toContain('documentation');
  });
});
