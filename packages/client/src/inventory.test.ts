import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseView } from '../../server/src/domain/view.js';
import { startTestServer, type TestServer } from '../../server/src/testing/harness.js';
import { Stockroom, type StockroomOptions } from './client.js';
import { InvalidRequestError, SyncExpiredError } from './errors.js';
import { NOT_MODIFIED } from './response.js';
import type { InventoryItem, SyncPage } from './types.js';

/**
 * The inventory filters, incremental sync and conditional requests against the real Stockroom
 * server (its API host through `inject`, on a fresh SQLite database): what the client sends and what it makes of the answers.
 * Each organization here is the test's own, so its change feed holds only what the test wrote.
 */

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

/** A fresh organization, a key without a rate limit, and a client for it that records URLs. */
async function organization(options: StockroomOptions = {}) {
  const org = await server.createOrganization();
  const { key } = await server.createKey({ organizationId: org.id, rateLimit: null });
  const urls: URL[] = [];
  const stockroom = new Stockroom({
    baseUrl: server.apiUrl,
    apiKey: key,
    fetch: (input, init) => {
      urls.push(new URL(input));
      return server.fetch(input, init);
    },
    ...options,
  });
  return { id: org.id, stockroom, urls };
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const value of iterable) out.push(value);
  return out;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
    },
    (error: unknown) => error,
  );
}

describe('exact filters: sku, barcode, ids', () => {
  let org: Awaited<ReturnType<typeof organization>>;
  let bySku: Map<string, InventoryItem>;

  beforeAll(async () => {
    org = await organization();
    await server.createItems(org.id, [
      { name: 'Drill', sku: 'DRL-1', barcode: '4006381333931' },
      { name: 'Drill bits', sku: 'DRL-1-BITS', barcode: '4006381333931' },
      { name: 'Saw', sku: 'SAW-1', barcode: '5012345678900' },
      { name: 'Hammer', sku: 'HAM_1', barcode: null },
    ]);
    bySku = new Map();
    for await (const item of org.stockroom.inventory.all()) bySku.set(item.sku ?? '', item);
  });

  it('sku matches exactly and case-sensitively, with `_` and `%` literal', async () => {
    const page = await org.stockroom.inventory.list({ sku: 'DRL-1', fields: ['sku'] });
    expect(page.data).toEqual([{ sku: 'DRL-1' }]);
    expect((await org.stockroom.inventory.list({ sku: 'drl-1' })).data).toEqual([]);
    expect((await org.stockroom.inventory.list({ sku: 'HAM%' })).data).toEqual([]);
    expect(org.urls.at(-1)?.searchParams.get('sku')).toBe('HAM%');
  });

  it('barcode lists every item sharing it, combined with fields and status', async () => {
    const page = await org.stockroom.inventory.list({
      barcode: '4006381333931',
      status: 'Draft',
      fields: ['sku', 'barcode'],
    });
    expect(page.data.map((item) => item.sku)).toEqual(['DRL-1', 'DRL-1-BITS']);
    expect(page.count).toBe(2);
  });

  it('ids are sent comma-joined and come back in _id order; unknown ids are absent', async () => {
    const drill = bySku.get('DRL-1')?._id as string;
    const saw = bySku.get('SAW-1')?._id as string;
    const unknown = 'ffffffffffffffffffffffff';
    const page = await org.stockroom.inventory.list({
      ids: [saw, unknown, drill, saw],
      fields: ['_id'],
    });
    expect(org.urls.at(-1)?.searchParams.get('ids')).toBe(`${saw},${unknown},${drill},${saw}`);
    expect(page.data.map((item) => item._id)).toEqual([drill, saw].sort());
  });

  it('all() follows the cursor through an ids filter', async () => {
    const ids = [...bySku.values()].map((item) => item._id);
    const items = await collect(org.stockroom.inventory.all({ ids, limit: 1, fields: ['_id'] }));
    expect(items.map((item) => item._id)).toEqual([...ids].sort());
    const sent = org.urls.slice(-ids.length);
    expect(sent.filter((url) => url.searchParams.has('cursor'))).toHaveLength(ids.length - 1);
    for (const url of sent) expect(url.searchParams.get('ids')).toBe(ids.join(','));
  });

  it('refuses 0 or more than 100 ids before sending anything', async () => {
    const before = org.urls.length;
    const many = Array.from({ length: 101 }, (_, i) => i.toString(16).padStart(24, '0'));
    for (const [ids, message] of [
      [[], /1 to 100 item _ids, got 0/],
      [many, /1 to 100 item _ids, got 101.*at most 100/],
    ] as const) {
      const error = await rejection(org.stockroom.inventory.list({ ids }));
      expect(error).toBeInstanceOf(TypeError);
      expect((error as Error).message).toMatch(message);
      expect(await rejection(org.stockroom.inventory.all({ ids }).next())).toBeInstanceOf(
        TypeError,
      );
    }
    expect(org.urls.length).toBe(before);
    // A hundred is allowed.
    const page = await org.stockroom.inventory.list({ ids: many.slice(0, 100) });
    expect(page.data).toEqual([]);
  });

  it('passes the server’s refusals on: search does not combine with an exact filter', async () => {
    const error = await rejection(org.stockroom.inventory.list({ search: 'drill', sku: 'DRL-1' }));
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error).toMatchObject({ code: 'INVALID_PARAMETER', param: 'search' });
  });
});

