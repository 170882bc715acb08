import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  InvalidRequestError,
  type InventoryItem,
  NotFoundError,
  PermissionError,
  RateLimitError,
  Stockroom,
  type StockroomOptions,
} from '../packages/client/src/index.js';
import { startTestServer, type TestServer } from '../packages/server/src/testing/harness.js';

/**
 * @stockroom/client against the real Stockroom server (its API host, through `inject`, on a
 * fresh SQLite database with the demo organization): every method, pagination, and the error classes for
 * the server's real answers.
 */

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

/** fetch that counts what the client sends: the server's own answers, only observed. */
function countingFetch() {
  const urls: URL[] = [];
  const impl = (input: string, init: RequestInit) => {
    urls.push(new URL(input));
    return server.fetch(input, init);
  };
  return { urls, fetch: impl };
}

function client(options: StockroomOptions = {}) {
  return new Stockroom({
    baseUrl: server.apiUrl,
    apiKey: server.demo.key,
    fetch: server.fetch,
    ...options,
  });
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
    },
    (error: unknown) => error,
  );
}

describe('methods', () => {
  it('health() reports the service without a key', async () => {
    const report = await new Stockroom({
      baseUrl: server.apiUrl,
      apiKey: null,
      fetch: server.fetch,
    }).health();
    expect(report.status).toBe('ok');
    expect(report.checks.database).toBe('ok');
    expect(typeof report.version).toBe('string');
  });

  it('verifyKey() describes the key without echoing it', async () => {
    const { data, response } = await client().verifyKey().withResponse();
    expect(data.valid).toBe(true);
    expect(data.key).toMatchObject({
      type: 'organization',
      organizationId: server.demo.organizationId,
      permissions: ['inventory:view'],
      rateLimit: { max: 600, windowSeconds: 60 },
      view: null,
    });
    expect(server.demo.key.startsWith(data.key.prefix)).toBe(true);
    expect(JSON.stringify(data)).not.toContain(server.demo.key);
    expect(response.requestId).toMatch(/\S/);
    expect(response.rateLimit).toMatchObject({ limit: 600 });
  });

  it('organization.get() returns the key’s organization', async () => {
    const organization = await client().organization.get();
    expect(organization).toMatchObject({
      _id: server.demo.organizationId,
      features: ['inventory'],
    });
    expect(Object.keys(organization)).toEqual(['_id', 'name', 'slug', 'features', 'createdAt']);
  });

  it('inventory.list() returns the envelope and its response metadata', async () => {
    const { data: page, response } = await client().inventory.list({ limit: 3 }).withResponse();
    expect(page.organizationId).toBe(server.demo.organizationId);
    expect(page.count).toBe(3);
    expect(page.data).toHaveLength(3);
    expect(page.nextCursor).toEqual(expect.any(String));
    expect(page.data[0]?._id).toBe(server.demo.itemId);
    expect(response).toMatchObject({ status: 200, deprecated: false, attempts: 1 });
    expect(response.requestId).toBe(response.headers.get('x-request-id'));
    expect(response.rateLimit?.limit).toBe(600);
    expect(response.rateLimit?.remaining).toBeLessThan(600);
  });

  it('inventory.list() narrows items to the requested fields', async () => {
    const page = await client().inventory.list({ limit: 5, fields: ['sku', 'name'] });
    for (const item of page.data) expect(Object.keys(item)).toEqual(['name', 'sku']);
  });

  it('inventory.list() filters by status and search', async () => {
    // A search page may hold fewer items than `limit`, even none, and still have a next page:
    // all() follows the cursors to the end.
    const items = [];
    for await (const item of client().inventory.all({ status: 'Active', search: 'TENT' })) {
      items.push(item);
    }
    expect(items.length).toBeGreaterThan(0);
    for (const item of items) {
      expect(item.status).toBe('Active');
      expect(
        [item.name, item.description, item.sku, item.barcode].join(' ').toLowerCase(),
      ).toContain('tent');
    }
  });

  it('inventory.get() returns one item, whole or narrowed', async () => {
    const item = await client().inventory.get(server.demo.itemId);
    expect(item._id).toBe(server.demo.itemId);
    expect(Object.keys(item)).toEqual([
      '_id',
      'organizationId',
      'name',
      'description',
      'sku',
      'barcode',
      'status',
      'quantity',
      'stock',
      'customFields',
      'createdAt',
      'updatedAt',
    ]);
    const narrow = await client().inventory.get(server.demo.itemId, {
      fields: ['quantity', '_id'],
    });
    expect(narrow).toEqual({ _id: item._id, quantity: item.quantity });
  });

  it('marks responses to the legacy organizationId override as deprecated', async () => {
    const { data, response } = await client()
      .organization.get({ organizationId: server.demo.organizationId })
      .withResponse();
    expect(data._id).toBe(server.demo.organizationId);
    expect(response.deprecated).toBe(true);
  });
});

