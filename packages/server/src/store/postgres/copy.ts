import type pg from 'pg';
import Database, { type SqliteDatabase } from '../sqlite/driver.js';
import { SqliteStore } from '../sqlite/sqlite-store.js';
import { PostgresStore } from './postgres-store.js';
import { postgresSearchText } from './search-text.js';

/**
 * `stockroom db copy`: the embedded SQLite database into PostgreSQL, table by table in
 * batches, each batch one idempotent upsert (by primary key, the source winning), so a copy
 * that failed halfway is simply run again. The source is read in one transaction: a snapshot,
 * even if a server still writes to it.
 *
 * The target records which database it was filled from (stockroom_meta.copied_from = the
 * source's database_id). A rerun into an earlier copy of the same source converges: rows the
 * source no longer has are deleted from the target first (webhook deliveries, webhooks, audit
 * events, tombstones, items, API keys, memberships, users, organizations: dependents before what
 * they depend on), each batch in its own transaction, then everything is upserted again. A
 * target holding anything else is refused. Change numbers (items, organizations, tombstones,
 * webhook cursors) are copied as they are, and so are the changes' before-images and the
 * installation's secrets (the key that signs sync tokens), so a sync client's position and
 * token, and a webhook's position, stay valid across the move.
 */

export class CopyError extends Error {
  override name = 'CopyError';
}

type Row = Record<string, unknown>;

interface Table {
  name: string;
  /** What the report calls it. */
  label:
    | 'organizations'
    | 'users'
    | 'memberships'
    | 'apiKeys'
    | 'items'
    | 'locations'
    | 'stock'
    | 'tombstones'
    | 'changes'
    | 'secrets'
    | 'auditEvents'
    | 'webhooks'
    | 'webhookDeliveries';
  /** Source columns, read in primary-key order. */
  select: string;
  key: string[];
  /** PostgreSQL types of the key columns, when not all text. */
  keyTypes?: string[];
  /** Writes one batch; returns nothing, throws on failure. */
  write(client: pg.PoolClient, rows: Row[]): Promise<void>;
}

export type CopyCounts = Record<Table['label'], number>;

export interface CopyResult {
  /** Rows of each table in the source, all now in the target. */
  copied: CopyCounts;
  /** Rows of each table deleted from the target because the source no longer has them. */
  deleted: CopyCounts;
}

export interface CopyOptions {
  batchSize?: number;
  /** Called after each batch with the rows copied so far of the current table. */
  onProgress?: (table: Table['label'], done: number, total: number) => void;
  timeoutMs?: number;
}

const col = <T>(rows: Row[], name: string, map: (value: unknown) => T = (v) => v as T) =>
  rows.map((row) => map(row[name]));

/** PostgreSQL text cannot hold U+0000: name the row instead of failing on a driver error. */
function refuseNul(table: string, rows: Row[]): void {
  for (const row of rows) {
    for (const [column, value] of Object.entries(row)) {
      if (typeof value === 'string' && value.includes('\u0000')) {
        throw new CopyError(
          `${table} ${String(row.id ?? row.user_id)}: ${column} contains U+0000, which PostgreSQL cannot store; fix it in the source and run the copy again`,
        );
      }
    }
  }
}