describe('incremental sync', () => {
  it('list() sends updatedSince (a Date as its ISO instant) and includeDeleted', async () => {
    const org = await organization();
    const since = new Date(Date.now() - 60_000);
    const page = await org.stockroom.inventory.list({ updatedSince: since, includeDeleted: true });
    expect(Object.fromEntries(org.urls[0]?.searchParams ?? [])).toEqual({
      updatedSince: since.toISOString(),
      includeDeleted: 'true',
    });
    expect(page.nextSince).toEqual(expect.any(String));
    expect(page.deleted).toEqual([]);
    // A string goes as it is.
    await org.stockroom.inventory.list({ updatedSince: '2026-01-01' });
    expect(org.urls[1]?.searchParams.get('updatedSince')).toBe('2026-01-01');
  });

  it('sync() walks every page, then continues from nextSince with changes and deletions', async () => {
    const org = await organization();
    await server.createItems(
      org.id,
      Array.from({ length: 5 }, (_, i) => ({ name: `Item ${i}`, sku: `S-${i}`, quantity: i })),
    );

    // The first, full sync: every item, in change order, two to a page.
    const mirror = new Map<string, InventoryItem>();
    const full: Array<SyncPage<InventoryItem>> = [];
    for await (const page of org.stockroom.inventory.sync({ since: new Date(0), limit: 2 })) {
      full.push(page);
      for (const item of page.data) mirror.set(item._id, item);
      for (const { _id } of page.deleted) mirror.delete(_id);
    }
    expect(full.map((page) => page.count)).toEqual([2, 2, 1]);
    expect(full.flatMap((page) => page.data.map((item) => item.sku))).toEqual([
      'S-0',
      'S-1',
      'S-2',
      'S-3',
      'S-4',
    ]);
    expect(full.every((page) => Array.isArray(page.deleted) && page.deleted.length === 0)).toBe(
      true,
    );
    expect(full.at(-1)?.nextCursor).toBeNull();
    const firstUrls = org.urls.splice(0);
    expect(firstUrls[0]?.searchParams.get('updatedSince')).toBe('1970-01-01T00:00:00.000Z');
    expect(firstUrls[0]?.searchParams.has('includeDeleted')).toBe(false);
    // The later pages carry the previous page's cursor and the same updatedSince.
    expect(firstUrls.slice(1).map((url) => url.searchParams.get('cursor'))).toEqual(
      full.slice(0, -1).map((page) => page.nextCursor),
    );
    for (const url of firstUrls) {
      expect(url.searchParams.get('updatedSince')).toBe('1970-01-01T00:00:00.000Z');
    }

    // Changes since: one update, two deletions, one new item.
    const since = full.at(-1)?.nextSince as string;
    const ids = new Map([...mirror.values()].map((item) => [item.sku, item._id]));
    await server.createItems(org.id, [{ sku: 'S-1', quantity: 100 }]);
    await server.store.deleteItem(org.id, { sku: 'S-2' });
    await server.store.deleteItem(org.id, { sku: 'S-3' });
    await server.createItems(org.id, [{ name: 'New', sku: 'S-5' }]);

    const incremental = await collect(
      org.stockroom.inventory.sync({ since, includeDeleted: true, limit: 2 }),
    );
    expect(incremental.length).toBeGreaterThanOrEqual(2);
    for (const page of incremental) {
      for (const item of page.data) mirror.set(item._id, item);
      for (const { _id } of page.deleted) mirror.delete(_id);
    }
    expect(incremental.flatMap((page) => page.data.map((item) => item.sku))).toEqual([
      'S-1',
      'S-5',
    ]);
    expect(incremental.flatMap((page) => page.deleted.map((gone) => gone._id))).toEqual([
      ids.get('S-2'),
      ids.get('S-3'),
    ]);
    for (const page of incremental) {
      for (const gone of page.deleted) expect(Date.parse(gone.deletedAt)).not.toBeNaN();
    }
    for (const url of org.urls.splice(0)) {
      expect(url.searchParams.get('updatedSince')).toBe(since);
      expect(url.searchParams.get('includeDeleted')).toBe('true');
    }
    const skus = [...mirror.values()].map((item) => [item.sku, item.quantity]);
    expect(skus.sort()).toEqual([
      ['S-0', 0],
      ['S-1', 100],
      ['S-4', 4],
      ['S-5', 0],
    ]);
    const current = await collect(org.stockroom.inventory.all());
    expect([...mirror.values()].sort((a, b) => a._id.localeCompare(b._id))).toEqual(current);

    // Caught up: one empty page, with a nextSince to keep.
    const after = await collect(
      org.stockroom.inventory.sync({
        since: incremental.at(-1)?.nextSince as string,
        includeDeleted: true,
      }),
    );
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ data: [], deleted: [], count: 0, nextCursor: null });
    expect(after[0]?.nextSince).toEqual(expect.any(String));
  });

  it('sync() goes on past an empty page that is not the last (a view key over changes it never saw)', async () => {
    const org = await server.createOrganization();
    await server.createItems(org.id, [{ name: 'Held', sku: 'HELD', status: 'Active' }]);
    const { key } = await server.createKey({
      organizationId: org.id,
      rateLimit: null,
      view: parseView({ where: ['status=Active'] }),
    });
    const stockroom = new Stockroom({
      baseUrl: server.apiUrl,
      apiKey: key,
      fetch: (input, init) => server.fetch(input, init),
    });
    const mirror = new Map<string, InventoryItem>();
    let since = '';
    for await (const page of stockroom.inventory.sync({ since: new Date(0) })) {
      for (const item of page.data) mirror.set(item._id, item);
      since = page.nextSince;
    }
    expect([...mirror.values()].map((item) => item.sku)).toEqual(['HELD']);
    // More changes the key never sees than one page of the server examines (10,000), then
    // HELD leaves the view: the first page is empty, and the walk goes on to the second.
    await server.createItems(
      org.id,
      Array.from({ length: 10_050 }, (_, i) => ({
        name: `Never seen ${i}`,
        sku: `NS-${i}`,
        status: 'Draft' as const,
      })),
    );
    await server.createItems(org.id, [{ sku: 'HELD', status: 'Inactive' }]);
    const pages = await collect(stockroom.inventory.sync({ since, includeDeleted: true }));
    expect(pages.map((page) => [page.count, page.deleted.length])).toEqual([
      [0, 0],
      [0, 1],
    ]);
    expect(pages[0]?.nextCursor).not.toBeNull();
    for (const page of pages) for (const { _id } of page.deleted) mirror.delete(_id);
    expect(mirror.size).toBe(0);
  });

  it('sync() narrows items with fields and filters with status', async () => {
    const org = await organization();
    await server.createItems(org.id, [
      { name: 'On sale', sku: 'A-1', status: 'Active' },
      { name: 'Not yet', sku: 'D-1', status: 'Draft' },
    ]);
    const pages = await collect(
      org.stockroom.inventory.sync({
        since: new Date(0),
        status: 'Active',
        fields: ['_id', 'sku'],
      }),
    );
    expect(pages.flatMap((page) => page.data)).toEqual([{ _id: expect.any(String), sku: 'A-1' }]);
    expect(org.urls[0]?.searchParams.get('status')).toBe('Active');
    expect(org.urls[0]?.searchParams.get('fields')).toBe('_id,sku');
  });

  it('throws SyncExpiredError, not retried, for deletions older than the retention period', async () => {
    const org = await organization({ maxRetries: 3 });
    const error = await rejection(
      org.stockroom.inventory
        .sync({ since: new Date('2020-01-01T00:00:00Z'), includeDeleted: true })
        .next(),
    );
    expect(error).toBeInstanceOf(SyncExpiredError);
    expect(error).toMatchObject({
      name: 'SyncExpiredError',
      code: 'SYNC_EXPIRED',
      status: 410,
      param: 'updatedSince',
    });
    expect((error as SyncExpiredError).docUrl).toMatch(/#sync_expired$/);
    expect(org.urls).toHaveLength(1);
  });

  it('recovers from SyncExpiredError by starting over, as the docs’ loop does', async () => {
    const org = await organization();
    await server.createItems(org.id, [
      { name: 'One', sku: 'R-1' },
      { name: 'Two', sku: 'R-2' },
    ]);
    const mirror = new Map<string, InventoryItem>();
    // The documented loop, with a stored point older than the retention period.
    let stored: string | null = '2020-01-01T00:00:00Z';
    let fullSyncs = 0;
    async function syncOnce(since: string | null): Promise<string> {
      let next = since;
      for await (const page of org.stockroom.inventory.sync(
        since === null ? { since: new Date(0) } : { since, includeDeleted: true },
      )) {
        for (const item of page.data) mirror.set(item._id, item);
        for (const { _id } of page.deleted) mirror.delete(_id);
        next = page.nextSince;
      }
      return next as string;
    }
    try {
      stored = await syncOnce(stored);
    } catch (error) {
      if (!(error instanceof SyncExpiredError)) throw error;
      mirror.clear();
      fullSyncs += 1;
      stored = await syncOnce(null);
    }
    expect(fullSyncs).toBe(1);
    expect([...mirror.values()].map((item) => item.sku).sort()).toEqual(['R-1', 'R-2']);
    await server.store.deleteItem(org.id, { sku: 'R-1' });
    stored = await syncOnce(stored);
    expect([...mirror.values()].map((item) => item.sku)).toEqual(['R-2']);
  });

  it('refuses a sync without since, or with an invalid Date, before sending anything', async () => {
    const org = await organization();
    const missing = await rejection(
      org.stockroom.inventory.sync({} as unknown as { since: string }).next(),
    );
    expect(missing).toBeInstanceOf(TypeError);
    expect((missing as Error).message).toMatch(/new Date\(0\)/);
    const invalid = await rejection(
      org.stockroom.inventory.sync({ since: new Date('not a date') }).next(),
    );
    expect(invalid).toBeInstanceOf(TypeError);
    expect((invalid as Error).message).toMatch(/since is an invalid Date/);
    const listed = await rejection(
      org.stockroom.inventory.list({ updatedSince: new Date(Number.NaN) }),
    );
    expect((listed as Error).message).toMatch(/updatedSince is an invalid Date/);
    expect(org.urls).toHaveLength(0);
  });
});