describe('inventory.all()', () => {
  let key: string;
  const TOTAL = 23;

  beforeAll(async () => {
    const org = await server.createOrganization();
    key = (await server.createKey({ organizationId: org.id, rateLimit: null })).key;
    await server.createItems(
      org.id,
      Array.from({ length: TOTAL }, (_, i) => ({
        name: `Walk item ${i}`,
        sku: `WALK-${i}`,
        status: i % 3 === 0 ? ('Draft' as const) : ('Active' as const),
        quantity: i,
      })),
    );
  });

  it('walks every page, each item once, in _id order', async () => {
    const counter = countingFetch();
    const stockroom = client({ apiKey: key, fetch: counter.fetch });
    const items: Array<Pick<InventoryItem, '_id' | 'sku'>> = [];
    for await (const item of stockroom.inventory.all({ limit: 5, fields: ['_id', 'sku'] })) {
      items.push(item);
    }
    expect(items).toHaveLength(TOTAL);
    expect(new Set(items.map((item) => item._id)).size).toBe(TOTAL);
    expect(items.map((item) => item._id)).toEqual(items.map((item) => item._id).sort());
    expect(items.map((item) => item.sku)).toEqual(
      Array.from({ length: TOTAL }, (_, i) => `WALK-${i}`),
    );
    // ceil(23 / 5) pages, the cursor of each page sent with the next.
    expect(counter.urls).toHaveLength(5);
    expect(counter.urls[0]?.searchParams.has('cursor')).toBe(false);
    for (const url of counter.urls.slice(1)) expect(url.searchParams.get('cursor')).toMatch(/\S/);
  });

  it('keeps the filters on every page', async () => {
    const items = [];
    for await (const item of client({ apiKey: key }).inventory.all({ limit: 4, status: 'Draft' })) {
      items.push(item);
    }
    expect(items).toHaveLength(Math.ceil(TOTAL / 3));
    expect(items.every((item) => item.status === 'Draft')).toBe(true);
  });

  it('stops fetching when the loop breaks', async () => {
    const counter = countingFetch();
    const stockroom = client({ apiKey: key, fetch: counter.fetch });
    let seen = 0;
    for await (const _item of stockroom.inventory.all({ limit: 5 })) {
      seen += 1;
      if (seen === 7) break;
    }
    expect(counter.urls).toHaveLength(2);
  });

  it('stops at once when the signal is aborted mid-page, with the signal’s reason', async () => {
    const counter = countingFetch();
    const stockroom = client({ apiKey: key, fetch: counter.fetch });
    const controller = new AbortController();
    const reason = new Error('walk cancelled');
    const seen: string[] = [];
    const walk = async () => {
      const items = stockroom.inventory.all(
        { limit: 5, fields: ['_id'] },
        { signal: controller.signal },
      );
      for await (const item of items) {
        seen.push(item._id);
        if (seen.length === 2) controller.abort(reason);
      }
    };
    expect(await walk().catch((error: unknown) => error)).toBe(reason);
    // The first page held 5 items; none after the abort was handed out.
    expect(seen).toHaveLength(2);
    expect(counter.urls).toHaveLength(1);
  });
});

