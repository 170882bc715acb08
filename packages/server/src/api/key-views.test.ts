import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseView } from '../domain/view.js';
import { cliActor } from '../operations/audit.js';
import { updateKeyView } from '../operations/keys.js';
import { createLocation } from '../operations/locations.js';
import { stockText } from '../store/items/stock.js';
import type { ItemStatus, KeyView, Organization } from '../store/types.js';
import { engineAvailability } from '../testing/engines.js';
import { startTestServer, type TestServer } from '../testing/harness.js';
import { expectApiError } from '../testing/security-suite.js';

/**
 * Key views through the API (issue 32), on both engines: rows outside a key's view do not
 * exist for it (lists, lookups, detail, sync, MCP), hidden fields are absent and refused,
 * quantities are capped, ETags follow the bodies, and a sync converges on the view when items
 * or the view itself change.
 */
const LEGS = await engineAvailability('key views through the API');
const ITEMS = '/api/v1/inventory/items';

const ITEMS_ROWS = [
  { sku: 'TENT', name: 'Tent', status: 'Active', barcode: '111', stock: { WH: 25, SHOP: 3 } },
  { sku: 'STOVE', name: 'Stove', status: 'Draft', barcode: '222', stock: { WH: 2 } },
  { sku: 'LAMP', name: 'Lamp', status: 'Active', barcode: '333', stock: { SHOP: 40 } },
  { sku: 'MUG', name: 'Mug', status: 'Inactive', barcode: '444', stock: {} },
  { sku: 'ROPE', name: 'Rope', status: 'Active', barcode: '555', stock: { WH: 1 } },
] as const;