describe('conditional requests', () => {
  it('exposes the etag of a page and resolves a 304 to NOT_MODIFIED', async () => {
    const org = await organization();
    await server.createItems(org.id, [
      { name: 'Tent', sku: 'T-1', quantity: 1 },
      { name: 'Stove', sku: 'T-2', quantity: 1 },
    ]);
    const { data: page, response } = await org.stockroom.inventory
      .list({ limit: 10 })
      .withResponse();
    expect(page.count).toBe(2);
    expect(response.etag).toMatch(/^"[^"]+"$/);
    expect(response.notModified).toBe(false);

    const unchanged = await org.stockroom.inventory
      .list({ limit: 10 }, { ifNoneMatch: response.etag ?? undefined })
      .withResponse();
    expect(unchanged.data).toBe(NOT_MODIFIED);
    expect(unchanged.response).toMatchObject({ status: 304, notModified: true });
    expect(unchanged.response.etag).toBe(response.etag);
    expect(org.urls.at(-1)?.search).toBe('?limit=10');

    // A weak form of the tag matches too (the comparison is weak).
    expect(
      await org.stockroom.inventory.list({ limit: 10 }, { ifNoneMatch: `W/${response.etag}` }),
    ).toBe(NOT_MODIFIED);

    await server.createItems(org.id, [{ sku: 'T-1', quantity: 2 }]);
    const changed = await org.stockroom.inventory
      .list({ limit: 10 }, { ifNoneMatch: response.etag ?? undefined })
      .withResponse();
    expect(changed.data).not.toBe(NOT_MODIFIED);
    expect(changed.response.notModified).toBe(false);
    expect(changed.response.etag).not.toBe(response.etag);
    if (changed.data === NOT_MODIFIED) throw new Error('unreachable');
    expect(changed.data.data.find((item) => item.sku === 'T-1')?.quantity).toBe(2);
  });

  it('does the same for one item, narrowed or whole', async () => {
    const org = await organization();
    await server.createItems(org.id, [{ name: 'Lamp', sku: 'L-1', quantity: 3 }]);
    const [lamp] = await collect(org.stockroom.inventory.all({ fields: ['_id'] }));
    const id = lamp?._id as string;
    const first = await org.stockroom.inventory.get(id, { fields: ['quantity'] }).withResponse();
    expect(first.data).toEqual({ quantity: 3 });
    expect(first.response.etag).toMatch(/^"[^"]+"$/);
    const again = await org.stockroom.inventory.get(
      id,
      { fields: ['quantity'] },
      { ifNoneMatch: first.response.etag ?? undefined },
    );
    expect(again).toBe(NOT_MODIFIED);
    // Another representation (the whole item) has another tag.
    const whole = await org.stockroom.inventory.get(
      id,
      {},
      { ifNoneMatch: first.response.etag ?? undefined },
    );
    expect(whole).toMatchObject({ _id: id, quantity: 3 });
  });

  it('sends an ordinary request when ifNoneMatch is undefined, and refuses a malformed one', async () => {
    const org = await organization();
    const page = await org.stockroom.inventory.list({}, { ifNoneMatch: undefined });
    expect(page).toMatchObject({ data: [], count: 0 });
    for (const tag of ['', '  ', '"a"\n"b"', 'ünïcode']) {
      const error = await rejection(org.stockroom.inventory.list({}, { ifNoneMatch: tag }));
      expect(error, JSON.stringify(tag)).toBeInstanceOf(TypeError);
      expect((error as Error).message).toMatch(/ifNoneMatch must be an etag/);
    }
    expect(org.urls).toHaveLength(1);
  });
});