describe('errors from the real server', () => {
  it('AuthenticationError for a missing key (a client made keyless on purpose)', async () => {
    const error = await rejection(
      new Stockroom({
        baseUrl: server.apiUrl,
        apiKey: null,
        fetch: server.fetch,
      }).organization.get(),
    );
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status: 401, code: 'MISSING_API_KEY' });
  });

  it('pointed at the real docs host, the error says so and names the API URL to use', async () => {
    for (const call of [
      (lost: Stockroom) => lost.inventory.list(),
      (lost: Stockroom) => lost.verifyKey(),
      (lost: Stockroom) => lost.health({ maxRetries: 0 }),
    ]) {
      const lost = client({ baseUrl: server.docsUrl });
      const error = (await rejection(call(lost))) as NotFoundError;
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error).toMatchObject({ status: 404, code: 'HTTP_ERROR' });
      expect(error.message).toContain(
        `${server.docsUrl} answered with a web page, not the API: this looks like the documentation host; use the API URL as baseUrl (port PORT, 3000 by default)`,
      );
    }
  });

  it('AuthenticationError for an unknown key, with request id and doc URL, key not echoed', async () => {
    const bad = `sr_org_${'A'.repeat(32)}000000`;
    const error = (await rejection(client({ apiKey: bad }).verifyKey())) as AuthenticationError;
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status: 401, code: 'INVALID_API_KEY' });
    expect(error.docUrl).toBe(`${server.docsUrl}/en/docs/errors#invalid_api_key`);
    expect(error.requestId).toBe(error.headers?.get('x-request-id'));
    expect(error.message.length).toBeGreaterThan(10);
    expect(`${error.message}${error.stack}`).not.toContain(bad);
  });

  it('AuthenticationError for disabled and expired keys', async () => {
    const disabled = await server.createKey({ organizationId: server.demo.organizationId });
    await server.store.setApiKeyEnabled(disabled.record.id, false);
    const expired = await server.createKey({
      organizationId: server.demo.organizationId,
      expiresAt: Date.now() - 1000,
    });
    await expect(client({ apiKey: disabled.key }).verifyKey()).rejects.toMatchObject({
      name: 'AuthenticationError',
      code: 'KEY_DISABLED',
    });
    await expect(client({ apiKey: expired.key }).verifyKey()).rejects.toMatchObject({
      name: 'AuthenticationError',
      code: 'KEY_EXPIRED',
    });
  });

  it('PermissionError for another organization, a missing permission, a disabled feature', async () => {
    const other = await server.createOrganization();
    const forbidden = await rejection(client().inventory.list({ organizationId: other.id }));
    expect(forbidden).toBeInstanceOf(PermissionError);
    expect(forbidden).toMatchObject({ status: 403, code: 'ORGANIZATION_FORBIDDEN' });

    const viewless = await server.createKey({
      organizationId: server.demo.organizationId,
      permissions: [],
    });
    await expect(client({ apiKey: viewless.key }).inventory.list()).rejects.toMatchObject({
      name: 'PermissionError',
      code: 'INSUFFICIENT_PERMISSIONS',
    });

    const featureless = await server.createOrganization({ features: [] });
    const featurelessKey = await server.createKey({ organizationId: featureless.id });
    await expect(
      client({ apiKey: featurelessKey.key }).inventory.get(server.demo.itemId),
    ).rejects.toBeInstanceOf(PermissionError);
  });

  it('NotFoundError for an unknown item or organization', async () => {
    const error = await rejection(client().inventory.get('0'.repeat(24)));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({
      status: 404,
      code: 'ITEM_NOT_FOUND',
      docUrl: `${server.docsUrl}/en/docs/errors#item_not_found`,
    });
    await expect(
      client().organization.get({ organizationId: 'f'.repeat(24) }),
    ).rejects.toMatchObject({ name: 'NotFoundError', code: 'ORGANIZATION_NOT_FOUND' });
  });

  it('InvalidRequestError with the parameter at fault, never retried', async () => {
    const counter = countingFetch();
    const stockroom = client({ fetch: counter.fetch, maxRetries: 5 });
    const error = await rejection(stockroom.inventory.list({ limit: 0 }));
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error).toMatchObject({ status: 400, code: 'INVALID_PARAMETER', param: 'limit' });
    await expect(stockroom.inventory.get('not-an-id')).rejects.toMatchObject({
      name: 'InvalidRequestError',
      param: 'itemId',
    });
    await expect(
      // A field the types reject, forced through as a plain JavaScript caller might.
      stockroom.inventory.list({ fields: ['name', 'colour'] as never }),
    ).rejects.toMatchObject({ code: 'INVALID_PARAMETER', param: 'fields' });
    expect(counter.urls).toHaveLength(3);
  });
});

