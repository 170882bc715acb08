import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseView } from '../../domain/view.js';
import { startTestServer, type TestServer } from '../../testing/harness.js';
import { expectApiError } from '../../testing/security-suite.js';
import { encodeSince, parseSince } from '../sync.js';
import { installationSigner, newSyncSecret, SIGNATURE_CHARS, syncSigner } from '../sync-signing.js';

const ITEMS = '/api/v1/inventory/items';

interface SyncPage {
  data: Array<{ _id: string; sku: string; quantity: number; status: string }>;
  count: number;
  nextCursor: string | null;
  nextSince: string;
  deleted?: Array<{ _id: string; deletedAt: string }>;
}

describe('incremental sync: updatedSince, nextSince, includeDeleted', () => {
  let server: TestServer;
  let key: string;
  let orgId: string;

  beforeAll(async () => {
    server = await startTestServer();
    const org = await server.createOrganization();
    orgId = org.id;
    key = (await server.createKey({ organizationId: orgId, rateLimit: null })).key;
  });
  afterAll(() => server.close());

  const get = (query: string) => server.request(`${ITEMS}${query}`, { key });
  const sync = async (query: string): Promise<SyncPage> => {
    const response = await get(query);
    expect(response.status, response.text).toBe(200);
    return response.body as SyncPage;
  };
  /** Follows nextCursor to the end, as a client does; returns every page. */
  const syncAll = async (query: string): Promise<SyncPage[]> => {
    const pages = [await sync(query)];
    for (let page = pages[0]; page?.nextCursor; ) {
      page = await sync(`${query}&cursor=${page.nextCursor}`);
      pages.push(page);
    }
    return pages;
  };

  it('lists changes in change order and continues from nextSince with only what changed', async () => {
    const since = new Date(Date.now() - 1000).toISOString();
    await server.createItems(orgId, [
      { name: 'Alpha', sku: 'S-A', quantity: 1 },
      { name: 'Beta', sku: 'S-B', quantity: 1 },
      { name: 'Gamma', sku: 'S-C', quantity: 1 },
    ]);
    const first = await sync(`?updatedSince=${since}`);
    expect(first.data.map((item) => item.sku)).toEqual(['S-A', 'S-B', 'S-C']);
    expect(first.count).toBe(3);
    expect(first.nextCursor).toBeNull();
    expect(first.nextSince).toMatch(/^s[A-Za-z0-9_-]+$/);
    expect(first).not.toHaveProperty('deleted');

    // An update moves the item to the end of the change order; an unchanged write does not.
    await server.createItems(orgId, [
      { sku: 'S-A', quantity: 2 },
      { sku: 'S-B', quantity: 1 },
    ]);
    const second = await sync(`?updatedSince=${first.nextSince}`);
    expect(second.data.map((item) => [item.sku, item.quantity])).toEqual([['S-A', 2]]);

    const third = await sync(`?updatedSince=${second.nextSince}`);
    expect(third.data).toEqual([]);
    expect(third.nextCursor).toBeNull();
  });

  it('builds a large page in chunks without losing or splitting an item', async () => {
    const start = (await sync('?updatedSince=2026-01-01&limit=1000')).nextSince;
    await server.createItems(
      orgId,
      Array.from({ length: 250 }, (_, i) => ({ name: `Chunk ${i}`, sku: `CH-${i}` })),
    );
    // Page sizes at, between and past the chunk boundaries (100 items per chunk).
    for (const limit of [100, 200, 250]) {
      const page = await sync(`?updatedSince=${start}&limit=${limit}&includeDeleted=true`);
      expect(page.count).toBe(limit);
      expect(page.data.map((item) => item.sku)).toEqual(
        Array.from({ length: limit }, (_, i) => `CH-${i}`),
      );
      expect(page.deleted).toEqual([]);
    }
  });

  it('pages a long sync with nextCursor, every change exactly once, within `limit`', async () => {
    const start = (await sync('?updatedSince=2026-01-01&limit=1000')).nextSince;
    await server.createItems(
      orgId,
      Array.from({ length: 7 }, (_, i) => ({ name: `Paged ${i}`, sku: `P-${i}` })),
    );
    const pages = await syncAll(`?updatedSince=${start}&limit=3`);
    expect(pages.map((page) => page.count)).toEqual([3, 3, 1]);
    expect(pages.flatMap((page) => page.data.map((item) => item.sku))).toEqual(
      Array.from({ length: 7 }, (_, i) => `P-${i}`),
    );
    // The last page's nextSince covers everything; the next sync starts empty.
    const after = await sync(`?updatedSince=${pages.at(-1)?.nextSince}`);
    expect(after.data).toEqual([]);
    // A full page's token is dated by its last change (deletions after it may be that old, so
    // the retention check must count from there); the last page's by the time of the request.
    const full = parseSince(pages[0]?.nextSince as string);
    expect(full?.at).toBe(Math.floor((full?.afterSeq ?? 0) / 1000));
    const requestedAt = Date.now();
    const last = parseSince((await sync(`?updatedSince=${start}&limit=1000`)).nextSince);
    expect(last?.at).toBeGreaterThanOrEqual(requestedAt);
    // A full page's nextSince, used as updatedSince, also continues right after it.
    const fromMiddle = await sync(`?updatedSince=${pages[0]?.nextSince}&limit=1000`);
    expect(fromMiddle.data.map((item) => item.sku)).toEqual(['P-3', 'P-4', 'P-5', 'P-6']);
  });

  it('lists deletions as tombstones with includeDeleted=true, and only then', async () => {
    const start = (await sync('?updatedSince=2026-01-01&limit=1000')).nextSince;
    await server.createItems(orgId, [{ name: 'Doomed', sku: 'DOOMED' }]);
    const created = await sync(`?updatedSince=${start}`);
    const doomedId = created.data.find((item) => item.sku === 'DOOMED')?._id;
    expect(doomedId).toBeDefined();
    expect(await server.store.deleteItem(orgId, { sku: 'DOOMED' })).toBe(true);

    const withDeleted = await sync(`?updatedSince=${start}&includeDeleted=true`);
    // The item is gone: only its tombstone says so.
    expect(withDeleted.data.map((item) => item.sku)).not.toContain('DOOMED');
    expect(withDeleted.deleted).toHaveLength(1);
    expect(withDeleted.deleted?.[0]?._id).toBe(doomedId);
    expect(withDeleted.deleted?.[0]?.deletedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(withDeleted.count).toBe(withDeleted.data.length);

    const without = await sync(`?updatedSince=${start}`);
    expect(without).not.toHaveProperty('deleted');
    const later = await sync(`?updatedSince=${withDeleted.nextSince}&includeDeleted=true`);
    expect(later.deleted).toEqual([]);
  });

  it('narrows a sync by status and fields', async () => {
    const start = (await sync('?updatedSince=2026-01-01&limit=1000')).nextSince;
    await server.createItems(orgId, [
      { name: 'Active one', sku: 'ST-1', status: 'Active' },
      { name: 'Draft one', sku: 'ST-2', status: 'Draft' },
    ]);
    const page = await sync(`?updatedSince=${start}&status=Active&fields=_id,sku`);
    expect(page.data).toEqual([{ _id: expect.any(String), sku: 'ST-1' }]);
    // The Draft change was skipped by the filter, not left for later.
    const after = await sync(`?updatedSince=${page.nextSince}`);
    expect(after.data).toEqual([]);
  });

  it('reads instants with a zone offset, also when the query string turned "+" into a space', async () => {
    const hourAgo = Date.now() - 3_600_000;
    const local = new Date(hourAgo + 3_600_000).toISOString().slice(0, 19);
    const encoded = await get(`?updatedSince=${local}%2B01:00`);
    const spaced = await get(`?updatedSince=${local}+01:00`);
    expect(encoded.status).toBe(200);
    expect(spaced.status).toBe(200);
    expect(spaced.body.data).toEqual(encoded.body.data);
  });

  it('keeps organizations apart: another organization’s changes never appear', async () => {
    const other = await server.createOrganization();
    await server.createItems(other.id, [{ name: 'Secret', sku: 'SECRET' }]);
    await server.store.deleteItem(other.id, { sku: 'SECRET' });
    const page = await sync('?updatedSince=2026-01-01&includeDeleted=false&limit=1000');
    expect(page.data.map((item) => item.sku)).not.toContain('SECRET');
    const ownDeleted = await sync(
      `?updatedSince=${new Date(Date.now() - 60_000).toISOString()}&includeDeleted=true`,
    );
    const otherIds = (await server.store.listItems(other.id, { limit: 10 })).map((i) => i.id);
    expect(ownDeleted.deleted?.some((t) => otherIds.includes(t._id))).toBe(false);
    expect(ownDeleted.data.every((item) => item.sku !== 'SECRET')).toBe(true);
  });

  it('answers 410 SYNC_EXPIRED for deletions older than the retention period', async () => {
    const response = await get('?updatedSince=2020-01-01T00:00:00Z&includeDeleted=true');
    expectApiError(response, 410, 'SYNC_EXPIRED');
    expect(response.body.error.param).toBe('updatedSince');
    expect(response.body.error.message).toMatch(/30 days/);
    expect(response.body.error.message).toMatch(/full resync/i);
    // Without deletions nothing can be missing: an old instant is a full read in change order.
    expect((await get('?updatedSince=2020-01-01T00:00:00Z')).status).toBe(200);
  });

  it('refuses what a sync cannot mean, naming the parameter', async () => {
    const cases: Array<[string, string, RegExp]> = [
      ['?updatedSince=2026-02-30', 'updatedSince', /ISO 8601/],
      ['?updatedSince=2026-11-24T08:00:00', 'updatedSince', /time zone/],
      ['?updatedSince=yesterday', 'updatedSince', /ISO 8601/],
      ['?updatedSince=sAAAA', 'updatedSince', /nextSince/],
      [`?updatedSince=${new Date(Date.now() + 3_600_000).toISOString()}`, 'updatedSince', /future/],
      ['?updatedSince=2026-01-01&search=abc', 'updatedSince', /search/],
      ['?updatedSince=2026-01-01&sku=S-A', 'updatedSince', /sku/],
      ['?includeDeleted=true', 'includeDeleted', /needs updatedSince/],
      ['?updatedSince=2026-01-01&includeDeleted=yes', 'includeDeleted', /true or false/],
    ];
    for (const [query, param, message] of cases) {
      const response = await get(query);
      expectApiError(response, 400, 'INVALID_PARAMETER');
      expect(response.body.error.param, query).toBe(param);
      expect(response.body.error.message, query).toMatch(message);
    }
  });

  it('binds cursors to their kind of walk', async () => {
    await server.createItems(
      orgId,
      Array.from({ length: 3 }, (_, i) => ({ name: `Bound ${i}`, sku: `B-${i}` })),
    );
    const keyset = await get('?limit=1');
    const syncPage = await sync('?updatedSince=2026-01-01&limit=1');
    expect(syncPage.nextCursor).not.toBeNull();
    const keysetInSync = await get(
      `?updatedSince=2026-01-01&limit=1&cursor=${keyset.body.nextCursor}`,
    );
    expectApiError(keysetInSync, 400, 'INVALID_PARAMETER');
    expect(keysetInSync.body.error.param).toBe('cursor');
    const syncInKeyset = await get(`?limit=1&cursor=${syncPage.nextCursor}`);
    expectApiError(syncInKeyset, 400, 'INVALID_PARAMETER');
    const otherFilter = await get(
      `?updatedSince=2026-01-01&limit=1&includeDeleted=true&cursor=${syncPage.nextCursor}`,
    );
    expectApiError(otherFilter, 400, 'INVALID_PARAMETER');
  });

  it('refuses a token edited or signed elsewhere with 400, and never skips SYNC_EXPIRED', async () => {
    const old = (await sync('?updatedSince=2026-01-01&limit=1000&includeDeleted=false')).nextSince;
    const signature = old.slice(-SIGNATURE_CHARS);
    const payload = JSON.parse(
      Buffer.from(old.slice(1, -SIGNATURE_CHARS), 'base64url').toString('utf8'),
    ) as { v: number; s: number; t: number; w: number };
    const reencode = (edited: object) =>
      `s${Buffer.from(JSON.stringify(edited)).toString('base64url')}${signature}`;
    // The installation's own token, dated before the retention period: expired.
    const signer = await installationSigner(server.store);
    const expired = encodeSince(signer, payload.s, Date.now() - 31 * 86_400_000, payload.w);
    expectApiError(await get(`?updatedSince=${expired}&includeDeleted=true`), 410, 'SYNC_EXPIRED');
    const refused = [
      // Its date moved into the retention period, to read deletions that may be gone.
      reencode({ ...payload, t: Date.now() }),
      // Its position moved back.
      reencode({ ...payload, s: 0 }),
      // A token of another installation (another key), well-formed.
      encodeSince(syncSigner(newSyncSecret()), payload.s, payload.t, payload.w),
    ];
    for (const token of refused) {
      for (const query of [
        `?updatedSince=${token}&includeDeleted=true`,
        `?updatedSince=${token}`,
      ]) {
        const response = await get(query);
        expectApiError(response, 400, 'INVALID_PARAMETER');
        expect(response.body.error.param, query).toBe('updatedSince');
        expect(response.body.error.message, query).toMatch(
          /not a nextSince this Stockroom installation issued/,
        );
        expect(response.body.error.message, query).toMatch(/Start a fresh sync/);
      }
    }
    // The real one still works.
    expect((await get(`?updatedSince=${old}&includeDeleted=true`)).status).toBe(200);
  });

  it('answers a token of the release before signing as expired, the answer clients handle', async () => {
    const current = (await sync('?updatedSince=2026-01-01&limit=1000')).nextSince;
    const { s, t } = JSON.parse(
      Buffer.from(current.slice(1, -SIGNATURE_CHARS), 'base64url').toString('utf8'),
    ) as { s: number; t: number };
    // What that release issued, even for a recent position: nothing in it can be vouched for.
    const legacy = `s${Buffer.from(JSON.stringify({ v: 1, s, t, w: 0 })).toString('base64url')}`;
    const withDeletions = await get(`?updatedSince=${legacy}&includeDeleted=true`);
    expectApiError(withDeletions, 410, 'SYNC_EXPIRED');
    expect(withDeletions.body.error.param).toBe('updatedSince');
    expect(withDeletions.body.error.message).toMatch(/before sync tokens were signed/);
    expect(withDeletions.body.error.message).toMatch(/full resync/);
    // Without deletions it is a position like any instant: the sync goes on, with a signed token.
    const page = await sync(`?updatedSince=${legacy}`);
    expect(page.nextSince).toMatch(/^s/);
    expect((await get(`?updatedSince=${page.nextSince}&includeDeleted=true`)).status).toBe(200);
  });

  it('from the middle of a walk, a view key is still told of an item it held that left', async () => {
    const other = await server.createOrganization();
    await server.createItems(other.id, [
      { name: 'Held', sku: 'HELD', status: 'Active' },
      { name: 'Filler one', sku: 'F-1', status: 'Active' },
      { name: 'Filler two', sku: 'F-2', status: 'Active' },
    ]);
    const viewKey = (
      await server.createKey({
        organizationId: other.id,
        rateLimit: null,
        view: parseView({ where: ['status=Active'] }),
      })
    ).key;
    const read = async (query: string) => {
      const response = await server.request(`${ITEMS}${query}`, { key: viewKey });
      expect(response.status, response.text).toBe(200);
      return response.body as SyncPage;
    };
    // The copy holds HELD (Active) at this point.
    const point = (await read('?updatedSince=2026-01-01&limit=1000')).nextSince;
    expect((await read(`?updatedSince=${point}&includeDeleted=true`)).data).toEqual([]);
    // HELD leaves the view, F-1 changes, HELD changes again outside it, F-2 changes.
    await server.createItems(other.id, [{ sku: 'HELD', status: 'Draft' }]);
    await server.createItems(other.id, [{ sku: 'F-1', quantity: 1 }]);
    await server.createItems(other.id, [{ sku: 'HELD', status: 'Inactive' }]);
    await server.createItems(other.id, [{ sku: 'F-2', quantity: 1 }]);
    const held = (await server.store.listItems(other.id, { limit: 1, sku: 'HELD' }))[0]?.id;
    // A walk of one page, stopped: its nextSince resumes after F-1's change.
    const first = await read(`?updatedSince=${point}&includeDeleted=true&limit=1`);
    expect(first.data.map((item) => item.sku)).toEqual(['F-1']);
    expect(first.nextCursor).not.toBeNull();
    // HELD was in the copy: the rest of the walk names it, though it was out of the view
    // (Draft) at the position the resumed sync starts from.
    const rest = await read(`?updatedSince=${first.nextSince}&includeDeleted=true`);
    expect(rest.data.map((item) => item.sku)).toEqual(['F-2']);
    expect(rest.deleted?.map((entry) => entry._id)).toEqual([held]);
    // Once a walk reaches its end the copy is exact: nothing more is named.
    expect((await read(`?updatedSince=${rest.nextSince}&includeDeleted=true`)).deleted).toEqual([]);
  });

  it('a view key passes over more changes it never saw than a page examines, in short pages that are not the end', async () => {
    const other = await server.createOrganization();
    await server.createItems(other.id, [{ name: 'Held', sku: 'HELD', status: 'Active' }]);
    const viewKey = (
      await server.createKey({
        organizationId: other.id,
        rateLimit: null,
        view: parseView({ where: ['status=Active'] }),
      })
    ).key;
    const read = async (query: string) => {
      const response = await server.request(`${ITEMS}${query}`, { key: viewKey });
      expect(response.status, response.text).toBe(200);
      return response.body as SyncPage;
    };
    // The copy holds HELD (Active) at this point.
    const point = (await read('?updatedSince=2026-01-01&limit=1000')).nextSince;
    // HELD leaves the view, then more changes the key never sees than one page examines
    // (10,000), then HELD changes again outside the view.
    await server.createItems(other.id, [{ sku: 'HELD', status: 'Draft' }]);
    await server.createItems(
      other.id,
      Array.from({ length: 10_050 }, (_, i) => ({
        name: `Never seen ${i}`,
        sku: `NS-${i}`,
        status: 'Draft' as const,
      })),
    );
    await server.createItems(other.id, [{ sku: 'HELD', status: 'Inactive' }]);
    const held = (await server.store.listItems(other.id, { limit: 1, sku: 'HELD' }))[0]?.id;
    const query = `?updatedSince=${point}&includeDeleted=true&limit=10`;
    // The first page examines its 10,000 changes, finds nothing the key may be told of, and
    // says so: empty, yet with a nextCursor (not the end).
    const first = await read(query);
    expect(first).toMatchObject({ data: [], count: 0, deleted: [] });
    expect(first.nextCursor).not.toBeNull();
    const second = await read(`${query}&cursor=${first.nextCursor}`);
    expect(second.deleted?.map((entry) => entry._id)).toEqual([held]);
    expect(second.nextCursor).toBeNull();
    // Resumed from the short page's nextSince, where HELD was already out of the view, the
    // sync still names it: the token keeps where the walk began.
    const resumed = await read(`?updatedSince=${first.nextSince}&includeDeleted=true&limit=10`);
    expect(resumed.deleted?.map((entry) => entry._id)).toEqual([held]);
    expect(resumed.nextCursor).toBeNull();
  });
});