describe('locations and stock (issue 31)', () => {
  it('lists locations and filters items by location, with stock on each item', async () => {
    const { id, stockroom, urls } = await organization();
    await server.store.createLocation(id, { code: 'WH-1', name: 'Warehouse' });
    await server.store.createLocation(id, { code: 'SHOP', name: 'Shop' });
    await server.createItems(id, [
      {
        name: 'Tent',
        sku: 'T-1',
        stock: '[{"location":"SHOP","quantity":2},{"location":"WH-1","quantity":3}]',
      },
      { name: 'Mug', sku: 'M-1', quantity: 4 },
    ]);
    const locations = await stockroom.locations.list();
    expect(locations.data.map((l) => l.code)).toEqual(['SHOP', 'WH-1']);
    expect(locations.count).toBe(2);
    const page = await stockroom.inventory.list({
      location: 'SHOP',
      fields: ['sku', 'quantity', 'stock'],
    });
    expect(page.data).toEqual([
      {
        sku: 'T-1',
        quantity: 5,
        stock: [
          { location: 'SHOP', quantity: 2 },
          { location: 'WH-1', quantity: 3 },
        ],
      },
    ]);
    expect(urls.at(-1)?.searchParams.get('location')).toBe('SHOP');
    const synced = await collect(
      stockroom.inventory.sync({ since: new Date(0), location: 'WH-1' }),
    );
    expect(synced.flatMap((p) => p.data.map((item) => item.sku))).toEqual(['T-1']);
    const unknown = await rejection(stockroom.inventory.list({ location: 'nope' }));
    expect(unknown).toMatchObject({ status: 400, code: 'INVALID_PARAMETER' });
  });
});