const TABLES: Table[] = [
  {
    name: 'organizations',
    label: 'organizations',
    // change_seq: the organization's change feed goes on where the source's stood.
    select: 'id, name, slug, features, created_at, updated_at, change_seq',
    key: ['id'],
    async write(client, rows) {
      await client.query(
        `INSERT INTO organizations (id, name, slug, features, created_at, updated_at, change_seq)
         SELECT u.id, u.name, u.slug, ARRAY(SELECT json_array_elements_text(u.features::json)), u.created_at, u.updated_at, u.change_seq
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::bigint[], $7::bigint[])
           AS u(id, name, slug, features, created_at, updated_at, change_seq)
         ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, slug = EXCLUDED.slug,
           features = EXCLUDED.features, created_at = EXCLUDED.created_at, updated_at = EXCLUDED.updated_at,
           change_seq = EXCLUDED.change_seq`,
        [
          col(rows, 'id'),
          col(rows, 'name'),
          col(rows, 'slug'),
          col(rows, 'features'),
          col(rows, 'created_at'),
          col(rows, 'updated_at'),
          col(rows, 'change_seq'),
        ],
      );
    },
  },
  {
    name: 'users',
    label: 'users',
    select: 'id, email, email_normalized, name, created_at',
    key: ['id'],
    async write(client, rows) {
      await client.query(
        `INSERT INTO users (id, email, email_normalized, name, created_at)
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[])
         ON CONFLICT (id) DO UPDATE SET email = EXCLUDED.email,
           email_normalized = EXCLUDED.email_normalized, name = EXCLUDED.name, created_at = EXCLUDED.created_at`,
        [
          col(rows, 'id'),
          col(rows, 'email'),
          col(rows, 'email_normalized'),
          col(rows, 'name'),
          col(rows, 'created_at'),
        ],
      );
    },
  },
  {
    name: 'memberships',
    label: 'memberships',
    select: 'organization_id, user_id, created_at',
    key: ['organization_id', 'user_id'],
    async write(client, rows) {
      await client.query(
        `INSERT INTO memberships (organization_id, user_id, created_at)
         SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[])
         ON CONFLICT (organization_id, user_id) DO UPDATE SET created_at = EXCLUDED.created_at`,
        [col(rows, 'organization_id'), col(rows, 'user_id'), col(rows, 'created_at')],
      );
    },
  },
  {
    name: 'api_keys',
    label: 'apiKeys',
    select:
      'organization_id, id, user_id, type, name, prefix, hash, permissions, expires_at, remaining, rate_limit_max, rate_limit_window, enabled, revoked_at, created_at, last_used_at, previous_hash, previous_hash_expires_at',
    key: ['organization_id', 'id'],
    async write(client, rows) {
      await client.query(
        `INSERT INTO api_keys (organization_id, id, user_id, type, name, prefix, hash, permissions,
           expires_at, remaining, rate_limit_max, rate_limit_window, enabled, revoked_at, created_at,
           last_used_at, previous_hash, previous_hash_expires_at)
         SELECT u.organization_id, u.id, u.user_id, u.type, u.name, u.prefix, u.hash,
           ARRAY(SELECT json_array_elements_text(u.permissions::json)), u.expires_at, u.remaining,
           u.rate_limit_max, u.rate_limit_window, u.enabled, u.revoked_at, u.created_at, u.last_used_at,
           u.previous_hash, u.previous_hash_expires_at
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
           $8::text[], $9::bigint[], $10::bigint[], $11::int[], $12::int[], $13::boolean[],
           $14::bigint[], $15::bigint[], $16::bigint[], $17::text[], $18::bigint[])
           AS u(organization_id, id, user_id, type, name, prefix, hash, permissions, expires_at,
             remaining, rate_limit_max, rate_limit_window, enabled, revoked_at, created_at, last_used_at,
             previous_hash, previous_hash_expires_at)
         ON CONFLICT (organization_id, id) DO UPDATE SET user_id = EXCLUDED.user_id,
           type = EXCLUDED.type, name = EXCLUDED.name, prefix = EXCLUDED.prefix, hash = EXCLUDED.hash,
           permissions = EXCLUDED.permissions, expires_at = EXCLUDED.expires_at,
           remaining = EXCLUDED.remaining, rate_limit_max = EXCLUDED.rate_limit_max,
           rate_limit_window = EXCLUDED.rate_limit_window, enabled = EXCLUDED.enabled,
           revoked_at = EXCLUDED.revoked_at, created_at = EXCLUDED.created_at,
           last_used_at = EXCLUDED.last_used_at, previous_hash = EXCLUDED.previous_hash,
           previous_hash_expires_at = EXCLUDED.previous_hash_expires_at`,
        [
          ...[
            'organization_id',
            'id',
            'user_id',
            'type',
            'name',
            'prefix',
            'hash',
            'permissions',
            'expires_at',
            'remaining',
            'rate_limit_max',
            'rate_limit_window',
          ].map((name) => col(rows, name)),
          col(rows, 'enabled', (value) => value === 1),
          col(rows, 'revoked_at'),
          col(rows, 'created_at'),
          col(rows, 'last_used_at'),
          col(rows, 'previous_hash'),
          col(rows, 'previous_hash_expires_at'),
        ],
      );
    },
  },
  {
    name: 'audit_events',
    label: 'auditEvents',
    select: 'organization_id, id, at, actor, action, target, details',
    key: ['organization_id', 'id'],
    async write(client, rows) {
      await client.query(
        `INSERT INTO audit_events (organization_id, id, at, actor, action, target, details)
         SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[], $5::text[],
           $6::text[], $7::text[])
         ON CONFLICT (organization_id, id) DO UPDATE SET at = EXCLUDED.at, actor = EXCLUDED.actor,
           action = EXCLUDED.action, target = EXCLUDED.target, details = EXCLUDED.details`,
        ['organization_id', 'id', 'at', 'actor', 'action', 'target', 'details'].map((name) =>
          col(rows, name),
        ),
      );
    },
  },
  {
    name: 'items',
    label: 'items',
    select:
      'organization_id, id, name, description, sku, barcode, status, quantity, stock, custom_fields, created_at, updated_at, change_seq, created_seq',
    key: ['organization_id', 'id'],
    async write(client, rows) {
      const params = [
        col(rows, 'organization_id'),
        col(rows, 'id'),
        col(rows, 'name'),
        col(rows, 'description'),
        col(rows, 'sku'),
        col(rows, 'barcode'),
        col(rows, 'status'),
        col(rows, 'quantity'),
        col(rows, 'custom_fields'),
        col(rows, 'stock'),
        // Recomputed: PostgreSQL separates the fields of the search text differently.
        rows.map((row) =>
          postgresSearchText(
            row as {
              name: string;
              description: string | null;
              sku: string | null;
              barcode: string | null;
            },
          ),
        ),
        col(rows, 'created_at'),
        col(rows, 'updated_at'),
        col(rows, 'change_seq'),
        col(rows, 'created_seq'),
      ];
      // A rerun after the source re-created an item under a known sku: the old one goes.
      await client.query(
        `DELETE FROM items t USING unnest($1::text[], $2::text[], $3::text[]) AS u(organization_id, id, sku)
         WHERE t.organization_id = u.organization_id AND t.sku = u.sku AND t.id <> u.id`,
        [params[0], params[1], params[4]],
      );
      await client.query(
        `INSERT INTO items (organization_id, id, name, description, sku, barcode, status, quantity,
           custom_fields, stock, search_text, created_at, updated_at, change_seq, created_seq)
         SELECT u.organization_id, u.id, u.name, u.description, u.sku, u.barcode, u.status, u.quantity,
           u.custom_fields::json, u.stock, u.search_text, u.created_at, u.updated_at, u.change_seq, u.created_seq
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
           $8::float8[], $9::text[], $10::text[], $11::text[], $12::bigint[], $13::bigint[],
           $14::bigint[], $15::bigint[])
           AS u(organization_id, id, name, description, sku, barcode, status, quantity, custom_fields,
             stock, search_text, created_at, updated_at, change_seq, created_seq)
         ON CONFLICT (organization_id, id) DO UPDATE SET name = EXCLUDED.name,
           description = EXCLUDED.description, sku = EXCLUDED.sku, barcode = EXCLUDED.barcode,
           status = EXCLUDED.status, quantity = EXCLUDED.quantity,
           custom_fields = EXCLUDED.custom_fields, stock = EXCLUDED.stock,
           search_text = EXCLUDED.search_text,
           created_at = EXCLUDED.created_at, updated_at = EXCLUDED.updated_at,
           change_seq = EXCLUDED.change_seq, created_seq = EXCLUDED.created_seq`,
        params,
      );
      // An update's trigger recorded the target's old row as a before-image of the source's
      // change: the source's own records (item_changes, copied next) are the truth.
      await client.query(
        `DELETE FROM item_changes c USING unnest($1::text[], $2::text[], $3::bigint[]) AS u(organization_id, id, change_seq)
         WHERE c.organization_id = u.organization_id AND c.item_id = u.id AND c.seq = u.change_seq`,
        [params[0], params[1], params[13]],
      );
    },
  },
  {
    // Locations and the items' stock rows (issue 31), as they are.
    name: 'locations',
    label: 'locations',
    select: 'organization_id, id, code, name, created_at',
    key: ['organization_id', 'id'],
    async write(client, rows) {
      // A rerun after the source re-created a location under a known code: the old one goes.
      await client.query(
        `DELETE FROM locations t USING unnest($1::text[], $2::text[], $3::text[]) AS u(organization_id, id, code)
         WHERE t.organization_id = u.organization_id AND t.code = u.code AND t.id <> u.id`,
        ['organization_id', 'id', 'code'].map((name) => col(rows, name)),
      );
      await client.query(
        `INSERT INTO locations (organization_id, id, code, name, created_at)
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[])
         ON CONFLICT (organization_id, id) DO UPDATE SET code = EXCLUDED.code,
           name = EXCLUDED.name, created_at = EXCLUDED.created_at`,
        ['organization_id', 'id', 'code', 'name', 'created_at'].map((name) => col(rows, name)),
      );
    },
  },
  {
    name: 'item_stock',
    label: 'stock',
    select: 'organization_id, item_id, location_code, quantity',
    key: ['organization_id', 'item_id', 'location_code'],
    async write(client, rows) {
      // Each row with its item's status (PostgreSQL's item_stock carries it, migration 10),
      // read from the items copied before it.
      await client.query(
        `INSERT INTO item_stock (organization_id, item_id, location_code, quantity, status)
         SELECT u.organization_id, u.item_id, u.location_code, u.quantity, i.status
         FROM unnest($1::text[], $2::text[], $3::text[], $4::float8[])
           AS u(organization_id, item_id, location_code, quantity)
         JOIN items i ON i.organization_id = u.organization_id AND i.id = u.item_id
         ON CONFLICT (organization_id, item_id, location_code) DO UPDATE SET
           quantity = EXCLUDED.quantity, status = EXCLUDED.status`,
        ['organization_id', 'item_id', 'location_code', 'quantity'].map((name) => col(rows, name)),
      );
    },
  },
  {
    // Deleted items of the change feed: a sync client that read the source learns of the
    // deletions made there before the copy, from the same positions.
    name: 'item_tombstones',
    label: 'tombstones',
    select: 'organization_id, seq, item_id, deleted_at',
    key: ['organization_id', 'seq'],
    keyTypes: ['text', 'bigint'],
    async write(client, rows) {
      await client.query(
        `INSERT INTO item_tombstones (organization_id, seq, item_id, deleted_at)
         SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::bigint[])
         ON CONFLICT (organization_id, seq) DO UPDATE SET item_id = EXCLUDED.item_id,
           deleted_at = EXCLUDED.deleted_at`,
        ['organization_id', 'seq', 'item_id', 'deleted_at'].map((name) => col(rows, name)),
      );
    },
  },
  {
    // The before-images of the changes (migration 11): a sync client of a key with a view is
    // told of exactly the items it could have seen, from the same positions.
    name: 'item_changes',
    label: 'changes',
    select:
      'organization_id, item_id, seq, prev_seq, created_seq, changed_at, status, custom_fields, stock',
    key: ['organization_id', 'item_id', 'seq'],
    keyTypes: ['text', 'text', 'bigint'],
    async write(client, rows) {
      await client.query(
        `INSERT INTO item_changes (organization_id, item_id, seq, prev_seq, created_seq, changed_at,
           status, custom_fields, stock)
         SELECT u.organization_id, u.item_id, u.seq, u.prev_seq, u.created_seq, u.changed_at,
           u.status, u.custom_fields::json, u.stock
         FROM unnest($1::text[], $2::text[], $3::bigint[], $4::bigint[], $5::bigint[], $6::bigint[],
           $7::text[], $8::text[], $9::text[])
           AS u(organization_id, item_id, seq, prev_seq, created_seq, changed_at, status,
             custom_fields, stock)
         ON CONFLICT (organization_id, item_id, seq) DO UPDATE SET prev_seq = EXCLUDED.prev_seq,
           created_seq = EXCLUDED.created_seq, changed_at = EXCLUDED.changed_at,
           status = EXCLUDED.status, custom_fields = EXCLUDED.custom_fields, stock = EXCLUDED.stock`,
        [
          'organization_id',
          'item_id',
          'seq',
          'prev_seq',
          'created_seq',
          'changed_at',
          'status',
          'custom_fields',
          'stock',
        ].map((name) => col(rows, name)),
      );
    },
  },
  {
    // The installation's secrets (migration 11), the source's winning: the sync tokens it
    // issued stay valid on the target.
    name: 'installation_secrets',
    label: 'secrets',
    select: 'name, value, created_at',
    key: ['name'],
    async write(client, rows) {
      await client.query(
        `INSERT INTO installation_secrets (name, value, created_at)
         SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[])
         ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value, created_at = EXCLUDED.created_at`,
        ['name', 'value', 'created_at'].map((name) => col(rows, name)),
      );
    },
  },
  {
    // Webhooks go on from their positions in the change feed (copied as they are).
    name: 'webhooks',
    label: 'webhooks',
    select:
      'organization_id, id, url, events, description, secret, enabled, disabled_reason, cursor, caught_up_seq, created_at',
    key: ['organization_id', 'id'],
    async write(client, rows) {
      await client.query(
        `INSERT INTO webhooks (organization_id, id, url, events, description, secret, enabled,
           disabled_reason, cursor, caught_up_seq, created_at)
         SELECT u.organization_id, u.id, u.url, ARRAY(SELECT json_array_elements_text(u.events::json)),
           u.description, u.secret, u.enabled, u.disabled_reason, u.cursor, u.caught_up_seq,
           u.created_at
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[],
           $7::boolean[], $8::text[], $9::bigint[], $10::bigint[], $11::bigint[])
           AS u(organization_id, id, url, events, description, secret, enabled, disabled_reason,
             cursor, caught_up_seq, created_at)
         ON CONFLICT (organization_id, id) DO UPDATE SET url = EXCLUDED.url,
           events = EXCLUDED.events, description = EXCLUDED.description, secret = EXCLUDED.secret,
           enabled = EXCLUDED.enabled, disabled_reason = EXCLUDED.disabled_reason,
           cursor = EXCLUDED.cursor, caught_up_seq = EXCLUDED.caught_up_seq,
           created_at = EXCLUDED.created_at`,
        [
          col(rows, 'organization_id'),
          col(rows, 'id'),
          col(rows, 'url'),
          col(rows, 'events'),
          col(rows, 'description'),
          col(rows, 'secret'),
          col(rows, 'enabled', (value) => value === 1),
          col(rows, 'disabled_reason'),
          col(rows, 'cursor'),
          col(rows, 'caught_up_seq'),
          col(rows, 'created_at'),
        ],
      );
    },
  },
  {
    // Pending deliveries are sent by the target's servers; finished ones keep their history.
    name: 'webhook_deliveries',
    label: 'webhookDeliveries',
    select:
      'organization_id, id, webhook_id, state, payload, event_count, attempts, created_at, next_attempt_at, last_attempt_at, last_status, last_error',
    key: ['organization_id', 'id'],
    async write(client, rows) {
      const columns = [
        'organization_id',
        'id',
        'webhook_id',
        'state',
        'payload',
        'event_count',
        'attempts',
        'created_at',
        'next_attempt_at',
        'last_attempt_at',
        'last_status',
        'last_error',
      ];
      await client.query(
        `INSERT INTO webhook_deliveries (${columns.join(', ')})
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[],
           $6::int[], $7::int[], $8::bigint[], $9::bigint[], $10::bigint[], $11::int[], $12::text[])
         ON CONFLICT (organization_id, id) DO UPDATE SET state = EXCLUDED.state,
           payload = EXCLUDED.payload, event_count = EXCLUDED.event_count,
           attempts = EXCLUDED.attempts, created_at = EXCLUDED.created_at,
           next_attempt_at = EXCLUDED.next_attempt_at, lease_until = NULL,
           last_attempt_at = EXCLUDED.last_attempt_at, last_status = EXCLUDED.last_status,
           last_error = EXCLUDED.last_error`,
        columns.map((name) => col(rows, name)),
      );
    },
  },
];

