import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineAvailability, SQLITE_THREADS_ENGINE, type TestStore } from '../testing/engines.js';
import { stockText } from './items/stock.js';
import { foldCase } from './search.js';
import { type Item, type Store, StoreConflictError } from './types.js';

/**
 * The store contract of stock per location (issue 31), on every engine: locations, stock rows
 * written with the items, the location filter of pages and of the change feed, and removal.
 */
const LEGS = [
  ...(await engineAvailability('locations contract')),
  { engine: SQLITE_THREADS_ENGINE, skip: null },
];

const stock = (rows: Record<string, number>) => stockText(rows);
const skus = (items: Item[]) => items.map((item) => item.sku);

for (const { engine, skip } of LEGS) {
  describe.skipIf(skip !== null)(`Locations contract on ${engine.label ?? engine.name}`, () => {
    let handle: TestStore;
    let store: Store;

    beforeAll(async () => {
      handle = await engine.open();
      store = handle.store;
      await store.migrate();
    });
    afterAll(() => handle?.cleanup());

    async function organization(slug: string) {
      const org = await store.createOrganization({ name: slug, slug, features: [] });
      await store.createLocation(org.id, { code: 'WH', name: 'Warehouse' });
      await store.createLocation(org.id, { code: 'SHOP', name: 'Shop floor' });
      await store.createLocation(org.id, { code: 'b.2', name: 'Back room' });
      return org.id;
    }

    it('creates, lists by code, finds and refuses a second location with the same code', async () => {
      const org = await organization('loc-crud');
      const listed = await store.listLocations(org);
      expect(listed.map((l) => l.code)).toEqual(['SHOP', 'WH', 'b.2']);
      expect(listed[0]).toMatchObject({ organizationId: org, name: 'Shop floor' });
      expect(await store.findLocation(org, 'WH')).toMatchObject({ code: 'WH' });
      expect(await store.findLocation(org, 'wh')).toBeNull();
      await expect(store.createLocation(org, { code: 'WH', name: 'Again' })).rejects.toThrow(
        StoreConflictError,
      );
      const other = await store.createOrganization({ name: 'o', slug: 'loc-o', features: [] });
      expect(await store.listLocations(other.id)).toEqual([]);
      expect(await store.findLocation(other.id, 'WH')).toBeNull();
    });

    it('writes stock rows with the items: quantity is their sum, and the rules refuse the rest', async () => {
      const org = await organization('loc-write');
      const outcomes = await store.writeItems(org, [
        { sku: 'A', name: 'A', stock: stock({ WH: 3, SHOP: 2 }) },
        { sku: 'B', name: 'B', quantity: 7 },
        { sku: 'C', name: 'C', quantity: 5, stock: stock({ WH: 5, SHOP: 0 }) },
        { sku: 'D', name: 'D', stock: stock({ NOPE: 1 }) },
        { sku: 'E', name: 'E', quantity: 4, stock: stock({ WH: 1 }) },
        { sku: 'F', name: 'F', stock: stock({ WH: -1 }) },
      ]);
      expect(outcomes.slice(0, 3)).toEqual(['created', 'created', 'created']);
      expect(outcomes[3]).toEqual({ error: expect.stringContaining('"NOPE"') });
      expect(outcomes[4]).toEqual({ error: expect.stringContaining('differs from the sum') });
      expect(outcomes[5]).toEqual({ error: expect.stringContaining('cannot be negative') });
      const [a, b, c] = await store.listItems(org, { limit: 10 });
      expect(a).toMatchObject({
        quantity: 5,
        stock: '[{"location":"SHOP","quantity":2},{"location":"WH","quantity":3}]',
      });
      expect(b).toMatchObject({ quantity: 7, stock: '[]' });
      expect(c).toMatchObject({ quantity: 5 });
      // A quantity alone for an item with stock rows must equal their sum.
      expect(await store.writeItems(org, [{ sku: 'A', quantity: 9 }])).toEqual([
        { error: expect.stringContaining('differs from the sum') },
      ]);
      expect(await store.writeItems(org, [{ sku: 'A', quantity: 5 }])).toEqual(['unchanged']);
    });

    it('leaves an unchanged row untouched, stock included; a given stock replaces the rows', async () => {
      const org = await organization('loc-upsert');
      await store.writeItems(org, [{ sku: 'A', name: 'A', stock: stock({ WH: 3, SHOP: 2 }) }], {
        now: 1000,
      });
      const same = await store.writeItems(
        org,
        [{ sku: 'A', name: 'A', stock: stock({ SHOP: 2, WH: 3 }) }],
        { now: 2000 },
      );
      expect(same).toEqual(['unchanged']);
      expect((await store.listItems(org, { limit: 1 }))[0]?.updatedAt).toBe(1000);
      // Absent stock leaves the rows.
      expect(await store.writeItems(org, [{ sku: 'A', name: 'A2' }], { now: 3000 })).toEqual([
        'updated',
      ]);
      expect((await store.listItems(org, { limit: 1 }))[0]).toMatchObject({
        quantity: 5,
        updatedAt: 3000,
      });
      // A given stock replaces them: SHOP loses its row.
      await store.writeItems(org, [{ sku: 'A', stock: stock({ WH: 4 }) }], { now: 4000 });
      expect((await store.listItems(org, { limit: 1 }))[0]).toMatchObject({
        quantity: 4,
        stock: '[{"location":"WH","quantity":4}]',
      });
      expect(skus(await store.listItems(org, { limit: 10, location: 'SHOP' }))).toEqual([]);
      expect(skus(await store.listItems(org, { limit: 10, location: 'WH' }))).toEqual(['A']);
    });

    it('filters pages by location (more than 0 there), with every other filter and the keyset', async () => {
      const org = await organization('loc-filter');
      await store.writeItems(org, [
        { sku: 'S1', name: 'Red lamp', status: 'Active', barcode: '111', stock: stock({ WH: 1 }) },
        { sku: 'S2', name: 'Blue lamp', status: 'Draft', stock: stock({ WH: 0, SHOP: 4 }) },
        { sku: 'S3', name: 'Red chair', status: 'Active', stock: stock({ WH: 2, SHOP: 1 }) },
        { sku: 'S4', name: 'Red table', status: 'Active', quantity: 3 },
        { sku: 'S5', name: 'Red desk', status: 'Draft', stock: stock({ WH: 6 }) },
      ]);
      const list = (query: Parameters<Store['listItems']>[1]) =>
        store.listItems(org, query).then(skus);
      expect(await list({ limit: 10, location: 'WH' })).toEqual(['S1', 'S3', 'S5']);
      expect(await list({ limit: 10, location: 'SHOP' })).toEqual(['S2', 'S3']);
      expect(await list({ limit: 10, location: 'b.2' })).toEqual([]);
      expect(await list({ limit: 10, location: 'WH', status: 'Active' })).toEqual(['S1', 'S3']);
      expect(await list({ limit: 10, location: 'WH', search: foldCase('RED') })).toEqual([
        'S1',
        'S3',
        'S5',
      ]);
      expect(await list({ limit: 10, location: 'WH', search: foldCase('chair') })).toEqual(['S3']);
      expect(await list({ limit: 10, location: 'WH', sku: 'S3' })).toEqual(['S3']);
      expect(await list({ limit: 10, location: 'SHOP', sku: 'S1' })).toEqual([]);
      expect(await list({ limit: 10, location: 'WH', barcode: '111' })).toEqual(['S1']);
      const first = await store.listItems(org, { limit: 2, location: 'WH' });
      expect(skus(first)).toEqual(['S1', 'S3']);
      expect(await list({ limit: 2, location: 'WH', afterId: first[1]?.id as string })).toEqual([
        'S5',
      ]);
      const ids = first.map((item) => item.id);
      expect(await list({ limit: 10, location: 'SHOP', ids })).toEqual(['S3']);
      // Sync: the change feed filtered by location.
      const page = await store.listChanges(org, {
        afterSeq: 0,
        limit: 10,
        includeDeleted: false,
        location: 'SHOP',
      });
      expect(skus(page.items)).toEqual(['S2', 'S3']);
    });

    it('filters by location and status after writes that change the status, the stock or both', async () => {
      // PostgreSQL filters a location page's status on the stock rows (a copy of the item's).
      const org = await organization('loc-status');
      await store.writeItems(org, [
        { sku: 'T1', name: 'T1', status: 'Active', stock: stock({ WH: 1, SHOP: 2 }) },
        { sku: 'T2', name: 'T2', status: 'Active', stock: stock({ WH: 3 }) },
        { sku: 'T3', name: 'T3', status: 'Draft', stock: stock({ WH: 4 }) },
      ]);
      const at = (location: string, status: Item['status']) =>
        store.listItems(org, { limit: 10, location, status }).then(skus);
      expect(await at('WH', 'Active')).toEqual(['T1', 'T2']);
      // Only the status; the status and the stock; the status, then back, in one call.
      expect(
        await store.writeItems(org, [
          { sku: 'T1', status: 'Discontinued' },
          { sku: 'T2', status: 'Draft', stock: stock({ WH: 5, SHOP: 1 }) },
          { sku: 'T3', status: 'Active' },
          { sku: 'T3', status: 'Draft' },
          { sku: 'T4', name: 'T4', status: 'Active', stock: stock({ SHOP: 1 }) },
          { sku: 'T4', status: 'Inactive' },
        ]),
      ).toEqual(['updated', 'updated', 'updated', 'updated', 'created', 'updated']);
      expect(await at('WH', 'Active')).toEqual([]);
      expect(await at('WH', 'Discontinued')).toEqual(['T1']);
      expect(await at('SHOP', 'Discontinued')).toEqual(['T1']);
      expect(await at('WH', 'Draft')).toEqual(['T2', 'T3']);
      expect(await at('SHOP', 'Draft')).toEqual(['T2']);
      expect(await at('SHOP', 'Inactive')).toEqual(['T4']);
      // A removed location leaves the others' rows as they were.
      await store.deleteLocation(org, 'WH');
      expect(await at('SHOP', 'Draft')).toEqual(['T2']);
      expect(await at('SHOP', 'Discontinued')).toEqual(['T1']);
    });

    it('removes a location with its rows: each item that had one changes in the feed', async () => {
      const org = await organization('loc-remove');
      await store.writeItems(org, [
        { sku: 'R1', name: 'R1', stock: stock({ WH: 2, SHOP: 3 }) },
        { sku: 'R2', name: 'R2', stock: stock({ SHOP: 0 }) },
        { sku: 'R3', name: 'R3', stock: stock({ WH: 1 }) },
        { sku: 'R4', name: 'R4', quantity: 8 },
      ]);
      const before = await store.listChanges(org, {
        afterSeq: 0,
        limit: 10,
        includeDeleted: false,
      });
      expect(await store.deleteLocation(org, 'SHOP')).toEqual({ items: 2 });
      expect(await store.deleteLocation(org, 'SHOP')).toBeNull();
      expect((await store.listLocations(org)).map((l) => l.code)).toEqual(['WH', 'b.2']);
      const changed = await store.listChanges(org, {
        afterSeq: before.throughSeq,
        limit: 10,
        includeDeleted: false,
      });
      expect(changed.items.map((i) => [i.sku, i.quantity, i.stock])).toEqual([
        ['R1', 2, '[{"location":"WH","quantity":2}]'],
        ['R2', 0, '[]'],
      ]);
      expect(changed.items.every((i) => i.changeSeq > before.throughSeq)).toBe(true);
      // A new location of the same code starts empty; stock may name it again.
      await store.createLocation(org, { code: 'SHOP', name: 'New shop' });
      expect(await store.listItems(org, { limit: 10, location: 'SHOP' })).toEqual([]);
      expect(await store.writeItems(org, [{ sku: 'R4', stock: stock({ SHOP: 8 }) }])).toEqual([
        'updated',
      ]);
      expect(skus(await store.listItems(org, { limit: 10, location: 'SHOP' }))).toEqual(['R4']);
    });

    it("deletes an item's stock rows with it, and an organization's locations with it", async () => {
      const org = await organization('loc-delete');
      await store.writeItems(org, [{ sku: 'X', name: 'X', stock: stock({ WH: 2 }) }]);
      expect(await store.deleteItem(org, { sku: 'X' })).toBe(true);
      expect(await store.listItems(org, { limit: 10, location: 'WH' })).toEqual([]);
      await store.writeItems(org, [{ sku: 'X', name: 'X', stock: stock({ WH: 2 }) }]);
      expect(await store.deleteOrganization(org)).toMatchObject({ items: 1 });
      expect(await store.listLocations(org)).toEqual([]);
    });
  });
}
