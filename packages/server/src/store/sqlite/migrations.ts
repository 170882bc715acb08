import { searchText } from '../search.js';
import type { SqliteDatabase } from './driver.js';

/**
 * Versioned schema for the embedded engine. Append only: a released migration never changes.
 * Every table that belongs to an organization is keyed by organization_id first.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
  /** Data work SQL cannot do, run after `sql` in the same transaction. */
  run?: (db: SqliteDatabase) => void;
}

/** Rows read and rewritten at a time by a data migration. */
const BATCH = 1000;

/**
 * Recomputes every item's search text with the current `searchText` (store/search.ts), in
 * rowid order, a batch at a time, rewriting only the rows whose text changed. The search
 * index follows through the triggers of migration 2 (the rows are queued and indexed when the
 * migration ends). Run again by a later migration whenever the folding changes.
 */
export function refoldSearchText(db: SqliteDatabase): void {
  const select = db.prepare(
    'SELECT seq, name, description, sku, barcode, search_text FROM items WHERE seq > ? ORDER BY seq LIMIT ?',
  );
  const update = db.prepare('UPDATE items SET search_text = ? WHERE seq = ?');
  let after = -1;
  for (;;) {
    const rows = select.all(after, BATCH) as Array<{
      seq: number;
      name: string;
      description: string | null;
      sku: string | null;
      barcode: string | null;
      search_text: string;
    }>;
    for (const row of rows) {
      const text = searchText(row);
      if (text !== row.search_text) update.run(text, row.seq);
    }
    const last = rows[rows.length - 1];
    if (!last || rows.length < BATCH) return;
    after = last.seq;
  }
}