/**
 * Where the source's before-images begin (migration 11): the target holds them now, so its
 * syncs judge deletions from the same position as the source's did.
 */
async function copyBeforeImagesFrom(target: PostgresStore, source: SqliteDatabase): Promise<void> {
  const row = source
    .prepare("SELECT value FROM stockroom_meta WHERE key = 'before_images_from'")
    .get() as { value: string } | undefined;
  if (!row) return;
  await target.query(
    `INSERT INTO stockroom_meta (key, value) VALUES ('before_images_from', $1)
     ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
    [row.value],
  );
}

/** The embedded database's identity (migration 3 of the SQLite engine). */
function sourceId(source: SqliteDatabase): string {
  const row = source.prepare("SELECT value FROM stockroom_meta WHERE key = 'database_id'").get() as
    | { value: string }
    | undefined;
  if (!row) throw new CopyError('the source database has no database_id; run `stockroom migrate`');
  return row.value;
}

/**
 * A target is fit when it is empty, or holds an earlier copy of this source: marked with its
 * id, or (a copy by a Stockroom from before the mark) holding no organization or user the
 * source does not have. It is marked before the first row is written, so a copy interrupted
 * at any point is recognised when run again.
 */
async function claimTarget(
  target: PostgresStore,
  source: SqliteDatabase,
  id: string,
): Promise<void> {
  const [mark] = await target.query("SELECT value FROM stockroom_meta WHERE key = 'copied_from'");
  const copiedFrom = (mark?.value as string | undefined) ?? null;
  if (copiedFrom !== id) {
    for (const table of ['organizations', 'users']) {
      const ids = (await target.query(`SELECT id FROM ${table}`)).map((row) => row.id as string);
      if (ids.length === 0) continue;
      if (copiedFrom !== null) {
        throw new CopyError(
          `the target database holds a copy of another database (${copiedFrom}, this one is ${id}); copy into an empty database`,
        );
      }
      const known = source.prepare(`SELECT 1 FROM ${table} WHERE id = ?`);
      const foreign = ids.find((rowId) => known.get(rowId) === undefined);
      if (foreign !== undefined) {
        throw new CopyError(
          `the target database is not empty: its ${table} include ${foreign}, which the source does not have; copy into an empty database`,
        );
      }
    }
  }
  await target.query(
    `INSERT INTO stockroom_meta (key, value) VALUES ('copied_from', $1)
     ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
    [id],
  );
}

