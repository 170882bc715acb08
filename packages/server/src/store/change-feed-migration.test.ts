import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineAvailability, type TestStore } from '../testing/engines.js';
import { execInSchema } from '../testing/postgres.js';
import Database from './sqlite/driver.js';
import type { Item, Store } from './types.js';

/**
 * Upgrading a database written before the change feed: the migration numbers every existing
 * item by the hybrid-logical-clock rule, organization by organization in (updatedAt, _id)
 * order, sets each organization's counter to its last number, and writes then go on from there.
 */

const LEGS = await engineAvailability('change feed migration');
/** The migration that adds the change feed, per engine. */
const VERSION = { sqlite: 7, postgres: 6 };
/** What it created, undone, so the database is the one an older binary left. */
const UNDO = {
  sqlite: `DROP TRIGGER items_search_fields_delete;
    DROP TRIGGER items_search_fields_update;
    DROP TABLE items_search_name;
    DROP TABLE items_search_description;
    DROP TABLE items_search_sku;
    DROP TABLE items_search_barcode;
    DELETE FROM stockroom_meta WHERE key = 'before_images_from';
    DROP INDEX items_quantity_not_finite;
    DROP TABLE installation_secrets;
    DROP TRIGGER items_change_before_image;
    DROP TABLE item_changes;
    ALTER TABLE api_keys DROP COLUMN view;
    ALTER TABLE api_keys DROP COLUMN view_updated_at;
    DROP TRIGGER items_stock_delete;
    DROP TABLE item_stock;
    DROP TABLE locations;
    ALTER TABLE items DROP COLUMN stock;
    DROP TABLE webhook_deliveries;
    DROP TABLE webhooks;
    ALTER TABLE items DROP COLUMN created_seq;
    DROP TABLE item_tombstones;
    DROP INDEX items_organization_change;
    DROP INDEX items_organization_barcode;
    ALTER TABLE items DROP COLUMN change_seq;
    ALTER TABLE organizations DROP COLUMN change_seq;`,
  postgres: `DROP INDEX items_organization_search_fields;
    DELETE FROM stockroom_meta WHERE key = 'before_images_from';
    DROP INDEX items_quantity_not_finite;
    DROP TABLE installation_secrets;
    DROP TRIGGER items_change_before_image ON items;
    DROP FUNCTION stockroom_item_before_images;
    DROP TABLE item_changes;
    ALTER TABLE api_keys DROP COLUMN view, DROP COLUMN view_updated_at;
    DROP TABLE item_stock;
    DROP TABLE locations;
    ALTER TABLE items DROP COLUMN stock;
    DROP TABLE webhook_deliveries;
    DROP TABLE webhooks;
    ALTER TABLE items DROP COLUMN created_seq;
    DROP TABLE item_tombstones;
    DROP INDEX items_organization_barcode;
    ALTER TABLE items DROP COLUMN change_seq;
    ALTER TABLE organizations DROP COLUMN change_seq;`,
};

const T = Date.UTC(2026, 10, 20, 12, 0, 0, 0);