export const SQLITE_MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: 'initial',
    sql: `
      CREATE TABLE organizations (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        slug TEXT NOT NULL UNIQUE,
        features TEXT NOT NULL DEFAULT '[]',
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE TABLE users (
        id TEXT PRIMARY KEY,
        email TEXT NOT NULL,
        email_normalized TEXT NOT NULL UNIQUE,
        name TEXT,
        created_at INTEGER NOT NULL
      );
      CREATE TABLE memberships (
        organization_id TEXT NOT NULL REFERENCES organizations(id),
        user_id TEXT NOT NULL REFERENCES users(id),
        created_at INTEGER NOT NULL,
        PRIMARY KEY (organization_id, user_id)
      );
      CREATE TABLE api_keys (
        organization_id TEXT NOT NULL REFERENCES organizations(id),
        id TEXT NOT NULL UNIQUE,
        user_id TEXT REFERENCES users(id),
        type TEXT NOT NULL CHECK (type IN ('organization', 'user')),
        name TEXT NOT NULL,
        prefix TEXT NOT NULL,
        hash TEXT NOT NULL UNIQUE,
        permissions TEXT NOT NULL,
        expires_at INTEGER,
        remaining INTEGER CHECK (remaining IS NULL OR remaining >= 0),
        rate_limit_max INTEGER,
        rate_limit_window INTEGER,
        enabled INTEGER NOT NULL DEFAULT 1,
        revoked_at INTEGER,
        created_at INTEGER NOT NULL,
        last_used_at INTEGER,
        PRIMARY KEY (organization_id, id)
      );
      CREATE TABLE items (
        organization_id TEXT NOT NULL REFERENCES organizations(id),
        id TEXT NOT NULL,
        name TEXT NOT NULL,
        description TEXT,
        sku TEXT,
        barcode TEXT,
        status TEXT NOT NULL CHECK (status IN ('Draft', 'Active', 'Inactive', 'Discontinued')),
        quantity REAL NOT NULL,
        custom_fields TEXT NOT NULL DEFAULT '{}',
        search_text TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (organization_id, id)
      );
      CREATE UNIQUE INDEX items_organization_sku ON items (organization_id, sku) WHERE sku IS NOT NULL;
      CREATE INDEX items_organization_status ON items (organization_id, status, id);
    `,
  },
  {
    // Substring search through an FTS5 trigram index, scoped by organization.
    //
    // Every organization gets a number (`organizations.seq`) and its items get rowids in
    // [seq * 2^32, (seq + 1) * 2^32): one organization's items form one contiguous rowid
    // range, so an FTS5 query constrained to that range never reads another organization's
    // postings. The rowid is an explicit INTEGER PRIMARY KEY (`items.seq`), which VACUUM
    // keeps stable, as an external-content FTS5 table requires; hence the table rebuild.
    //
    // The index is kept in sync by triggers, through `items_search_pending`: a written row
    // is queued there and indexed at the end of the write, or once at the end of a bulk
    // load (see SqliteStore). Searches cover the queue too, so results never lag.
    version: 2,
    name: 'search_index',
    sql: `
      ALTER TABLE organizations ADD COLUMN seq INTEGER;
      UPDATE organizations SET seq = (SELECT COUNT(*) FROM organizations o WHERE o.id <= organizations.id);
      CREATE UNIQUE INDEX organizations_seq ON organizations (seq);

      CREATE TABLE items_v2 (
        seq INTEGER PRIMARY KEY,
        organization_id TEXT NOT NULL REFERENCES organizations(id),
        id TEXT NOT NULL,
        name TEXT NOT NULL,
        description TEXT,
        sku TEXT,
        barcode TEXT,
        status TEXT NOT NULL CHECK (status IN ('Draft', 'Active', 'Inactive', 'Discontinued')),
        quantity REAL NOT NULL,
        search_text TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        custom_fields TEXT NOT NULL DEFAULT '{}',
        UNIQUE (organization_id, id)
      );
      INSERT INTO items_v2 (seq, organization_id, id, name, description, sku, barcode, status,
          quantity, search_text, created_at, updated_at, custom_fields)
        SELECT o.seq * 4294967296 + ROW_NUMBER() OVER (PARTITION BY i.organization_id ORDER BY i.id),
          i.organization_id, i.id, i.name, i.description, i.sku, i.barcode, i.status, i.quantity,
          i.search_text, i.created_at, i.updated_at, i.custom_fields
        FROM items i JOIN organizations o ON o.id = i.organization_id;
      DROP TABLE items;
      ALTER TABLE items_v2 RENAME TO items;
      CREATE UNIQUE INDEX items_organization_sku ON items (organization_id, sku) WHERE sku IS NOT NULL;
      CREATE INDEX items_organization_status ON items (organization_id, status, id);

      CREATE VIRTUAL TABLE items_search USING fts5(
        search_text, content='items', content_rowid='seq',
        tokenize='trigram case_sensitive 1', detail=full, columnsize=0
      );
      -- Bulk indexing flushes one segment per 64 MiB of postings instead of per 1 MiB.
      INSERT INTO items_search (items_search, rank) VALUES ('hashsize', 67108864);
      INSERT INTO items_search (items_search) VALUES ('rebuild');
      CREATE TABLE items_search_pending (seq INTEGER PRIMARY KEY);

      CREATE TRIGGER items_search_insert AFTER INSERT ON items BEGIN
        INSERT OR IGNORE INTO items_search_pending (seq) VALUES (new.seq);
      END;
      CREATE TRIGGER items_search_delete AFTER DELETE ON items BEGIN
        INSERT INTO items_search (items_search, rowid, search_text)
          SELECT 'delete', old.seq, old.search_text
          WHERE NOT EXISTS (SELECT 1 FROM items_search_pending WHERE seq = old.seq);
        DELETE FROM items_search_pending WHERE seq = old.seq;
      END;
      CREATE TRIGGER items_search_update AFTER UPDATE OF search_text ON items
        WHEN old.search_text IS NOT new.search_text BEGIN
        INSERT INTO items_search (items_search, rowid, search_text)
          SELECT 'delete', old.seq, old.search_text
          WHERE NOT EXISTS (SELECT 1 FROM items_search_pending WHERE seq = old.seq);
        INSERT OR IGNORE INTO items_search_pending (seq) VALUES (new.seq);
      END;
    `,
  },
  {
    // Which database this is, for `db copy`: a rerun into a target that holds an earlier copy
    // of this same database brings it up to date (deleting what is gone from here), and a
    // target holding a copy of another database is refused.
    version: 3,
    name: 'database_id',
    sql: `
      CREATE TABLE stockroom_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      INSERT INTO stockroom_meta (key, value) VALUES ('database_id', lower(hex(randomblob(16))));
    `,
  },
  {
    // Within an organization's range, rowids (items.seq) in `_id` order: a search continues a
    // walk in `_id` order with the FTS5 index in rowid order (item-search.ts). New rows keep
    // it (ids.ts newIdAfter); rows written before, by two processes in the same second (whose
    // ids sort by their random bytes, not by time), may not. The organizations where some row
    // follows a row with a greater id get their rowids renumbered in `_id` order: their index
    // entries are dropped, the rows move (through the upper half of the range, which no
    // organization reaches, so no two rows ever share a rowid) and are queued for the index,
    // which the store rebuilds for them right after migrating. Other organizations are not
    // touched.
    version: 4,
    name: 'rowids_in_id_order',
    sql: `
      CREATE TEMP TABLE reordered AS
        SELECT i.seq AS old_seq,
          (i.seq / 4294967296) * 4294967296
            + ROW_NUMBER() OVER (PARTITION BY i.organization_id ORDER BY i.id) AS new_seq
        FROM items i
        WHERE i.organization_id IN (
          SELECT organization_id FROM (
            SELECT organization_id, id,
              LAG(id) OVER (PARTITION BY organization_id ORDER BY seq) AS previous
            FROM items
          ) WHERE previous > id
        );
      DELETE FROM reordered WHERE old_seq = new_seq;

      INSERT INTO items_search (items_search, rowid, search_text)
        SELECT 'delete', r.old_seq, i.search_text FROM reordered r JOIN items i ON i.seq = r.old_seq
        WHERE NOT EXISTS (SELECT 1 FROM items_search_pending p WHERE p.seq = r.old_seq);
      DELETE FROM items_search_pending WHERE seq IN (SELECT old_seq FROM reordered);
      UPDATE items SET seq = seq + 2147483648 WHERE seq IN (SELECT old_seq FROM reordered);
      UPDATE items SET seq = (SELECT new_seq FROM reordered WHERE old_seq = items.seq - 2147483648)
        WHERE seq IN (SELECT old_seq + 2147483648 FROM reordered);
      INSERT INTO items_search_pending (seq) SELECT new_seq FROM reordered;
      DROP TABLE reordered;
    `,
  },
  {
    // Search text was folded by upper-then-lower case mapping, which is not Unicode simple case
    // folding (it folded dotless ı into i, and missed a few mappings): fold it again.
    version: 5,
    name: 'simple_case_folding',
    sql: '',
    run: refoldSearchText,
  },
  {
    // Key rotation keeps one key (id, quota, rate limit, history) and gives it a new secret;
    // the previous secret's hash stays valid until the grace period ends. The audit log is
    // not tied to organizations by a foreign key: it outlives an organization's deletion.
    version: 6,
    name: 'key_rotation_and_audit_log',
    sql: `
      ALTER TABLE api_keys ADD COLUMN previous_hash TEXT;
      ALTER TABLE api_keys ADD COLUMN previous_hash_expires_at INTEGER;
      CREATE UNIQUE INDEX api_keys_previous_hash ON api_keys (previous_hash)
        WHERE previous_hash IS NOT NULL;
      CREATE TABLE audit_events (
        organization_id TEXT NOT NULL,
        id TEXT NOT NULL,
        at INTEGER NOT NULL,
        actor TEXT NOT NULL,
        action TEXT NOT NULL,
        target TEXT,
        details TEXT NOT NULL DEFAULT '{}',
        PRIMARY KEY (organization_id, id)
      );
      CREATE INDEX audit_events_organization_at ON audit_events (organization_id, at, id);
    `,
  },
  {
    // The change feed of incremental sync, and exact lookups (issue 8).
    //
    // Every write that creates or changes an item stamps it with the next change number of its
    // organization (items.change_seq, organizations.change_seq the latest); a deletion leaves a
    // tombstone with one. Numbers are a hybrid logical clock, max(previous + 1, ms × 1000) (see
    // ChangeQuery in store/types.ts). Existing rows are numbered in (updated_at, id) order by
    // the same rule, unrolled into a window: seq(n) = n + max(0, max over k ≤ n of stamp(k) − k).
    // Stamps are clamped to [0, year 2223] so no odd updated_at can push a number past 2^53.
    //
    // SQLite adds a NOT NULL column only with a default; 0 is below every position a reader
    // asks from, and every write path of the store assigns a number.
    //
    // The barcode index carries id so a page of one barcode is read in _id order (keyset
    // paging); the sku lookup has items_organization_sku (unique, the upsert key).
    version: 7,
    name: 'change_feed',
    sql: `
      ALTER TABLE items ADD COLUMN change_seq INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE organizations ADD COLUMN change_seq INTEGER NOT NULL DEFAULT 0;
      UPDATE items SET change_seq = numbered.change_seq
      FROM (
        SELECT row_seq,
          n + MAX(0, MAX(stamp - n) OVER (
            PARTITION BY organization_id ORDER BY updated_at, id ROWS UNBOUNDED PRECEDING
          )) AS change_seq
        FROM (
          SELECT seq AS row_seq, organization_id, id, updated_at,
            MIN(MAX(updated_at, 0), 8000000000000) * 1000 AS stamp,
            ROW_NUMBER() OVER (PARTITION BY organization_id ORDER BY updated_at, id) AS n
          FROM items
        )
      ) AS numbered
      WHERE items.seq = numbered.row_seq;
      CREATE INDEX items_organization_change ON items (organization_id, change_seq);
      UPDATE organizations SET change_seq = COALESCE(
        (SELECT MAX(change_seq) FROM items WHERE organization_id = organizations.id), 0);
      CREATE INDEX items_organization_barcode ON items (organization_id, barcode, id)
        WHERE barcode IS NOT NULL;

      -- Deleted items, read after a position in change order, purged by age.
      CREATE TABLE item_tombstones (
        organization_id TEXT NOT NULL REFERENCES organizations(id),
        seq INTEGER NOT NULL,
        item_id TEXT NOT NULL,
        deleted_at INTEGER NOT NULL,
        PRIMARY KEY (organization_id, seq)
      ) WITHOUT ROWID;
      CREATE INDEX item_tombstones_deleted_at ON item_tombstones (deleted_at);
    `,
  },
  {
    // Webhooks (issue 8): each webhook reads its organization's change feed from its cursor into
    // deliveries, one pending at a time (webhooks/dispatcher.ts). items.created_seq is the
    // change number an item's creation took, so a delivery tells created from updated exactly;
    // rows created before this migration keep null (they predate every webhook).
    //
    // A pending delivery is leased by the process sending it (lease_until), so several
    // processes never send one delivery at the same time.
    version: 8,
    name: 'webhooks',
    sql: `
      ALTER TABLE items ADD COLUMN created_seq INTEGER;
      CREATE TABLE webhooks (
        organization_id TEXT NOT NULL REFERENCES organizations(id),
        id TEXT NOT NULL,
        url TEXT NOT NULL,
        events TEXT NOT NULL,
        description TEXT,
        secret TEXT NOT NULL,
        enabled INTEGER NOT NULL DEFAULT 1,
        disabled_reason TEXT,
        cursor INTEGER NOT NULL,
        caught_up_seq INTEGER NOT NULL,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (organization_id, id)
      );
      CREATE TABLE webhook_deliveries (
        organization_id TEXT NOT NULL,
        id TEXT NOT NULL,
        webhook_id TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
        payload TEXT NOT NULL,
        event_count INTEGER NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL,
        next_attempt_at INTEGER,
        lease_until INTEGER,
        last_attempt_at INTEGER,
        last_status INTEGER,
        last_error TEXT,
        PRIMARY KEY (organization_id, id),
        FOREIGN KEY (organization_id, webhook_id) REFERENCES webhooks (organization_id, id)
      );
      CREATE INDEX webhooks_id ON webhooks (id);
      CREATE INDEX webhook_deliveries_id ON webhook_deliveries (id);
      CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries (webhook_id, id);
      CREATE UNIQUE INDEX webhook_deliveries_pending ON webhook_deliveries (organization_id, webhook_id)
        WHERE state = 'pending';
      CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at)
        WHERE state = 'pending';
      CREATE INDEX webhook_deliveries_finished ON webhook_deliveries (created_at)
        WHERE state <> 'pending';
    `,
  },
  {
    // Stock per location (issue 31). An item's stock rows are kept as its `stock` column (the
    // canonical JSON text the API returns, store/items/stock.ts) and as rows of item_stock:
    // the partial index of its rows with more than 0 serves `location=CODE` pages in _id order
    // (a keyset walk of the index, each item fetched by (organization_id, id)); the plain one
    // finds a removed location's rows. A deleted item's rows go with it (trigger).
    version: 9,
    name: 'locations',
    sql: `
      ALTER TABLE items ADD COLUMN stock TEXT NOT NULL DEFAULT '[]';
      CREATE TABLE locations (
        organization_id TEXT NOT NULL REFERENCES organizations(id),
        id TEXT NOT NULL,
        code TEXT NOT NULL,
        name TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (organization_id, id),
        UNIQUE (organization_id, code)
      );
      CREATE TABLE item_stock (
        organization_id TEXT NOT NULL,
        item_id TEXT NOT NULL,
        location_code TEXT NOT NULL,
        quantity REAL NOT NULL,
        PRIMARY KEY (organization_id, item_id, location_code)
      ) WITHOUT ROWID;
      CREATE INDEX item_stock_positive ON item_stock (organization_id, location_code, item_id)
        WHERE quantity > 0;
      CREATE INDEX item_stock_location ON item_stock (organization_id, location_code);
      CREATE TRIGGER items_stock_delete AFTER DELETE ON items WHEN old.stock <> '[]' BEGIN
        DELETE FROM item_stock WHERE organization_id = old.organization_id AND item_id = old.id;
      END;
    `,
  },
  {
    // Key views (issue 32): what one key may see, as JSON text (domain/view.ts), and when it
    // was last set or cleared (a sync from before then starts over, api/sync.ts).
    version: 10,
    name: 'key_views',
    sql: `
      ALTER TABLE api_keys ADD COLUMN view TEXT;
      ALTER TABLE api_keys ADD COLUMN view_updated_at INTEGER;
    `,
  },
  {
    // Issue 41. Before-images of the change feed: each change of an item that alters what a key
    // view can filter on (status, custom_fields, stock) keeps the values the item had just
    // before it, with the number of the item's previous change (prev_seq) and of its creation,
    // so a sync names an item that left a key's view only if the key could see it since the
    // sync point (store/changes.ts). Updates record themselves by trigger (so a previous release
    // running on this schema records its changes too); a deletion records its own with its
    // tombstone's number. A creation needs no record (before it there was nothing to see), nor
    // does a change of other fields (a quantity: the item looked the same to every view). The
    // records are complete after the position stockroom_meta.before_images_from, the largest
    // change number taken before them. A rowid table: records are appended in change order. No
    // foreign key: a previous release deletes organizations without knowing this table (its
    // rows are purged by age, like tombstones).
    //
    // installation_secrets: secrets of the installation shared by every process, such as the
    // key that signs sync tokens (api/sync-signing.ts), made at first need.
    version: 11,
    name: 'change_before_images',
    sql: `
      CREATE TABLE item_changes (
        organization_id TEXT NOT NULL,
        item_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        prev_seq INTEGER NOT NULL,
        created_seq INTEGER,
        changed_at INTEGER NOT NULL,
        status TEXT,
        custom_fields TEXT,
        stock TEXT,
        PRIMARY KEY (organization_id, item_id, seq)
      );
      CREATE INDEX item_changes_changed_at ON item_changes (changed_at);
      CREATE TRIGGER items_change_before_image AFTER UPDATE OF change_seq ON items
        WHEN new.change_seq <> old.change_seq AND (new.status IS NOT old.status
          OR new.custom_fields IS NOT old.custom_fields OR new.stock IS NOT old.stock) BEGIN
        INSERT OR IGNORE INTO item_changes (organization_id, item_id, seq, prev_seq, created_seq,
          changed_at, status, custom_fields, stock)
        VALUES (new.organization_id, new.id, new.change_seq, old.change_seq, new.created_seq,
          new.updated_at, old.status, old.custom_fields, old.stock);
      END;
      INSERT OR REPLACE INTO stockroom_meta (key, value)
        SELECT 'before_images_from', CAST(COALESCE(MAX(change_seq), 0) AS TEXT) FROM organizations;
      CREATE TABLE installation_secrets (
        name TEXT PRIMARY KEY,
        value TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );
    `,
  },
  {
    // Quantities that are not finite numbers (store/quantity-check.ts): a partial index of
    // exactly those rows on items and on item_stock, empty in a healthy database, so the check
    // every start makes reads two empty indexes instead of the tables.
    version: 12,
    name: 'non_finite_quantities',
    sql: `
      CREATE INDEX items_quantity_not_finite ON items (organization_id, id)
        WHERE quantity IN (9e999, -9e999) OR typeof(quantity) NOT IN ('integer', 'real');
      CREATE INDEX item_stock_quantity_not_finite ON item_stock (organization_id, item_id)
        WHERE quantity IN (9e999, -9e999) OR typeof(quantity) NOT IN ('integer', 'real');
    `,
  },
  {
    // One trigram index per searchable field, on its part of search_text (store/search.ts),
    // for keys whose view hides some of them (docs/architecture.md#key-views): their search reads
    // only the indexes of the fields they may see, so text in a hidden field is never scanned
    // and cannot make a search slower (item-search.ts, searchVisibleFields). Contentless:
    // the folded parts live in search_text. Rows are added with items_search, from its queue
    // (connection.ts); a row changed or deleted leaves them here, indexed or not (deleting a
    // rowid a contentless index does not hold is harmless).
    version: 13,
    name: 'search_field_indexes',
    sql: `
      CREATE VIRTUAL TABLE items_search_name USING fts5(
        text, content='', contentless_delete=1,
        tokenize='trigram case_sensitive 1', detail=full
      );
      INSERT INTO items_search_name (items_search_name, rank) VALUES ('hashsize', 67108864);
      INSERT INTO items_search_name (rowid, text)
        SELECT seq, stockroom_search_part(search_text, 0) FROM items
        WHERE seq NOT IN (SELECT seq FROM items_search_pending);
      CREATE VIRTUAL TABLE items_search_description USING fts5(
        text, content='', contentless_delete=1,
        tokenize='trigram case_sensitive 1', detail=full
      );
      INSERT INTO items_search_description (items_search_description, rank) VALUES ('hashsize', 67108864);
      INSERT INTO items_search_description (rowid, text)
        SELECT seq, stockroom_search_part(search_text, 1) FROM items
        WHERE seq NOT IN (SELECT seq FROM items_search_pending);
      CREATE VIRTUAL TABLE items_search_sku USING fts5(
        text, content='', contentless_delete=1,
        tokenize='trigram case_sensitive 1', detail=full
      );
      INSERT INTO items_search_sku (items_search_sku, rank) VALUES ('hashsize', 67108864);
      INSERT INTO items_search_sku (rowid, text)
        SELECT seq, stockroom_search_part(search_text, 2) FROM items
        WHERE seq NOT IN (SELECT seq FROM items_search_pending);
      CREATE VIRTUAL TABLE items_search_barcode USING fts5(
        text, content='', contentless_delete=1,
        tokenize='trigram case_sensitive 1', detail=full
      );
      INSERT INTO items_search_barcode (items_search_barcode, rank) VALUES ('hashsize', 67108864);
      INSERT INTO items_search_barcode (rowid, text)
        SELECT seq, stockroom_search_part(search_text, 3) FROM items
        WHERE seq NOT IN (SELECT seq FROM items_search_pending);
      CREATE TRIGGER items_search_fields_delete AFTER DELETE ON items BEGIN
        DELETE FROM items_search_name WHERE rowid = old.seq;
        DELETE FROM items_search_description WHERE rowid = old.seq;
        DELETE FROM items_search_sku WHERE rowid = old.seq;
        DELETE FROM items_search_barcode WHERE rowid = old.seq;
      END;
      CREATE TRIGGER items_search_fields_update AFTER UPDATE OF search_text ON items
        WHEN old.search_text IS NOT new.search_text BEGIN
        DELETE FROM items_search_name WHERE rowid = old.seq;
        DELETE FROM items_search_description WHERE rowid = old.seq;
        DELETE FROM items_search_sku WHERE rowid = old.seq;
        DELETE FROM items_search_barcode WHERE rowid = old.seq;
      END;
    `,
  },
];