describe('quota and rate limit', () => {
  it('KEY_EXHAUSTED is an AuthenticationError and is never retried', async () => {
    const { key } = await server.createKey({
      organizationId: server.demo.organizationId,
      remaining: 1,
      rateLimit: null,
    });
    const counter = countingFetch();
    const stockroom = client({ apiKey: key, fetch: counter.fetch, maxRetries: 5 });
    await stockroom.inventory.get(server.demo.itemId);
    const error = await rejection(stockroom.inventory.get(server.demo.itemId));
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).not.toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 401, code: 'KEY_EXHAUSTED' });
    expect(counter.urls).toHaveLength(2);
  });

  it('RATE_LIMITED is a RateLimitError carrying Retry-After', async () => {
    // A day-long window: the requests below cannot straddle two windows in practice.
    const { key } = await server.createKey({
      organizationId: server.demo.organizationId,
      rateLimit: { max: 2, windowSeconds: 86_400 },
    });
    const counter = countingFetch();
    const stockroom = client({ apiKey: key, fetch: counter.fetch, maxRetries: 3 });
    const first = await stockroom.verifyKey().withResponse();
    expect(first.response.rateLimit).toMatchObject({ limit: 2, remaining: 1 });
    await stockroom.inventory.list({ limit: 1 });
    const error = (await rejection(stockroom.inventory.list({ limit: 1 }))) as RateLimitError;
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 401, code: 'RATE_LIMITED' });
    expect(error.retryAfter).toBeGreaterThan(0);
    expect(error.retryAfter).toBeLessThanOrEqual(86_400);
    // The wait asked for is beyond maxRetryAfterMs (60 s by default): thrown, not slept on.
    expect(counter.urls).toHaveLength(3);
  });

  it('RATE_LIMITED is retried after Retry-After, in the next window, and then succeeds', async () => {
    const { key } = await server.createKey({
      organizationId: server.demo.organizationId,
      rateLimit: { max: 1, windowSeconds: 1 },
    });
    /** What the server answered each list attempt: the server's answers, only observed. */
    const answers: Array<{ status: number; reset: number; retryAfter: string | null }> = [];
    const observing = async (input: string, init: RequestInit) => {
      const response = await server.fetch(input, init);
      if (new URL(input).pathname.endsWith('/inventory/items')) {
        answers.push({
          status: response.status,
          reset: Number(response.headers.get('x-ratelimit-reset')),
          retryAfter: response.headers.get('retry-after'),
        });
      }
      return response;
    };
    const stockroom = client({ apiKey: key, fetch: observing, maxRetries: 2 });
    // verifyKey spends the window's one request (waiting out a limit itself if need be), so the
    // list right after it is limited, unless a window boundary fell between the two; with
    // 1-second windows that can happen, and then the round is played again.
    let attempts = 0;
    for (let round = 0; round < 3 && attempts < 2; round++) {
      answers.length = 0;
      await stockroom.verifyKey();
      attempts = (await stockroom.inventory.list({ limit: 1 }).withResponse()).response.attempts;
    }
    expect(attempts).toBe(2);
    const [limited, retried] = answers;
    expect(answers).toHaveLength(2);
    expect(limited).toMatchObject({ status: 401, retryAfter: expect.stringMatching(/^[1-9]\d*$/) });
    expect(retried?.status).toBe(200);
    // The server itself placed the retry in a later window than the one it refused.
    expect(retried?.reset).toBeGreaterThan(limited?.reset ?? Number.POSITIVE_INFINITY);
  });
});