/** The order deletions go in: whatever refers to a row goes before it. */
const DELETE_ORDER: Array<Table['label']> = [
  'secrets',
  'changes',
  'webhookDeliveries',
  'webhooks',
  'auditEvents',
  'tombstones',
  'stock',
  'items',
  'locations',
  'apiKeys',
  'memberships',
  'users',
  'organizations',
];

/**
 * Deletes the target's rows of one table that the source does not have: the target's keys
 * are read in key order (organization first, for the tables an organization owns), a batch
 * at a time, and looked up in the source snapshot; each batch's deletions are one transaction.
 */
async function deleteAbsent(
  target: PostgresStore,
  source: SqliteDatabase,
  table: Table,
  batchSize: number,
): Promise<number> {
  const columns = table.key.join(', ');
  const inSource = source.prepare(
    `SELECT 1 FROM ${table.name} WHERE ${table.key.map((column) => `${column} = ?`).join(' AND ')}`,
  );
  let deleted = 0;
  let last: Row | undefined;
  for (;;) {
    const after = last
      ? `WHERE (${columns}) > (${table.key.map((_, i) => `$${i + 2}`).join(', ')})`
      : '';
    const keys = await target.query(
      `SELECT ${columns} FROM ${table.name} ${after} ORDER BY ${columns} LIMIT $1`,
      [batchSize, ...(last ? table.key.map((column) => last?.[column]) : [])],
    );
    if (keys.length === 0) return deleted;
    last = keys[keys.length - 1];
    const absent = keys.filter(
      (row) => inSource.get(...table.key.map((column) => row[column])) === undefined,
    );
    if (absent.length === 0) continue;
    await target.inTransaction((client) =>
      client.query(
        `DELETE FROM ${table.name} WHERE (${columns}) IN (
           SELECT * FROM unnest(${table.key.map((_, i) => `$${i + 1}::${table.keyTypes?.[i] ?? 'text'}[]`).join(', ')}))`,
        table.key.map((column) => absent.map((row) => row[column])),
      ),
    );
    deleted += absent.length;
  }
}