for (const { engine, skip } of LEGS) {
  describe.skipIf(skip !== null)(`key views on ${engine.name}`, () => {
    let t: TestServer;
    let org: Organization;
    let full: string;
    const ids = new Map<string, string>();

    /** A key of the organization with a view, and a way to change it. */
    async function keyWith(view: Parameters<typeof parseView>[0]) {
      const created = await t.createKey({
        organizationId: org.id,
        rateLimit: null,
        view: parseView(view),
      });
      return {
        key: created.key,
        update: (next: KeyView | null) =>
          updateKeyView(t.store, cliActor(), org, created.record, next).then((record) => {
            created.record = record;
          }),
      };
    }

    const get = async (key: string, query: string) => {
      const answer = await t.request(`${ITEMS}${query}`, { key });
      expect(answer.status, answer.text).toBe(200);
      return answer.body;
    };
    const skus = (body: { data: Array<{ sku: string }> }) => body.data.map((item) => item.sku);

    /** Every page of a list, following nextCursor. */
    async function walk(key: string, query: string) {
      const seen: Array<string | undefined> = [];
      let cursor: string | null = null;
      do {
        const page = await get(key, `${query}${cursor === null ? '' : `&cursor=${cursor}`}`);
        seen.push(...skus(page));
        cursor = page.nextCursor;
      } while (cursor !== null);
      return seen;
    }

    beforeAll(async () => {
      // The key cache is off: a view change is seen by the next request (the cache's own bound,
      // under a second, is the verifier's test).
      t = await startTestServer({ engine: engine.name as 'sqlite' | 'postgres', keyCacheTtlMs: 0 });
      org = await t.createOrganization();
      await createLocation(t.store, cliActor(), org, { code: 'WH', name: 'Warehouse' });
      await createLocation(t.store, cliActor(), org, { code: 'SHOP', name: 'Shop' });
      await t.createItems(
        org.id,
        ITEMS_ROWS.map(({ stock, ...item }) => ({
          ...item,
          stock: stockText(stock),
          customFields: JSON.stringify({ cost: 12.5, supplier: 'Acme', channel: 'web' }),
        })),
      );
      full = (await t.createKey({ organizationId: org.id, rateLimit: null })).key;
      for (const item of (await get(full, '?fields=_id,sku')).data) ids.set(item.sku, item._id);
    });
    afterAll(() => t?.close());

    it('a marketplace feed sees only Active items: lists, pages, lookups, detail, MCP', async () => {
      const { key } = await keyWith({ where: ['status=Active'] });
      expect(skus(await get(key, '?fields=sku'))).toEqual(['TENT', 'LAMP', 'ROPE']);
      // Pages of one stay full and cursors exact: the view is part of the query.
      expect(await walk(key, '?fields=sku&limit=1')).toEqual(['TENT', 'LAMP', 'ROPE']);
      expect(skus(await get(key, '?sku=STOVE'))).toEqual([]);
      expect(skus(await get(key, '?status=Draft'))).toEqual([]);
      expect(skus(await get(key, `?ids=${ids.get('STOVE')},${ids.get('LAMP')}`))).toEqual(['LAMP']);
      expect(skus(await get(key, '?search=o'))).toEqual(['ROPE']);
      expect(skus(await get(key, '?location=WH'))).toEqual(['TENT', 'ROPE']);
      const hidden = await t.request(`/api/v1/inventory/item?itemId=${ids.get('STOVE')}`, { key });
      expectApiError(hidden, 404, 'ITEM_NOT_FOUND');
      const shown = await t.request(`/api/v1/inventory/item?itemId=${ids.get('TENT')}`, { key });
      expect(shown.body.data.sku).toBe('TENT');

      const mcp = (name: string, args: Record<string, unknown>) =>
        t.request('/mcp', {
          key,
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'tools/call',
            params: { name, arguments: args },
          }),
        });
      const listed = await mcp('search_items', { fields: 'sku' });
      expect(listed.body.result.structuredContent.data).toEqual([
        { sku: 'TENT' },
        { sku: 'LAMP' },
        { sku: 'ROPE' },
      ]);
      const denied = await mcp('get_item', { itemId: ids.get('STOVE') });
      expect(denied.body.result.isError).toBe(true);
      expect(denied.body.result.content[0].text).toContain('ITEM_NOT_FOUND');
    });

    it('a partner does not see cost, supplier or barcode: absent, unsearchable, refused', async () => {
      const { key } = await keyWith({
        hideFields: ['customFields.cost', 'customFields.supplier', 'barcode'],
      });
      const page = await get(key, '?limit=1');
      expect(Object.keys(page.data[0])).toEqual([
        '_id',
        'organizationId',
        'name',
        'description',
        'sku',
        'status',
        'quantity',
        'stock',
        'customFields',
        'createdAt',
        'updatedAt',
      ]);
      expect(page.data[0].customFields).toEqual({ channel: 'web' });
      const detail = await t.request(`/api/v1/inventory/item?itemId=${ids.get('TENT')}`, { key });
      expect(detail.body.data).not.toHaveProperty('barcode');
      expect(detail.body.data.customFields).toEqual({ channel: 'web' });
      // The full key finds the item by its barcode; the partner's search does not look there.
      expect(skus(await get(full, '?search=333'))).toEqual(['LAMP']);
      expect(skus(await get(key, '?search=333'))).toEqual([]);
      for (const [query, param] of [
        ['?fields=sku,barcode', 'fields'],
        [`?barcode=333`, 'barcode'],
      ] as const) {
        const refused = await t.request(`${ITEMS}${query}`, { key });
        expectApiError(refused, 400, 'INVALID_PARAMETER');
        expect(refused.body.error.param).toBe(param);
        expect(refused.body.error.message).toContain('not available to this key');
      }
      const refusedDetail = await t.request(
        `/api/v1/inventory/item?itemId=${ids.get('TENT')}&fields=barcode`,
        { key },
      );
      expectApiError(refusedDetail, 400, 'INVALID_PARAMETER');
      const verify = await t.request('/api/v1/auth/verify', { key });
      expect(verify.body.key.view).toEqual({
        where: [],
        hideFields: ['barcode', 'customFields.cost', 'customFields.supplier'],
        quantityCap: null,
      });
      expect((await t.request('/api/v1/auth/verify', { key: full })).body.key.view).toBeNull();
    });

    it('a storefront sees quantities capped at 10; ETags follow what each key sees', async () => {
      const { key } = await keyWith({ quantityCap: 10 });
      const item = `/api/v1/inventory/item?itemId=${ids.get('TENT')}&fields=quantity,stock`;
      const capped = await t.request(item, { key });
      expect(capped.body.data).toEqual({
        quantity: 10,
        stock: [
          { location: 'SHOP', quantity: 3 },
          { location: 'WH', quantity: 10 },
        ],
      });
      const whole = await t.request(item, { key: full });
      expect(whole.body.data.quantity).toBe(28);
      expect(capped.headers.get('etag')).not.toBe(whole.headers.get('etag'));
      // Where both keys see the same body, they share its ETag.
      const small = `/api/v1/inventory/item?itemId=${ids.get('ROPE')}`;
      const [a, b] = await Promise.all([
        t.request(small, { key }),
        t.request(small, { key: full }),
      ]);
      expect(a.text).toBe(b.text);
      expect(a.headers.get('etag')).toBe(b.headers.get('etag'));
      const list = await get(key, '?fields=sku,quantity');
      expect(list.data.map((row: { quantity: number }) => row.quantity)).toEqual([10, 2, 10, 0, 1]);
    });

    it('a view on stock refuses location= when stock is hidden, and a view change applies at once', async () => {
      const { key, update } = await keyWith({ hideFields: ['stock'] });
      expectApiError(await t.request(`${ITEMS}?location=WH`, { key }), 400, 'INVALID_PARAMETER');
      await update(parseView({ where: ['location=SHOP'] }));
      expect(skus(await get(key, '?fields=sku'))).toEqual(['TENT', 'LAMP']);
      await update(null);
      expect(skus(await get(key, '?fields=sku'))).toHaveLength(ITEMS_ROWS.length);
      expect((await t.request('/api/v1/auth/verify', { key })).body.key.view).toBeNull();
    });

    it('sync: items leaving the view are deleted for the key, entering ones are changes; a view change starts the sync over', async () => {
      const other = await t.createOrganization();
      const before = new Date(Date.now() - 60_000).toISOString();
      await t.createItems(other.id, [
        { sku: 'A', name: 'A', status: 'Active' },
        { sku: 'B', name: 'B', status: 'Draft' },
        { sku: 'C', name: 'C', status: 'Active' },
        { sku: 'D', name: 'D', status: 'Inactive' },
      ]);
      const created = await t.createKey({
        organizationId: other.id,
        rateLimit: null,
        view: parseView({ where: ['status=Active'] }),
      });
      const key = created.key;
      const allIds = new Map<string, string>();
      const fullKey = (await t.createKey({ organizationId: other.id, rateLimit: null })).key;
      for (const item of (await get(fullKey, '?fields=_id,sku')).data)
        allIds.set(item.sku, item._id);
      const skuOf = (id: string) => [...allIds].find(([, value]) => value === id)?.[0];

      /** One whole sync from `since`, following cursors: what the key must apply to its copy. */
      async function sync(since: string, limit = 100) {
        const changed: string[] = [];
        const deleted: Array<string | undefined> = [];
        let query = `?updatedSince=${since}&includeDeleted=true&fields=sku&limit=${limit}`;
        for (;;) {
          const page = await get(key, query);
          changed.push(...skus(page));
          deleted.push(...page.deleted.map((entry: { _id: string }) => skuOf(entry._id)));
          if (page.nextCursor === null) return { changed, deleted, next: page.nextSince as string };
          query = `?updatedSince=${since}&includeDeleted=true&fields=sku&limit=${limit}&cursor=${page.nextCursor}`;
        }
      }

      const first = await sync(before);
      expect(first.changed).toEqual(['A', 'C']);
      // B and D changed (were created) outside the view: listed as deletions, harmless to a copy.
      expect(first.deleted.sort()).toEqual(['B', 'D']);

      await t.createItems(other.id, [
        { sku: 'A', status: 'Draft' },
        { sku: 'B', status: 'Active' },
      ]);
      const second = await sync(first.next);
      expect(second).toMatchObject({ changed: ['B'], deleted: ['A'] });
      const quiet = await sync(second.next);
      expect(quiet).toMatchObject({ changed: [], deleted: [] });

      // The operator widens the view: the next sync starts over and converges on it.
      await updateKeyView(
        t.store,
        cliActor(),
        other,
        created.record,
        parseView({ where: ['status=Active,Draft'] }),
      );
      const over = await sync(quiet.next, 1);
      expect(over.changed.sort()).toEqual(['A', 'B', 'C']);
      expect(over.deleted).toEqual(['D']);
      // Its nextSince does not start over again, nor does one from the middle of that walk.
      expect(await sync(over.next)).toMatchObject({ changed: [], deleted: [] });
      const page = await get(
        key,
        `?updatedSince=${quiet.next}&includeDeleted=true&fields=sku&limit=1`,
      );
      expect(page.nextCursor).not.toBeNull();
      const rest = await sync(page.nextSince);
      expect(rest.changed.length + rest.deleted.length).toBe(3);
    });

    it('a view hiding updatedAt leaks it through no header or sync: Last-Modified absent, updatedSince refused', async () => {
      const { key } = await keyWith({ hideFields: ['updatedAt', 'createdAt'] });
      const path = `/api/v1/inventory/item?itemId=${ids.get('TENT')}`;
      const whole = await t.request(path, { key: full });
      expect(whole.headers.get('last-modified')).not.toBeNull();
      const hidden = await t.request(path, { key });
      expect(hidden.status).toBe(200);
      expect(hidden.body.data).not.toHaveProperty('updatedAt');
      expect(hidden.body.data).not.toHaveProperty('createdAt');
      expect(hidden.headers.get('last-modified')).toBeNull();
      // Dates cannot be probed with If-Modified-Since either; the ETag still serves a cache.
      const since = await t.request(path, {
        key,
        headers: { 'if-modified-since': new Date(Date.now() + 60_000).toUTCString() },
      });
      expect(since.status).toBe(200);
      const etag = hidden.headers.get('etag') as string;
      expect((await t.request(path, { key, headers: { 'if-none-match': etag } })).status).toBe(304);
      const token = (await get(full, '?updatedSince=2020-01-01&limit=1')).nextSince as string;
      for (const query of [
        '?updatedSince=2020-01-01',
        '?updatedSince=2020-01-01&includeDeleted=true&fields=name',
        `?updatedSince=${token}`,
      ]) {
        const refused = await t.request(`${ITEMS}${query}`, { key });
        expectApiError(refused, 400, 'INVALID_PARAMETER');
        expect(refused.body.error.param).toBe('updatedSince');
        expect(refused.body.error.message).toContain('its view hides updatedAt');
        expect(refused.text).not.toContain('nextSince');
      }
      // A view hiding createdAt alone still syncs (updatedAt is shown).
      const { key: createdOnly } = await keyWith({ hideFields: ['createdAt'] });
      const synced = await get(createdOnly, '?updatedSince=2020-01-01&fields=name');
      expect(synced.nextSince).toEqual(expect.any(String));
    });

    it('every nextCursor names an item the key was served: lists, searches, locations, short search pages', async () => {
      // More rows outside the view than a short needle's scan budget (10,000) before the first
      // one inside it: a walk that counted every row would stop on a hidden row and name it.
      const other = await t.createOrganization();
      await createLocation(t.store, cliActor(), other, { code: 'WH', name: 'Warehouse' });
      const rows = Array.from({ length: 10_050 }, (_, k) => ({
        sku: `R-${k}`,
        name: k % 7 === 0 ? `zz tent ${k}` : `tent ${k}`,
        status: (k < 10_010 || k % 2 === 0
          ? 'Draft'
          : k % 3 === 0
            ? 'Inactive'
            : 'Active') as ItemStatus,
        stock: stockText({ WH: k % 4 }),
      }));
      // In parts: one statement of 10,000 rows may outlast the database deadline on a busy machine.
      for (let k = 0; k < rows.length; k += 1000)
        await t.createItems(other.id, rows.slice(k, k + 1000));
      const { key } = await t.createKey({
        organizationId: other.id,
        rateLimit: null,
        view: parseView({ where: ['status=Active,Inactive'] }),
      });
      /** A cursor's item (api/cursor.ts): `a` in its base64url JSON. */
      const named = (cursor: string) =>
        (JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { a?: string }).a;
      const served = new Set<string>();
      const everything = await get(key, '?fields=_id&limit=1000');
      for (const item of everything.data) served.add(item._id);
      expect(served.size).toBe(20);
      for (const query of [
        '?limit=3',
        '?limit=3&search=zz',
        '?limit=3&search=z',
        '?limit=3&search=tent',
        '?limit=3&search=zz t',
        '?limit=3&location=WH',
        '?limit=3&location=WH&search=zz',
        '?limit=3&status=Active',
        '?limit=3&status=Draft&search=zz',
      ]) {
        let cursor: string | null = null;
        do {
          const page = await get(
            key,
            `${query}&fields=_id${cursor === null ? '' : `&cursor=${cursor}`}`,
          );
          for (const item of page.data) expect(served.has(item._id), query).toBe(true);
          cursor = page.nextCursor;
          if (cursor !== null)
            expect(served.has(named(cursor) as string), `${query}: ${cursor}`).toBe(true);
        } while (cursor !== null);
      }
    }, 60_000);
  });
}
