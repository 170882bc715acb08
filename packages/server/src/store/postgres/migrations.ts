import type pg from 'pg';
import { postgresSearchText } from './search-text.js';

/**
 * Versioned schema of the PostgreSQL engine. Append only: a released migration never changes.
 *
 * - Every organization-owned table is keyed by organization_id first, and has no unique
 *   constraint without it (migration 2), so the schema can be distributed by organization
 *   (Citus) or served from replicas. organizations and users are small reference tables.
 * - Ids are `text COLLATE "C"`: byte order equals JavaScript string order, which keyset
 *   cursors (`id > $after`) and ORDER BY id rely on, whatever the database's default collation.
 * - Times are epoch milliseconds in bigint, as on SQLite, so both engines return the same values.
 * - custom_fields is `json`, not `jsonb`: json keeps the text byte for byte (key order,
 *   whitespace, escapes) while still refusing malformed JSON.
 * - search_text is the folded search text (search.ts); the trigram index is scoped by
 *   organization through btree_gin, so a search only looks at its own organization's entries.
 */
export interface PostgresMigration {
  version: number;
  name: string;
  sql: string;
  /** Data work SQL cannot do, run after `sql` in the same transaction. */
  run?: (client: pg.PoolClient) => Promise<void>;
}

/** Rows read and rewritten at a time by a data migration. */
const BATCH = 1000;

interface ItemTextRow {
  organization_id: string;
  id: string;
  name: string;
  description: string | null;
  sku: string | null;
  barcode: string | null;
  search_text: string;
}

/**
 * Recomputes every item's search text with the current folding (search-text.ts, the same
 * JavaScript as SQLite's), in key order, a batch at a time, rewriting only the rows whose text
 * changed. Run again by a later migration whenever the folding changes.
 */
export async function refoldSearchText(client: pg.PoolClient): Promise<void> {
  let afterOrganization: string | null = null;
  let afterId: string | null = null;
  for (;;) {
    const result = await client.query<ItemTextRow>(
      `SELECT organization_id, id, name, description, sku, barcode, search_text FROM items
       WHERE $1::text IS NULL OR (organization_id, id) > ($1::text, $2::text)
       ORDER BY organization_id, id LIMIT ${BATCH}`,
      [afterOrganization, afterId],
    );
    const rows: ItemTextRow[] = result.rows;
    const changed = rows.filter((row) => postgresSearchText(row) !== row.search_text);
    if (changed.length > 0) {
      await client.query(
        `UPDATE items i SET search_text = u.search_text
         FROM unnest($1::text[], $2::text[], $3::text[]) AS u(organization_id, id, search_text)
         WHERE i.organization_id = u.organization_id AND i.id = u.id`,
        [
          changed.map((row) => row.organization_id),
          changed.map((row) => row.id),
          changed.map((row) => postgresSearchText(row)),
        ],
      );
    }
    const last: ItemTextRow | undefined = rows[rows.length - 1];
    if (!last || rows.length < BATCH) return;
    afterOrganization = last.organization_id;
    afterId = last.id;
  }
}

