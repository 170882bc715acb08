import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineAvailability, SQLITE_THREADS_ENGINE } from '../testing/engines.js';
import { stockText } from './items/stock.js';
import { PostgresStore } from './postgres/postgres-store.js';
import Database from './sqlite/driver.js';
import type { ChangeQuery, ItemScope, Store } from './types.js';

/**
 * The change feed's before-images (issue 41), on every engine: with a key's scope and
 * `seenAfterSeq`, a sync names as deleted only the items the key could have seen since its
 * point (an item that left the view, a deletion of an item it saw), never one it never saw.
 */

const LEGS = [
  ...(await engineAvailability('before-images contract')),
  { engine: SQLITE_THREADS_ENGINE, skip: null },
];

for (const { engine, skip } of LEGS) {
  describe.skipIf(skip !== null)(`Change before-images on ${engine.label ?? engine.name}`, () => {
    let cleanup: () => Promise<void>;
    let store: Store;
    let url: string;
    let slug = 0;

    beforeAll(async () => {
      const handle = await engine.open();
      cleanup = handle.cleanup;
      store = handle.store;
      url = handle.url;
      await store.migrate();
    }, 60_000);
    afterAll(() => cleanup?.());

    /** Runs SQL on the store's database itself (what no Store method does). */
    async function sql(
      text: string,
      params: unknown[] = [],
    ): Promise<Array<Record<string, unknown>>> {
      if (store instanceof PostgresStore) return store.query(text, params);
      const db = new Database(url);
      try {
        const statement = db.prepare(text.replace(/\$\d+/g, '?'));
        if (statement.reader) return statement.all(...params) as Array<Record<string, unknown>>;
        statement.run(...params);
        return [];
      } finally {
        db.close();
      }
    }

    async function setBeforeImagesFrom(seq: number): Promise<void> {
      await sql("UPDATE stockroom_meta SET value = $1 WHERE key = 'before_images_from'", [
        String(seq),
      ]);
    }

    async function countRecords(org: string): Promise<number> {
      const [row] = await sql('SELECT count(*) AS n FROM item_changes WHERE organization_id = $1', [
        org,
      ]);
      return Number(row?.n);
    }

    async function organization(): Promise<string> {
      slug++;
      const org = await store.createOrganization({
        name: `Images ${slug}`,
        slug: `images-${slug}`,
        features: [],
      });
      await store.createLocation(org.id, { code: 'WH', name: 'Warehouse' });
      await store.createLocation(org.id, { code: 'SHOP', name: 'Shop' });
      return org.id;
    }

    async function position(org: string): Promise<number> {
      return (await store.listChanges(org, { afterSeq: 0, limit: 1000, includeDeleted: true }))
        .throughSeq;
    }

    /** The skus of a sync walk's deletions, page by page from `afterSeq`. */
    async function deletedSkus(
      org: string,
      ids: Map<string, string>,
      query: Omit<ChangeQuery, 'limit' | 'includeDeleted'>,
      limit: number,
    ): Promise<{ deleted: string[]; items: string[] }> {
      const deleted: string[] = [];
      const items: string[] = [];
      let afterSeq = query.afterSeq;
      for (;;) {
        const page = await store.listChanges(org, {
          ...query,
          afterSeq,
          limit,
          includeDeleted: true,
        });
        deleted.push(...page.deleted.map((entry) => ids.get(entry.id) ?? entry.id));
        items.push(...page.items.map((item) => item.sku ?? item.id));
        afterSeq = page.throughSeq;
        if (!page.more) return { deleted: deleted.sort(), items: items.sort() };
      }
    }

    async function skuIds(org: string): Promise<Map<string, string>> {
      const items = await store.listItems(org, { limit: 100 });
      return new Map(items.map((item) => [item.id, item.sku ?? '']));
    }

    it('a status view is told of the items it saw leave, never of those it never saw', async () => {
      const org = await organization();
      await store.writeItems(org, [
        { sku: 'NEVER', name: 'never seen', status: 'Draft' },
        { sku: 'LEFT', name: 'left the view', status: 'Active' },
        { sku: 'TWICE', name: 'left, then changed again', status: 'Active' },
        { sku: 'PASSING', name: 'seen between two syncs', status: 'Draft' },
        { sku: 'GONE-UNSEEN', name: 'deleted, never seen', status: 'Draft' },
        { sku: 'GONE-SEEN', name: 'deleted while seen', status: 'Active' },
        { sku: 'STAYS', name: 'still in the view', status: 'Active' },
      ]);
      const ids = await skuIds(org);
      const start = await position(org);
      await store.writeItems(org, [
        { sku: 'NEVER', status: 'Inactive' },
        { sku: 'LEFT', status: 'Inactive' },
        { sku: 'TWICE', status: 'Draft' },
        { sku: 'PASSING', status: 'Active' },
        { sku: 'NEW-UNSEEN', name: 'created outside the view', status: 'Draft' },
        { sku: 'STAYS', name: 'still in the view, renamed' },
      ]);
      await store.writeItems(org, [
        { sku: 'TWICE', status: 'Inactive' },
        { sku: 'PASSING', status: 'Discontinued' },
        { sku: 'NEW-UNSEEN', status: 'Inactive' },
      ]);
      await store.deleteItems(org, [{ sku: 'GONE-UNSEEN' }, { sku: 'GONE-SEEN' }]);
      const scope: ItemScope = { statuses: ['Active'] };
      for (const limit of [100, 1, 2]) {
        const exact = await deletedSkus(
          org,
          ids,
          { afterSeq: start, scope, scopeSince: 0, seenAfterSeq: start },
          limit,
        );
        expect(exact, `limit ${limit}`).toEqual({
          deleted: ['GONE-SEEN', 'LEFT', 'PASSING', 'TWICE'],
          items: ['STAYS'],
        });
      }
      // A walk that starts over under a new view names every item outside it.
      const all = await deletedSkus(org, ids, { afterSeq: start, scope, scopeSince: 0 }, 100);
      expect(all.deleted).toHaveLength(7);
      // Without a scope nothing is judged: every deletion is listed, every change is an item.
      const plain = await deletedSkus(org, ids, { afterSeq: start }, 100);
      expect(plain.deleted).toEqual(['GONE-SEEN', 'GONE-UNSEEN']);
    });

    it('judges location and custom-field views by the values before each change', async () => {
      const org = await organization();
      await store.writeItems(org, [
        {
          sku: 'WH-OUT',
          name: 'a',
          stock: stockText({ WH: 2 }),
          customFields: '{"channel":"web"}',
        },
        {
          sku: 'WH-NEVER',
          name: 'b',
          stock: stockText({ WH: 0, SHOP: 1 }),
          customFields: '{"channel":"store"}',
        },
        {
          sku: 'WEB-OUT',
          name: 'c',
          stock: stockText({ WH: 1 }),
          customFields: '{"channel":"web"}',
        },
      ]);
      const ids = await skuIds(org);
      const start = await position(org);
      await store.writeItems(org, [
        { sku: 'WH-OUT', stock: stockText({ WH: 0 }) },
        { sku: 'WH-NEVER', stock: stockText({ SHOP: 3 }), customFields: '{"channel":"web"}' },
        { sku: 'WEB-OUT', customFields: '{"channel":"shop"}' },
      ]);
      const byLocation = await deletedSkus(
        org,
        ids,
        { afterSeq: start, scope: { locations: ['WH'] }, seenAfterSeq: start },
        100,
      );
      expect(byLocation.deleted).toEqual(['WH-OUT']);
      const byChannel = await deletedSkus(
        org,
        ids,
        {
          afterSeq: start,
          scope: { customFields: [{ name: 'channel', value: 'web' }] },
          seenAfterSeq: start,
        },
        100,
      );
      expect(byChannel).toEqual({ deleted: ['WEB-OUT'], items: ['WH-NEVER', 'WH-OUT'] });
      // Both at once: WH-OUT was inside (WH 2, web) and left; WEB-OUT too; WH-NEVER never was.
      const both = await deletedSkus(
        org,
        ids,
        {
          afterSeq: start,
          scope: { locations: ['WH'], customFields: [{ name: 'channel', value: 'web' }] },
          seenAfterSeq: start,
        },
        1,
      );
      expect(both).toEqual({ deleted: ['WEB-OUT', 'WH-OUT'], items: [] });
    });

    it('names every item that left when the sync point is older than the before-images', async () => {
      const org = await organization();
      await store.writeItems(org, [{ sku: 'NEVER', name: 'never seen', status: 'Draft' }]);
      const ids = await skuIds(org);
      const start = await position(org);
      await store.writeItems(org, [{ sku: 'NEVER', status: 'Inactive' }]);
      // A change of a field no view filters on keeps no before-image: the item looked the same.
      await store.writeItems(org, [{ sku: 'NEVER', name: 'renamed', quantity: 4 }]);
      const scope: ItemScope = { statuses: ['Active'] };
      const query = { afterSeq: start, scope, seenAfterSeq: start };
      expect((await deletedSkus(org, ids, query, 100)).deleted).toEqual([]);
      // As if the point were from before migration 11: what the key saw there is unknown.
      await setBeforeImagesFrom(start + 1);
      try {
        expect((await deletedSkus(org, ids, query, 100)).deleted).toEqual(['NEVER']);
      } finally {
        await setBeforeImagesFrom(0);
      }
      expect((await deletedSkus(org, ids, query, 100)).deleted).toEqual([]);
    });

    it('keeps a before-image only of changes a view can tell apart', async () => {
      const org = await organization();
      await store.writeItems(org, [
        { sku: 'Q', name: 'quantity only', status: 'Active', customFields: '{"a":"1"}' },
      ]);
      expect(await countRecords(org)).toBe(0);
      await store.writeItems(org, [{ sku: 'Q', quantity: 9, name: 'renamed', description: 'x' }]);
      expect(await countRecords(org)).toBe(0);
      await store.writeItems(org, [{ sku: 'Q', customFields: '{"a":"2"}' }]);
      await store.writeItems(org, [{ sku: 'Q', status: 'Draft' }]);
      await store.writeItems(org, [{ sku: 'Q', stock: stockText({ WH: 1 }) }]);
      await store.deleteItem(org, { sku: 'Q' });
      expect(await countRecords(org)).toBe(4);
      // They go with their organization.
      await store.writeItems(org, [{ sku: 'R', name: 'r', status: 'Active' }]);
      await store.writeItems(org, [{ sku: 'R', status: 'Draft' }]);
      await store.deleteOrganization(org);
      expect(await countRecords(org)).toBe(0);
    });
  });
}
