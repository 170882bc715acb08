import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineAvailability, type TestStore } from '../testing/engines.js';
import { execInSchema } from '../testing/postgres.js';
import { foldCase } from './search.js';
import Database from './sqlite/driver.js';
import type { Store } from './types.js';

/**
 * Upgrading a database whose search text was folded the old way (upper-then-lower case mapping):
 * the simple-case-folding migration recomputes it, so search answers as on a fresh database.
 */

const LEGS = await engineAvailability('search text migration');
/** The migration that refolds, per engine. */
const REFOLD_VERSION = { sqlite: 5, postgres: 4 };
/**
 * What the migrations after it created, undone, so the database is the one an older binary
 * left (migrations apply every version above the highest recorded one). A later migration
 * adds its undo here.
 */
const UNDO_LATER = {
  sqlite: `DROP TRIGGER items_search_fields_delete;
    DROP TRIGGER items_search_fields_update;
    DROP TABLE items_search_name;
    DROP TABLE items_search_description;
    DROP TABLE items_search_sku;
    DROP TABLE items_search_barcode;
    DROP INDEX items_quantity_not_finite;
    DROP INDEX item_stock_quantity_not_finite;
    DELETE FROM stockroom_meta WHERE key = 'before_images_from';
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
    ALTER TABLE organizations DROP COLUMN change_seq;
    DROP TABLE audit_events;
    DROP INDEX api_keys_previous_hash;
    ALTER TABLE api_keys DROP COLUMN previous_hash;
    ALTER TABLE api_keys DROP COLUMN previous_hash_expires_at;`,
  postgres: `DROP INDEX items_organization_search_fields;
    DROP INDEX items_quantity_not_finite;
    DROP INDEX item_stock_quantity_not_finite;
    DELETE FROM stockroom_meta WHERE key = 'before_images_from';
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
    ALTER TABLE organizations DROP COLUMN change_seq;
    DROP TABLE audit_events;
    ALTER TABLE api_keys DROP COLUMN previous_hash, DROP COLUMN previous_hash_expires_at;`,
};
const LATER_MIGRATIONS = {
  sqlite: [
    '0006_key_rotation_and_audit_log',
    '0007_change_feed',
    '0008_webhooks',
    '0009_locations',
    '0010_key_views',
    '0011_change_before_images',
    '0012_non_finite_quantities',
    '0013_search_field_indexes',
  ],
  postgres: [
    '0005_key_rotation_and_audit_log',
    '0006_change_feed',
    '0007_webhooks',
    '0008_locations',
    '0009_key_views',
    '0010_stock_status',
    '0011_change_before_images',
    '0012_non_finite_quantities',
    '0013_search_field_index',
  ],
};

for (const { engine, skip } of LEGS) {
  describe.skipIf(skip !== null)(`the simple-case-folding migration on ${engine.name}`, () => {
    let handle: TestStore;
    let store: Store;

    /** Raw SQL on the store's database, through a connection of its own. */
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

    it('recomputes every stored search text and leaves the others untouched', async () => {
      const org = await store.createOrganization({
        name: 'Refold',
        slug: `refold-${engine.name}`,
        features: ['inventory'],
      });
      const rows = [
        { name: 'Dıvan cover', sku: 'D-1' }, // dotless ı: the old folding made it "divan"
        { name: 'Divan cushion', sku: 'D-2' },
        { name: 'ᏣᎳᎩ primer', sku: 'C-1' }, // Cherokee: the old folding kept small letters
      ];
      // Enough rows to take more than one batch of the migration.
      for (let i = 0; i < 2500; i++) rows.push({ name: `Plain ${i}`, sku: `P-${i}` });
      await store.writeItems(org.id, rows);
      // Read before the schema goes back: this store's queries name the later columns.
      const before = await store.listItems(org.id, { limit: 5000 });
      // The database as the old folding left it: stale text, and the migration not yet applied.
      await exec(
        `UPDATE items SET search_text = 'stale divan' WHERE sku IN ('D-1', 'C-1');
         UPDATE items SET search_text = 'stale plain' WHERE sku = 'P-2400';
         DELETE FROM schema_migrations WHERE version >= ${REFOLD_VERSION[engine.name]};
         ${UNDO_LATER[engine.name]}`,
      );
      const skus = async (needle: string) =>
        (await store.listItems(org.id, { limit: 100, search: foldCase(needle) })).map(
          (item) => item.sku,
        );

      expect(await store.migrate()).toEqual([
        `${String(REFOLD_VERSION[engine.name]).padStart(4, '0')}_simple_case_folding`,
        ...LATER_MIGRATIONS[engine.name],
      ]);
      expect(await skus('stale')).toEqual([]);
      expect(await skus('DIVAN')).toEqual(['D-2']);
      expect(await skus('dıvan')).toEqual(['D-1']);
      expect(await skus('ꮳꮃꭹ')).toEqual(['C-1']);
      expect(await skus('plain 2400')).toEqual(['P-2400']);
      expect(await skus('plain 1999')).toEqual(['P-1999']);
      // Only the search text changed: every field, updatedAt included, is as it was.
      expect(await store.listItems(org.id, { limit: 5000 })).toEqual(before);
      if (engine.name === 'sqlite') {
        // The trigram index that large organizations search through follows the new text.
        const db = new Database(handle.url, { readonly: true });
        try {
          const count = (phrase: string) =>
            (
              db
                .prepare('SELECT count(*) AS n FROM items_search WHERE items_search MATCH ?')
                .get(`"${phrase}"`) as { n: number }
            ).n;
          expect(count('stale')).toBe(0);
          expect(count(foldCase('Dıvan cover'))).toBe(1);
          expect(count(foldCase('ᏣᎳᎩ primer'))).toBe(1);
        } finally {
          db.close();
        }
      }
    });
  });
}