function keyset(table: Table, after: Row | undefined): { where: string; params: unknown[] } {
  if (!after) return { where: '', params: [] };
  return {
    where: `WHERE (${table.key.join(', ')}) > (${table.key.map(() => '?').join(', ')})`,
    params: table.key.map((column) => after[column]),
  };
}

export async function copySqliteToPostgres(
  sourceFile: string,
  targetUrl: string,
  options: CopyOptions = {},
): Promise<CopyResult> {
  const batchSize = options.batchSize ?? 1000;
  // Bring the source schema up to date first: the columns read below are those of the latest.
  const migrator = new SqliteStore(sourceFile);
  try {
    await migrator.migrate();
  } finally {
    await migrator.close();
  }
  const source = new Database(sourceFile, { readonly: true, fileMustExist: true });
  const target = new PostgresStore(targetUrl, {
    poolSize: 2,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  });
  try {
    await target.migrate();
    const counts = {} as CopyCounts;
    const deleted = {} as CopyCounts;
    source.exec('BEGIN');
    try {
      await claimTarget(target, source, sourceId(source));
      for (const label of DELETE_ORDER) {
        const table = TABLES.find((candidate) => candidate.label === label) as Table;
        deleted[label] = await deleteAbsent(target, source, table, batchSize);
      }
      for (const table of TABLES) {
        const total = (source.prepare(`SELECT COUNT(*) AS n FROM ${table.name}`).get() as Row)
          .n as number;
        let done = 0;
        let last: Row | undefined;
        for (;;) {
          const { where, params } = keyset(table, last);
          const rows = source
            .prepare(
              `SELECT ${table.select} FROM ${table.name} ${where} ORDER BY ${table.key.join(', ')} LIMIT ?`,
            )
            .all(...params, batchSize) as Row[];
          if (rows.length === 0) break;
          refuseNul(table.name, rows);
          await target.inTransaction((client) => table.write(client, rows));
          done += rows.length;
          last = rows[rows.length - 1];
          options.onProgress?.(table.label, done, total);
        }
        counts[table.label] = total;
      }
      await copyBeforeImagesFrom(target, source);
    } finally {
      source.exec('COMMIT');
    }
    await verify(target, counts);
    await target.analyze(TABLES.map((table) => table.name));
    return { copied: counts, deleted };
  } finally {
    source.close();
    await target.close();
  }
}

/** Every table of the target holds as many rows as the source had. */
async function verify(target: PostgresStore, counts: CopyCounts): Promise<void> {
  for (const table of TABLES) {
    const [row] = await target.query(`SELECT count(*) AS n FROM ${table.name}`);
    const copied = row?.n as number;
    if (copied !== counts[table.label]) {
      throw new CopyError(
        `verification failed: ${table.name} has ${copied} rows in the target and ${counts[table.label]} in the source`,
      );
    }
  }
}