/** The numbers the rule gives a list of items: max(previous + 1, clamped updatedAt × 1000). */
function expectedNumbers(items: Item[]): Array<[string, number]> {
  const ordered = [...items].sort(
    (a, b) => a.updatedAt - b.updatedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  let previous = 0;
  return ordered.map((item) => {
    const stamp = Math.min(Math.max(item.updatedAt, 0), 8_000_000_000_000) * 1000;
    previous = Math.max(previous + 1, stamp);
    return [item.id, previous];
  });
}

for (const { engine, skip } of LEGS) {
  describe.skipIf(skip !== null)(`the change feed migration on ${engine.name}`, () => {
    let handle: TestStore;
    let store: Store;

    async function exec(sql: string): Promise<void> {
      if (engine.name === 'postgres') return execInSchema(handle.url, sql);
      const db = new Database(handle.url);
      try {
        db.exec(sql);
      } finally {
        db.close();
      }
    }

    beforeAll(async () => {
      handle = await engine.open();
      store = handle.store;
      await store.migrate();
    });
    afterAll(() => handle?.cleanup());

    it('numbers existing items per organization in (updatedAt, _id) order, and writes go on after', async () => {
      const big = await store.createOrganization({ name: 'Big', slug: 'big', features: [] });
      const small = await store.createOrganization({ name: 'Small', slug: 'small', features: [] });
      const empty = await store.createOrganization({ name: 'Empty', slug: 'empty', features: [] });
      // More rows in one millisecond than it has numbers: the next millisecond's rows must
      // continue after them, not at their own clock value.
      await store.writeItems(
        big.id,
        Array.from({ length: 1500 }, (_, i) => ({ sku: `B-${i}`, name: `Big ${i}` })),
        { now: T },
      );
      await store.writeItems(
        big.id,
        Array.from({ length: 10 }, (_, i) => ({ sku: `N-${i}`, name: `Next ${i}` })),
        { now: T + 1 },
      );
      // Rows updated later move to the end; ids no longer follow the order.
      await store.writeItems(
        big.id,
        ['B-3', 'B-0', 'B-1200'].map((sku) => ({ sku, quantity: 1 })),
        { now: T + 5 },
      );
      await store.writeItems(
        small.id,
        [
          { sku: 'S-1', name: 'One' },
          { sku: 'S-2', name: 'Two' },
        ],
        { now: T + 2 },
      );
      // An odd updatedAt (below the epoch), then the items as read before the schema goes back
      // (this store's queries name the later columns).
      await exec(`UPDATE items SET updated_at = -5 WHERE sku = 'B-7';`);
      const before = {
        big: await store.listItems(big.id, { limit: 5000 }),
        small: await store.listItems(small.id, { limit: 5000 }),
      };
      // The database as an older binary left it.
      await exec(
        `${UNDO[engine.name]}
         DELETE FROM schema_migrations WHERE version >= ${VERSION[engine.name]};`,
      );
      expect(before.big).toHaveLength(1510);

      expect(await store.migrate()).toEqual([
        `${String(VERSION[engine.name]).padStart(4, '0')}_change_feed`,
        `${String(VERSION[engine.name] + 1).padStart(4, '0')}_webhooks`,
        `${String(VERSION[engine.name] + 2).padStart(4, '0')}_locations`,
        `${String(VERSION[engine.name] + 3).padStart(4, '0')}_key_views`,
        // PostgreSQL only: the item's status on its stock rows.
        ...(engine.name === 'postgres' ? ['0010_stock_status'] : []),
        '0011_change_before_images',
        '0012_non_finite_quantities',
        `0013_search_field_index${engine.name === 'sqlite' ? 'es' : ''}`,
      ]);

      for (const [org, items] of [
        [big.id, before.big],
        [small.id, before.small],
      ] as const) {
        const page = await store.listChanges(org, {
          afterSeq: 0,
          limit: 5000,
          includeDeleted: true,
        });
        const expected = expectedNumbers(items);
        expect(page.items.map((item) => [item.id, item.changeSeq])).toEqual(expected);
        // Only the numbers are new: every field is as it was.
        const byId = new Map(items.map((item) => [item.id, item]));
        for (const { changeSeq: _, createdSeq, ...item } of page.items) {
          expect(item).toEqual(byId.get(item.id));
          // Created before the webhooks migration, which comes later and records none.
          expect(createdSeq).toBeNull();
        }
        expect(page).toMatchObject({ deleted: [], more: false, throughSeq: expected.at(-1)?.[1] });
      }
      const bigNumbers = expectedNumbers(before.big).map(([, seq]) => seq);
      expect(bigNumbers[0]).toBe(1);
      expect(bigNumbers[1]).toBe(T * 1000);
      // The 1,496 rows still stamped T, then the first of T + 1: past its own clock value
      // (T × 1000 + 1000), after the rows before it.
      expect(bigNumbers[1496]).toBe(T * 1000 + 1495);
      expect(bigNumbers[1497]).toBe(T * 1000 + 1496);
      expect(bigNumbers.at(-1)).toBe((T + 5) * 1000 + 2);
      expect(
        await store.listChanges(empty.id, { afterSeq: 0, limit: 10, includeDeleted: true }),
      ).toEqual({ items: [], deleted: [], throughSeq: 0, more: false });

      // Writes and deletions number after the migrated rows, even when stamped earlier.
      const last = bigNumbers.at(-1) as number;
      await store.writeItems(big.id, [{ sku: 'B-1', quantity: 7 }], { now: T });
      expect(await store.deleteItem(big.id, { sku: 'B-2' })).toBe(true);
      const after = await store.listChanges(big.id, {
        afterSeq: last,
        limit: 10,
        includeDeleted: true,
      });
      expect(after.items.map((item) => [item.sku, item.changeSeq])).toEqual([['B-1', last + 1]]);
      expect(after.deleted).toHaveLength(1);
      expect(after.deleted[0]?.seq).toBeGreaterThan(last + 1);
      // Exact lookups work on the migrated rows.
      expect((await store.listItems(big.id, { limit: 5, sku: 'B-1200' }))[0]?.quantity).toBe(1);
    });
  });
}
