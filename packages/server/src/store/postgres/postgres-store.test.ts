import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importItems } from '../../items/import.js';
import {
  createTestSchema,
  holdLocks,
  TEST_DATABASE_URL,
  type TestSchema,
} from '../../testing/postgres.js';
import { announceSkip, postgresUnavailable } from '../../testing/services.js';
import { tcpProxy } from '../../testing/tcp-proxy.js';
import { StoreUnavailableError } from '../types.js';
import { PostgresStore } from './postgres-store.js';

/** What only the PostgreSQL engine has: its migrations table, deadlines and outages. */
const skip = announceSkip('PostgreSQL store', await postgresUnavailable());

/** A port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('PostgresStore outages', () => {
  it('reports an unreachable server as unavailable (503), not as a crash', async () => {
    const store = new PostgresStore(`postgres://postgres@127.0.0.1:${await closedPort()}/test`);
    try {
      await expect(store.ping()).rejects.toBeInstanceOf(StoreUnavailableError);
      await expect(store.listItems('0'.repeat(24), { limit: 1 })).rejects.toBeInstanceOf(
        StoreUnavailableError,
      );
      await expect(store.migrate()).rejects.toBeInstanceOf(StoreUnavailableError);
    } finally {
      await store.close();
    }
  });
});

describe.skipIf(skip)('PostgresStore', () => {
  let schema: TestSchema;
  let store: PostgresStore;
  beforeAll(async () => {
    schema = await createTestSchema();
    store = new PostgresStore(schema.url, { timeoutMs: 300 });
    await store.migrate();
  });
  afterAll(async () => {
    await store?.close();
    await schema?.drop();
  });

  it('turns a statement past statement_timeout into StoreUnavailableError', async () => {
    const org = await store.createOrganization({ name: 'T', slug: 'timeout', features: [] });
    const release = await holdLocks(schema.url, 'LOCK TABLE items IN ACCESS EXCLUSIVE MODE');
    try {
      await expect(store.listItems(org.id, { limit: 1 })).rejects.toThrow(
        new StoreUnavailableError('the database did not answer within its deadline'),
      );
      await expect(store.writeItems(org.id, [{ name: 'x' }])).rejects.toBeInstanceOf(
        StoreUnavailableError,
      );
    } finally {
      await release();
    }
    // The pool recovers: the connections that timed out are usable again.
    expect(await store.writeItems(org.id, [{ name: 'x' }])).toEqual(['created']);
  });

  it('turns a server that stops answering mid-connection (partition, hang) into StoreUnavailableError', async () => {
    // statement_timeout is enforced by the server: when the server or the network goes silent
    // it cannot fire, and only a deadline kept by the client ends the wait.
    const target = new URL(schema.url);
    const proxy = await tcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    target.hostname = proxy.host;
    target.port = String(proxy.port);
    const cut = new PostgresStore(target.toString(), { timeoutMs: 300 });
    try {
      const org = await cut.createOrganization({ name: 'P', slug: 'partition', features: [] });
      proxy.freeze();
      // A pooled connection that goes silent, then a transaction.
      await expect(cut.listItems(org.id, { limit: 1 })).rejects.toBeInstanceOf(
        StoreUnavailableError,
      );
      await expect(cut.writeItems(org.id, [{ name: 'x' }])).rejects.toBeInstanceOf(
        StoreUnavailableError,
      );
      proxy.thaw();
      // The silent connections were discarded: the pool serves again.
      expect(await cut.writeItems(org.id, [{ name: 'x' }])).toEqual(['created']);
    } finally {
      await proxy.close();
      await cut.close();
    }
  });

  it('reports a closed store as unavailable', async () => {
    const other = new PostgresStore(schema.url);
    await other.close();
    await expect(other.ping()).rejects.toBeInstanceOf(StoreUnavailableError);
  });

  it('migrates concurrently started processes once', async () => {
    const fresh = await createTestSchema();
    const stores = Array.from({ length: 4 }, () => new PostgresStore(fresh.url));
    try {
      const applied = await Promise.all(stores.map((s) => s.migrate()));
      expect(applied.filter((names) => names.length > 0)).toHaveLength(1);
      expect(applied.flat()).toEqual([
        '0001_initial',
        '0002_keyed_by_organization',
        '0003_stockroom_meta',
        '0004_simple_case_folding',
        '0005_key_rotation_and_audit_log',
        '0006_change_feed',
        '0007_webhooks',
        '0008_locations',
        '0009_key_views',
        '0010_stock_status',
        '0011_change_before_images',
        '0012_non_finite_quantities',
        '0013_search_field_index',
      ]);
    } finally {
      await Promise.all(stores.map((s) => s.close()));
      await fresh.drop();
    }
  });

  it('migrates past the statement deadline of requests: a migration takes what it takes', async () => {
    const fresh = await createTestSchema();
    const setup = new PostgresStore(fresh.url);
    // Requests of this store get 300 ms on the server, 1.3 s in the client.
    const strict = new PostgresStore(fresh.url, { timeoutMs: 300 });
    const holder = new pg.Client({ connectionString: fresh.url });
    try {
      await setup.migrate();
      // The database as the binary before the change feed left it.
      await setup.query(
        `DROP INDEX items_organization_search_fields;
         DROP INDEX items_quantity_not_finite;
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
         DELETE FROM schema_migrations WHERE version >= 6`,
      );
      await holder.connect();
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE items IN ACCESS SHARE MODE');
      const [{ pid }] = (await holder.query('SELECT pg_backend_pid() AS pid')).rows;
      const migrating = strict.migrate();
      // The migration's ALTER TABLE waits for the lock (asked of the server, not guessed) ...
      const deadline = Date.now() + 10_000;
      for (;;) {
        const [row] = await setup.query(
          'SELECT count(*)::int AS n FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))',
          [pid],
        );
        if ((row?.n as number) > 0) break;
        if (Date.now() > deadline) throw new Error('the migration never waited for the lock');
      }
      // ... for longer than either deadline of a request, then goes on.
      await holder.query('SELECT pg_sleep(1.5)');
      await holder.query('COMMIT');
      expect(await migrating).toEqual([
        '0006_change_feed',
        '0007_webhooks',
        '0008_locations',
        '0009_key_views',
        '0010_stock_status',
        '0011_change_before_images',
        '0012_non_finite_quantities',
        '0013_search_field_index',
      ]);
      // Requests keep their deadline.
      const release = await holdLocks(fresh.url, 'LOCK TABLE items IN ACCESS EXCLUSIVE MODE');
      try {
        await expect(strict.countItems('0'.repeat(24))).rejects.toBeInstanceOf(
          StoreUnavailableError,
        );
      } finally {
        await release();
      }
    } finally {
      await holder.end().catch(() => {});
      await Promise.all([setup.close(), strict.close()]);
      await fresh.drop();
    }
  });

  it("gives the stock rows of a database migrated before it their items' status (migration 10)", async () => {
    const fresh = await createTestSchema();
    const other = new PostgresStore(fresh.url);
    try {
      await other.migrate();
      const org = await other.createOrganization({ name: 'S', slug: 'stock-status', features: [] });
      await other.createLocation(org.id, { code: 'WH', name: 'Warehouse' });
      await other.writeItems(org.id, [
        { sku: 'A', name: 'A', status: 'Active', stock: '[{"location":"WH","quantity":1}]' },
        { sku: 'D', name: 'D', status: 'Draft', stock: '[{"location":"WH","quantity":2}]' },
        { sku: 'Z', name: 'Z', status: 'Draft', stock: '[{"location":"WH","quantity":0}]' },
      ]);
      // item_stock as migration 8 left it.
      await other.query(
        `CREATE TABLE stock_before AS SELECT organization_id, item_id, location_code, quantity FROM item_stock;
         DROP TABLE item_stock;
         ALTER TABLE stock_before RENAME TO item_stock;
         ALTER TABLE item_stock ADD PRIMARY KEY (organization_id, item_id, location_code);
         DROP TABLE installation_secrets;
         DROP TRIGGER items_change_before_image ON items;
         DROP FUNCTION stockroom_item_before_images;
         DROP TABLE item_changes;
         DROP INDEX items_quantity_not_finite;
         DROP INDEX items_organization_search_fields;
         DELETE FROM stockroom_meta WHERE key = 'before_images_from';
         DELETE FROM schema_migrations WHERE version >= 10`,
      );
      expect(await other.migrate()).toEqual([
        '0010_stock_status',
        '0011_change_before_images',
        '0012_non_finite_quantities',
        '0013_search_field_index',
      ]);
      const rows = await other.query(
        `SELECT i.sku, s.status, s.quantity FROM item_stock s
         JOIN items i ON i.organization_id = s.organization_id AND i.id = s.item_id ORDER BY i.sku`,
      );
      expect(rows).toEqual([
        { sku: 'A', status: 'Active', quantity: 1 },
        { sku: 'D', status: 'Draft', quantity: 2 },
        { sku: 'Z', status: 'Draft', quantity: 0 },
      ]);
      const page = await other.listItems(org.id, { limit: 10, location: 'WH', status: 'Draft' });
      expect(page.map((item) => item.sku)).toEqual(['D']);
      // The rows still go with their item.
      await other.deleteItem(org.id, { sku: 'D' });
      expect(await other.query('SELECT count(*)::int AS n FROM item_stock')).toEqual([{ n: 2 }]);
    } finally {
      await other.close();
      await fresh.drop();
    }
  });

  it('refuses a database migrated by a newer version, changing nothing', async () => {
    await store.query(
      "INSERT INTO schema_migrations (version, name, applied_at) VALUES (9999, 'from_the_future', 0)",
    );
    try {
      await expect(store.migrate()).rejects.toThrow(
        /migrated by a newer version of Stockroom \(schema 9999, this binary knows up to 13\)/,
      );
    } finally {
      await store.query('DELETE FROM schema_migrations WHERE version = 9999');
    }
    expect(await store.migrate()).toEqual([]);
  });

  it('keys every organization-owned table by organization_id first, and only those', async () => {
    // Every unique index (primary keys included) with its leading column: a table distributed
    // by organization_id can only enforce uniqueness that includes it.
    const rows = await store.query(
      `SELECT c.relname AS table, ic.relname AS index, a.attname AS first_column
       FROM pg_index i
       JOIN pg_class c ON c.oid = i.indrelid
       JOIN pg_class ic ON ic.oid = i.indexrelid
       JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = i.indkey[0]
       WHERE i.indisunique AND c.relnamespace = current_schema()::regnamespace
       ORDER BY 1, 2`,
    );
    expect(rows).toEqual([
      {
        table: 'api_keys',
        index: 'api_keys_organization_hash_key',
        first_column: 'organization_id',
      },
      { table: 'api_keys', index: 'api_keys_pkey', first_column: 'organization_id' },
      { table: 'audit_events', index: 'audit_events_pkey', first_column: 'organization_id' },
      // A fact about the installation, not about an organization (the sync token key).
      {
        table: 'installation_secrets',
        index: 'installation_secrets_pkey',
        first_column: 'name',
      },
      { table: 'item_changes', index: 'item_changes_pkey', first_column: 'organization_id' },
      { table: 'item_stock', index: 'item_stock_pkey', first_column: 'organization_id' },
      {
        table: 'item_tombstones',
        index: 'item_tombstones_pkey',
        first_column: 'organization_id',
      },
      { table: 'items', index: 'items_organization_sku', first_column: 'organization_id' },
      { table: 'items', index: 'items_pkey', first_column: 'organization_id' },
      {
        table: 'locations',
        index: 'locations_organization_id_code_key',
        first_column: 'organization_id',
      },
      { table: 'locations', index: 'locations_pkey', first_column: 'organization_id' },
      { table: 'memberships', index: 'memberships_pkey', first_column: 'organization_id' },
      // The exceptions: the small reference tables, keyed by their own ids, and facts about the
      // database itself (its migrations, where `db copy` filled it from).
      { table: 'organizations', index: 'organizations_pkey', first_column: 'id' },
      { table: 'organizations', index: 'organizations_slug_key', first_column: 'slug' },
      {
        table: 'rate_limit_counters',
        index: 'rate_limit_counters_pkey',
        first_column: 'organization_id',
      },
      { table: 'schema_migrations', index: 'schema_migrations_pkey', first_column: 'version' },
      { table: 'stockroom_meta', index: 'stockroom_meta_pkey', first_column: 'key' },
      { table: 'users', index: 'users_email_normalized_key', first_column: 'email_normalized' },
      { table: 'users', index: 'users_pkey', first_column: 'id' },
      {
        table: 'webhook_deliveries',
        index: 'webhook_deliveries_pending',
        first_column: 'organization_id',
      },
      {
        table: 'webhook_deliveries',
        index: 'webhook_deliveries_pkey',
        first_column: 'organization_id',
      },
      { table: 'webhooks', index: 'webhooks_pkey', first_column: 'organization_id' },
    ]);
  });

  it('finds a key by its hash or its id through an index, without its organization', async () => {
    // The table is nearly empty here: sequential scans are ruled out to see which index serves.
    const plans = await store.inTransaction(async (client) => {
      await client.query('SET LOCAL enable_seqscan = off');
      const explain = async (sql: string) =>
        // json comes back as its text from this store's pool.
        String((await client.query(`EXPLAIN (FORMAT JSON) ${sql}`)).rows[0]?.['QUERY PLAN']);
      return [
        await explain("SELECT * FROM api_keys WHERE hash = 'x'"),
        await explain("SELECT * FROM api_keys WHERE id = 'x'"),
      ];
    });
    expect(plans[0]).toContain('"Index Name": "api_keys_hash"');
    expect(plans[1]).toContain('"Index Name": "api_keys_id"');
  });

  it('turns JIT compilation off on every connection: it cost searches of milliseconds more than they take', async () => {
    const connections = await Promise.all(
      Array.from({ length: 3 }, () => store.query("SELECT current_setting('jit') AS jit")),
    );
    expect(connections.flat()).toEqual([{ jit: 'off' }, { jit: 'off' }, { jit: 'off' }]);
    // Above, the URL carries options of its own (a search_path, kept); here it has none, as a
    // production URL usually does, and other parameters besides.
    const plain = new URL(TEST_DATABASE_URL);
    plain.search = '';
    plain.searchParams.set('application_name', 'jit check');
    const bare = new PostgresStore(plain.toString());
    try {
      expect(
        await bare.query(
          "SELECT current_setting('jit') AS jit, current_setting('application_name') AS app",
        ),
      ).toEqual([{ jit: 'off', app: 'jit check' }]);
    } finally {
      await bare.close();
    }
  });

  it("prepares the request path's lookups once per connection, and no statement whose plan depends on its values", async () => {
    // One connection, so pg_prepared_statements (per session) sees every statement it ran.
    const single = new PostgresStore(schema.url, { poolSize: 1 });
    try {
      const org = await single.createOrganization({ name: 'P', slug: 'prepared', features: [] });
      await single.writeItems(org.id, [{ name: 'Bolt', sku: 'B-1' }]);
      const [bolt] = await single.listItems(org.id, { limit: 1 });
      await single.listItems(org.id, { limit: 10, search: 'bolt' });
      for (let i = 0; i < 7; i++) {
        expect((await single.getItem(org.id, bolt?.id ?? ''))?.name).toBe('Bolt');
        expect(await single.loadKeyContext(`hash-${i}`)).toBeNull();
      }
      // A sync page of at most one fetch (a caught-up sync) runs prepared; a longer one goes
      // through a cursor, which can only run an unnamed statement.
      const sync = (limit: number) =>
        single.listChanges(org.id, { afterSeq: 0, limit, includeDeleted: true });
      for (let i = 0; i < 3; i++) expect((await sync(100)).items).toHaveLength(1);
      expect((await sync(1000)).items).toHaveLength(1);
      const prepared = await single.query(
        'SELECT name, generic_plans + custom_plans AS runs FROM pg_prepared_statements ORDER BY name',
      );
      expect(prepared).toEqual([
        { name: 'change_page_with_deleted', runs: 3 },
        { name: 'item_by_id', runs: 7 },
        { name: 'key_context_by_hash', runs: 7 },
      ]);
    } finally {
      await single.close();
    }
  });

  it('lets nothing of a list or sync page read through a cursor outlive it (no deadline timer left armed)', async () => {
    // node-postgres keeps a timer per query for its client-side deadline and pg-cursor never
    // disarms it: each page's rows then lived for the whole deadline (node-postgres#3497).
    const org = await store.createOrganization({ name: 'C', slug: 'cursor-timers', features: [] });
    await store.writeItems(
      org.id,
      Array.from({ length: 150 }, (_, i) => ({ sku: `C-${i}`, name: `Item ${i}` })),
    );
    const readPage = async () => {
      let rows = 0;
      for await (const slice of store.listItemSlices(org.id, { limit: 150 })) rows += slice.length;
      return rows;
    };
    const armedTimers = () =>
      process.getActiveResourcesInfo().filter((resource) => resource === 'Timeout').length;
    // A sync page longer than one fetch is read through a cursor too.
    const readChanges = async () =>
      (await store.listChanges(org.id, { afterSeq: 0, limit: 150, includeDeleted: true })).items
        .length;
    expect(await readPage()).toBe(150);
    expect(await readChanges()).toBe(150);
    const before = armedTimers();
    for (let page = 0; page < 20; page++) expect(await readPage()).toBe(150);
    expect(armedTimers() - before).toBeLessThan(5);
    for (let page = 0; page < 20; page++) expect(await readChanges()).toBe(150);
    expect(armedTimers() - before).toBeLessThan(5);
  });

  it('gathers planner statistics after an import that changed more than autovacuum would wait for', async () => {
    // A schema of its own: the rule depends on how many items the table holds.
    const fresh = await createTestSchema();
    const own = new PostgresStore(fresh.url, { timeoutMs: 300 });
    const dir = mkdtempSync(path.join(tmpdir(), 'stockroom-pg-import-'));
    try {
      await own.migrate();
      const org = await own.createOrganization({ name: 'S', slug: 'stats', features: [] });
      const ndjson = (from: number, count: number) => {
        const file = path.join(dir, `${from}.ndjson`);
        const lines = Array.from({ length: count }, (_, i) =>
          JSON.stringify({ sku: `S-${from + i}`, name: `Item ${from + i}` }),
        );
        writeFileSync(file, `${lines.join('\n')}\n`);
        return file;
      };
      const itemRows = async () =>
        (await own.query("SELECT reltuples FROM pg_class WHERE oid = 'items'::regclass"))[0]
          ?.reltuples;
      // Another session holding the table against ANALYZE (autovacuum, say) costs the import
      // a second, not its result: the rows are written, the statistics left to that session.
      const release = await holdLocks(fresh.url, 'LOCK TABLE items IN SHARE UPDATE EXCLUSIVE MODE');
      try {
        expect((await importItems(own, org.id, ndjson(1000, 100))).created).toBe(100);
        expect(await own.refreshItemStatistics(100)).toBe(false);
      } finally {
        await release();
      }
      await own.query("DELETE FROM items WHERE sku LIKE 'S-1___'");
      // Never analysed (-1): the first import that writes anything gathers statistics.
      expect(await itemRows()).toBe(-1);
      expect((await importItems(own, org.id, ndjson(0, 300))).created).toBe(300);
      expect(await itemRows()).toBe(300);
      // 60 changes are within 50 + 10% of 300: left to autovacuum.
      expect((await importItems(own, org.id, ndjson(300, 60))).created).toBe(60);
      expect(await itemRows()).toBe(300);
      // 100 are not.
      expect((await importItems(own, org.id, ndjson(360, 100))).created).toBe(100);
      expect(await itemRows()).toBe(460);
      // An import that changes nothing costs no ANALYZE, whatever its size.
      expect((await importItems(own, org.id, ndjson(0, 460))).unchanged).toBe(460);
      expect(await own.refreshItemStatistics(0)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await own.close();
      await fresh.drop();
    }
  });

  it('deletes an organization in batches, with its rate-limit counters, beside a concurrent import', async () => {
    const batched = new PostgresStore(schema.url, { deleteBatchSize: 7 });
    try {
      const doomed = await batched.createOrganization({ name: 'D', slug: 'doomed', features: [] });
      const kept = await batched.createOrganization({ name: 'K', slug: 'kept', features: [] });
      const rows = (from: number, count: number) =>
        Array.from({ length: count }, (_, i) => ({ sku: `S-${from + i}`, name: `Item ${i}` }));
      // 28 rows: four full batches of 7, then an empty one.
      await batched.writeItems(doomed.id, rows(0, 28));
      await batched.writeItems(kept.id, rows(0, 28));
      for (const org of [doomed, kept]) {
        await batched.incrementRateLimitCounter(org.id, 'k'.repeat(24), 60, 1, Date.now() + 60_000);
      }
      expect(await batched.deleteOrganization(doomed.id)).toEqual({
        items: 28,
        apiKeys: 0,
        memberships: 0,
      });
      expect(await batched.query('SELECT organization_id FROM rate_limit_counters')).toEqual([
        { organization_id: kept.id },
      ]);
      expect(await batched.countItems(kept.id)).toBe(28);

      // An import racing the deletion either ends first (and its rows are deleted) or fails on
      // the missing organization: no row outlives it, and nothing deadlocks.
      const racing = await batched.createOrganization({ name: 'R', slug: 'racing', features: [] });
      await batched.writeItems(racing.id, rows(0, 10));
      const [imported, deleted] = await Promise.allSettled([
        batched.writeItems(racing.id, rows(10, 500)),
        batched.deleteOrganization(racing.id),
      ]);
      expect(deleted.status).toBe('fulfilled');
      const items = deleted.status === 'fulfilled' ? deleted.value?.items : undefined;
      expect(items === 10 || (items === 510 && imported.status === 'fulfilled')).toBe(true);
      expect(
        await batched.query('SELECT count(*)::int AS n FROM items WHERE organization_id = $1', [
          racing.id,
        ]),
      ).toEqual([{ n: 0 }]);
    } finally {
      await batched.close();
    }
  });
});