export const POSTGRES_MIGRATIONS: PostgresMigration[] = [
  {
    version: 1,
    name: 'initial',
    sql: `
      -- Trusted extensions (PostgreSQL 13+): a database owner may create them.
      CREATE EXTENSION IF NOT EXISTS pg_trgm;
      CREATE EXTENSION IF NOT EXISTS btree_gin;

      CREATE TABLE organizations (
        id text COLLATE "C" PRIMARY KEY,
        name text NOT NULL,
        slug text NOT NULL UNIQUE,
        features text[] NOT NULL DEFAULT '{}',
        created_at bigint NOT NULL,
        updated_at bigint NOT NULL
      );
      CREATE TABLE users (
        id text COLLATE "C" PRIMARY KEY,
        email text NOT NULL,
        email_normalized text NOT NULL UNIQUE,
        name text,
        created_at bigint NOT NULL
      );
      CREATE TABLE memberships (
        organization_id text COLLATE "C" NOT NULL REFERENCES organizations (id),
        user_id text COLLATE "C" NOT NULL REFERENCES users (id),
        created_at bigint NOT NULL,
        PRIMARY KEY (organization_id, user_id)
      );
      CREATE TABLE api_keys (
        organization_id text COLLATE "C" NOT NULL REFERENCES organizations (id),
        id text COLLATE "C" NOT NULL UNIQUE,
        user_id text COLLATE "C" REFERENCES users (id),
        type text NOT NULL CHECK (type IN ('organization', 'user')),
        name text NOT NULL,
        prefix text NOT NULL,
        hash text NOT NULL UNIQUE,
        permissions text[] NOT NULL,
        expires_at bigint,
        remaining bigint CHECK (remaining IS NULL OR remaining >= 0),
        rate_limit_max integer,
        rate_limit_window integer,
        enabled boolean NOT NULL DEFAULT true,
        revoked_at bigint,
        created_at bigint NOT NULL,
        last_used_at bigint,
        PRIMARY KEY (organization_id, id)
      );
      CREATE TABLE items (
        organization_id text COLLATE "C" NOT NULL REFERENCES organizations (id),
        id text COLLATE "C" NOT NULL,
        name text NOT NULL,
        description text,
        sku text,
        barcode text,
        status text NOT NULL CHECK (status IN ('Draft', 'Active', 'Inactive', 'Discontinued')),
        quantity double precision NOT NULL,
        custom_fields json NOT NULL DEFAULT '{}',
        search_text text NOT NULL,
        created_at bigint NOT NULL,
        updated_at bigint NOT NULL,
        PRIMARY KEY (organization_id, id)
      );
      CREATE UNIQUE INDEX items_organization_sku ON items (organization_id, sku) WHERE sku IS NOT NULL;
      CREATE INDEX items_organization_status ON items (organization_id, status, id);
      -- The trigram operator class is named, so qualify it with the schema pg_trgm lives in
      -- (it need not be on the search_path of the schema Stockroom uses).
      DO $$
      DECLARE trgm_schema text;
      BEGIN
        SELECT quote_ident(n.nspname) INTO trgm_schema
          FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
          WHERE e.extname = 'pg_trgm';
        EXECUTE format(
          'CREATE INDEX items_organization_search ON items USING gin (organization_id, search_text %s.gin_trgm_ops)',
          trgm_schema);
      END $$;

      -- Fixed-window counters of the database rate limiter (used without Redis). Ephemeral
      -- state: UNLOGGED skips the WAL (a crash only resets the current windows).
      CREATE UNLOGGED TABLE rate_limit_counters (
        key_id text COLLATE "C" NOT NULL,
        window_seconds integer NOT NULL,
        window_index bigint NOT NULL,
        hits integer NOT NULL,
        expires_at bigint NOT NULL,
        PRIMARY KEY (key_id, window_seconds, window_index)
      );
      CREATE INDEX rate_limit_counters_expiry ON rate_limit_counters (expires_at);
    `,
  },
  {
    // Every table an organization owns keyed by organization_id first, with no unique
    // constraint that leaves it out: a table distributed by organization_id (Citus) can only
    // enforce uniqueness that includes the distribution column.
    //
    // - rate_limit_counters: re-keyed (organization_id, key_id, window…). The counters are
    //   ephemeral (UNLOGGED), so the table is recreated: windows in progress start afresh.
    // - api_keys: UNIQUE (id) and UNIQUE (hash) become UNIQUE (organization_id, hash) plus
    //   plain indexes on hash (authentication looks a key up before knowing its organization)
    //   and on id (the CLI names keys by id). Ids and hashes stay unique by construction:
    //   ObjectIds, and SHA-256 of 32 random base62 characters.
    //
    // organizations and users stay keyed by their own ids: small reference tables (under
    // Citus, replicated to every node), as is schema_migrations.
    version: 2,
    name: 'keyed_by_organization',
    sql: `
      DROP TABLE rate_limit_counters;
      CREATE UNLOGGED TABLE rate_limit_counters (
        organization_id text COLLATE "C" NOT NULL,
        key_id text COLLATE "C" NOT NULL,
        window_seconds integer NOT NULL,
        window_index bigint NOT NULL,
        hits integer NOT NULL,
        expires_at bigint NOT NULL,
        PRIMARY KEY (organization_id, key_id, window_seconds, window_index)
      );
      CREATE INDEX rate_limit_counters_expiry ON rate_limit_counters (expires_at);

      ALTER TABLE api_keys DROP CONSTRAINT api_keys_id_key, DROP CONSTRAINT api_keys_hash_key;
      ALTER TABLE api_keys ADD CONSTRAINT api_keys_organization_hash_key UNIQUE (organization_id, hash);
      CREATE INDEX api_keys_hash ON api_keys (hash);
      CREATE INDEX api_keys_id ON api_keys (id);
    `,
  },
  {
    // Facts about the database itself, not about an organization (like schema_migrations):
    // `copied_from` names the embedded database `db copy` filled it from, so a rerun knows
    // the target holds an earlier copy of the same source.
    version: 3,
    name: 'stockroom_meta',
    sql: `
      CREATE TABLE stockroom_meta (key text PRIMARY KEY, value text NOT NULL);
    `,
  },
  {
    // Search text was folded by upper-then-lower case mapping, which is not Unicode simple case
    // folding (it folded dotless ı into i, and missed a few mappings): fold it again.
    version: 4,
    name: 'simple_case_folding',
    sql: '',
    run: refoldSearchText,
  },
  {
    // Key rotation keeps one key (id, quota, rate limit, history) and gives it a new secret;
    // the previous secret's hash stays valid until the grace period ends. The audit log is
    // keyed by organization first like every organization-owned table, but has no foreign
    // key: it outlives an organization's deletion.
    version: 5,
    name: 'key_rotation_and_audit_log',
    sql: `
      ALTER TABLE api_keys ADD COLUMN previous_hash text, ADD COLUMN previous_hash_expires_at bigint;
      CREATE INDEX api_keys_previous_hash ON api_keys (previous_hash) WHERE previous_hash IS NOT NULL;
      CREATE TABLE audit_events (
        organization_id text COLLATE "C" NOT NULL,
        id text COLLATE "C" NOT NULL,
        at bigint NOT NULL,
        actor text NOT NULL,
        action text NOT NULL,
        target text,
        details text NOT NULL DEFAULT '{}',
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
    // ChangeQuery in store/types.ts), taken by `UPDATE organizations … RETURNING` in the write's
    // transaction: the row lock orders the writers of an organization by commit, so a reader
    // that sees number N sees every change up to N. Existing rows are numbered in
    // (updated_at, id) order by the same rule, unrolled into a window:
    // seq(n) = n + max(0, max over k ≤ n of stamp(k) − k). Stamps are clamped to [0, year 2223]
    // so no odd updated_at can overflow the arithmetic or pass 2^53.
    //
    // items.change_seq keeps no default once filled: a write path that forgot to number its
    // rows fails at once instead of hiding them from the feed.
    //
    // The barcode index carries id so a page of one barcode is read in _id order (keyset
    // paging); the sku lookup has items_organization_sku (unique, the upsert key).
    version: 6,
    name: 'change_feed',
    sql: `
      ALTER TABLE items ADD COLUMN change_seq bigint NOT NULL DEFAULT 0;
      ALTER TABLE organizations ADD COLUMN change_seq bigint NOT NULL DEFAULT 0;
      UPDATE items i SET change_seq = numbered.change_seq
      FROM (
        SELECT organization_id, id,
          n + GREATEST(0, max(stamp - n) OVER (
            PARTITION BY organization_id ORDER BY updated_at, id ROWS UNBOUNDED PRECEDING
          )) AS change_seq
        FROM (
          SELECT organization_id, id, updated_at,
            LEAST(GREATEST(updated_at, 0), 8000000000000) * 1000 AS stamp,
            row_number() OVER (PARTITION BY organization_id ORDER BY updated_at, id) AS n
          FROM items
        ) AS ordered
      ) AS numbered
      WHERE i.organization_id = numbered.organization_id AND i.id = numbered.id;
      ALTER TABLE items ALTER COLUMN change_seq DROP DEFAULT;
      CREATE INDEX items_organization_change ON items (organization_id, change_seq);
      UPDATE organizations o SET change_seq = COALESCE(
        (SELECT max(change_seq) FROM items WHERE organization_id = o.id), 0);
      CREATE INDEX items_organization_barcode ON items (organization_id, barcode, id)
        WHERE barcode IS NOT NULL;

      -- Deleted items, read after a position in change order, purged by age.
      CREATE TABLE item_tombstones (
        organization_id text COLLATE "C" NOT NULL REFERENCES organizations (id),
        seq bigint NOT NULL,
        item_id text COLLATE "C" NOT NULL,
        deleted_at bigint NOT NULL,
        PRIMARY KEY (organization_id, seq)
      );
      CREATE INDEX item_tombstones_deleted_at ON item_tombstones (deleted_at);
    `,
  },
  {
    // Webhooks (issue 8): each webhook reads its organization's change feed from its cursor into
    // deliveries, one pending at a time (webhooks/dispatcher.ts). items.created_seq is the
    // change number an item's creation took, so a delivery tells created from updated exactly;
    // rows created before this migration keep null (they predate every webhook). A nullable
    // column without a default is added without rewriting the table.
    //
    // A pending delivery is leased by the process sending it (lease_until; claimed with
    // SKIP LOCKED), so several processes never send one delivery at the same time.
    version: 7,
    name: 'webhooks',
    sql: `
      ALTER TABLE items ADD COLUMN created_seq bigint;
      CREATE TABLE webhooks (
        organization_id text COLLATE "C" NOT NULL REFERENCES organizations (id),
        id text COLLATE "C" NOT NULL,
        url text NOT NULL,
        events text[] NOT NULL,
        description text,
        secret text NOT NULL,
        enabled boolean NOT NULL DEFAULT true,
        disabled_reason text,
        cursor bigint NOT NULL,
        caught_up_seq bigint NOT NULL,
        created_at bigint NOT NULL,
        PRIMARY KEY (organization_id, id)
      );
      CREATE TABLE webhook_deliveries (
        organization_id text COLLATE "C" NOT NULL,
        id text COLLATE "C" NOT NULL,
        webhook_id text COLLATE "C" NOT NULL,
        state text NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
        payload text NOT NULL,
        event_count integer NOT NULL,
        attempts integer NOT NULL DEFAULT 0,
        created_at bigint NOT NULL,
        next_attempt_at bigint,
        lease_until bigint,
        last_attempt_at bigint,
        last_status integer,
        last_error text,
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
    // canonical JSON text the API returns as is, store/items/stock.ts) and as rows of
    // item_stock: the partial index of its rows with more than 0 serves `location=CODE` pages
    // in _id order (a keyset walk of the index, each item fetched by its primary key); the
    // plain one finds a removed location's rows. A deleted item's rows go with it (cascade).
    // A column with a constant default is added without rewriting the table.
    version: 8,
    name: 'locations',
    sql: `
      ALTER TABLE items ADD COLUMN stock text NOT NULL DEFAULT '[]';
      CREATE TABLE locations (
        organization_id text COLLATE "C" NOT NULL REFERENCES organizations (id),
        id text COLLATE "C" NOT NULL,
        code text COLLATE "C" NOT NULL,
        name text NOT NULL,
        created_at bigint NOT NULL,
        PRIMARY KEY (organization_id, id),
        UNIQUE (organization_id, code)
      );
      CREATE TABLE item_stock (
        organization_id text COLLATE "C" NOT NULL,
        item_id text COLLATE "C" NOT NULL,
        location_code text COLLATE "C" NOT NULL,
        quantity double precision NOT NULL,
        PRIMARY KEY (organization_id, item_id, location_code),
        FOREIGN KEY (organization_id, item_id) REFERENCES items (organization_id, id) ON DELETE CASCADE
      );
      CREATE INDEX item_stock_positive ON item_stock (organization_id, location_code, item_id)
        WHERE quantity > 0;
      CREATE INDEX item_stock_location ON item_stock (organization_id, location_code);
    `,
  },
  {
    // Key views (issue 32): what one key may see (domain/view.ts), and when it was last set
    // or cleared (a sync from before then starts over, api/sync.ts).
    version: 9,
    name: 'key_views',
    sql: `
      ALTER TABLE api_keys ADD COLUMN view jsonb;
      ALTER TABLE api_keys ADD COLUMN view_updated_at bigint;
    `,
  },
  {
    // `location=CODE&status=S` (issue 31): each stock row carries its item's status, which
    // item_stock_positive holds (INCLUDE), so a page's status filter runs on the index before
    // any item is fetched. Before, every stock row of the walk fetched its item through the
    // primary key just to test the status: a rare status fetched and dropped about 20 items
    // per item kept (Discontinued at 5%: 2,000 items for a page of 100, 34 ms cold).
    // The writes keep it equal to items.status (item-writes.ts; copy.ts).
    //
    // The table is rebuilt rather than updated in place: an UPDATE of every row writes a new
    // version of each, in the heap and in every index (26 s at 1,000,000 items, table and
    // indexes twice their size until vacuumed), where the rebuild takes 10 s. Rows go in
    // (organization, item) order, as the writes make them. The constraint and index names stay
    // those of migration 8.
    version: 10,
    name: 'stock_status',
    sql: `
      CREATE TABLE item_stock_next (
        organization_id text COLLATE "C" NOT NULL,
        item_id text COLLATE "C" NOT NULL,
        location_code text COLLATE "C" NOT NULL,
        quantity double precision NOT NULL,
        status text NOT NULL
      );
      INSERT INTO item_stock_next (organization_id, item_id, location_code, quantity, status)
        SELECT s.organization_id, s.item_id, s.location_code, s.quantity, i.status
        FROM item_stock s JOIN items i ON i.organization_id = s.organization_id AND i.id = s.item_id
        ORDER BY s.organization_id, s.item_id, s.location_code;
      DROP TABLE item_stock;
      ALTER TABLE item_stock_next RENAME TO item_stock;
      ALTER TABLE item_stock
        ADD CONSTRAINT item_stock_pkey PRIMARY KEY (organization_id, item_id, location_code),
        ADD CONSTRAINT item_stock_organization_id_item_id_fkey FOREIGN KEY (organization_id, item_id)
          REFERENCES items (organization_id, id) ON DELETE CASCADE;
      CREATE INDEX item_stock_positive ON item_stock (organization_id, location_code, item_id)
        INCLUDE (status) WHERE quantity > 0;
      CREATE INDEX item_stock_location ON item_stock (organization_id, location_code);
      -- A new table has no statistics: planned as empty until autovacuum analyses it.
      ANALYZE item_stock;
    `,
  },
  {
    // Issue 41. Before-images of the change feed: each change of an item that alters what a key
    // view can filter on (status, custom_fields, stock) keeps the values the item had just
    // before it, with the number of the item's previous change (prev_seq) and of its creation,
    // so a sync names an item that left a key's view only if the key could see it since the
    // sync point (store/changes.ts). Updates record themselves by a statement trigger, set-based
    // over the statement's transition tables (so a previous release running on this schema
    // records its changes too); a deletion records its own with its tombstone's number. A
    // creation needs no record (before it there was nothing to see), nor does a change of
    // other fields (a quantity: the item looked the same to every view). The records are
    // complete after the position stockroom_meta.before_images_from, the largest change number
    // taken before them. No foreign key: a previous release deletes organizations without
    // knowing this table (its rows are purged by age, like tombstones).
    //
    // installation_secrets: secrets of the installation shared by every process, such as the
    // key that signs sync tokens (api/sync-signing.ts), made at first need.
    version: 11,
    name: 'change_before_images',
    sql: `
      CREATE TABLE item_changes (
        organization_id text COLLATE "C" NOT NULL,
        item_id text COLLATE "C" NOT NULL,
        seq bigint NOT NULL,
        prev_seq bigint NOT NULL,
        created_seq bigint,
        changed_at bigint NOT NULL,
        status text,
        custom_fields json,
        stock text,
        PRIMARY KEY (organization_id, item_id, seq)
      );
      CREATE INDEX item_changes_changed_at ON item_changes (changed_at);
      CREATE FUNCTION stockroom_item_before_images() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        INSERT INTO item_changes (organization_id, item_id, seq, prev_seq, created_seq,
          changed_at, status, custom_fields, stock)
        SELECT n.organization_id, n.id, n.change_seq, o.change_seq, n.created_seq,
          n.updated_at, o.status, o.custom_fields, o.stock
        FROM new_items n JOIN old_items o ON o.organization_id = n.organization_id AND o.id = n.id
        WHERE n.change_seq <> o.change_seq AND (n.status, n.custom_fields::text, n.stock)
          IS DISTINCT FROM (o.status, o.custom_fields::text, o.stock)
        ON CONFLICT DO NOTHING;
        RETURN NULL;
      END
      $fn$;
      CREATE TRIGGER items_change_before_image AFTER UPDATE ON items
        REFERENCING OLD TABLE AS old_items NEW TABLE AS new_items
        FOR EACH STATEMENT EXECUTE FUNCTION stockroom_item_before_images();
      INSERT INTO stockroom_meta (key, value)
        SELECT 'before_images_from', COALESCE(max(change_seq), 0)::text FROM organizations
        ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value;
      CREATE TABLE installation_secrets (
        name text COLLATE "C" PRIMARY KEY,
        value text NOT NULL,
        created_at bigint NOT NULL
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
        WHERE quantity IN ('Infinity', '-Infinity', 'NaN');
      CREATE INDEX item_stock_quantity_not_finite ON item_stock (organization_id, item_id)
        WHERE quantity IN ('Infinity', '-Infinity', 'NaN');
    `,
  },
  {
    // A trigram index of each searchable field's part of search_text (search-text.ts), one
    // column per field, for keys whose view hides some of them (docs/architecture.md#key-views):
    // their search reads only the columns of the fields they may see (a multicolumn GIN index
    // keys each entry by its column), so text in a hidden field is never scanned and cannot
    // make a search slower (item-scope.ts, searchFieldsCondition). One index rather than four:
    // a write adds to one more index, not four.
    version: 13,
    name: 'search_field_index',
    sql: `
      DO $$
      DECLARE trgm_schema text;
      BEGIN
        SELECT quote_ident(n.nspname) INTO trgm_schema
          FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
          WHERE e.extname = 'pg_trgm';
        EXECUTE format(
          'CREATE INDEX items_organization_search_fields ON items USING gin (organization_id, '
          || 'split_part(search_text, %1$L, 1) %2$s.gin_trgm_ops, split_part(search_text, %1$L, 2) %2$s.gin_trgm_ops, '
          || 'split_part(search_text, %1$L, 3) %2$s.gin_trgm_ops, split_part(search_text, %1$L, 4) %2$s.gin_trgm_ops)',
          'A', trgm_schema);
      END $$;
    `,
  },
];

/** Serializes migrations of every process on one database (any schema). */
export const MIGRATION_LOCK = "hashtext('stockroom.migrate')";
