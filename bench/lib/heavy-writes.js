// Issue 41, point 9: item detail of a key with a quota (each request charges one use: a write)
// from a `stockroom serve` process (the built binary) while another process runs a heavy write:
//   org delete   `stockroom org delete --yes` of a 200k-item organization;
//   import       `stockroom items import` of a 200k-row NDJSON file into another organization.
// On SQLite the charge needs the file's one write lock, on PostgreSQL the key's row. Used by
// bench/heavy-writes.js (the table of BENCHMARKS.md) and test/heavy-writes.e2e.test.ts, with
// the same requests from a key without a quota beside them (no write: the machine's latency).
// The fixture is written with bulk SQL, not the API.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ADMIN_TOKEN, BIN, freePort, startSampler } from './stalls.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DIST = path.join(ROOT, 'packages/server/dist');

export const DEFAULT_SIZES = { deleted: 200_000, imported: 200_000 };
/** Item detail requests a second, each timed from when it was due. */
export const RATE = 50;

async function dist(module) {
  return import(path.join(DIST, module));
}

/** An id of the layout of ids.ts (24 hex digits) that sorts in `n` order within a fixture. */
const SQLITE_ID = (n) => `printf('%08x%016x', 1767225600, ${n})`;
const POSTGRES_ID = (n) => `'69557b00' || lpad(to_hex(${n}), 16, '0')`;

/**
 * Organizations `doomed` (sizes.deleted items, to delete), `small` (100 items; the quota key's)
 * and `imports` (empty, the import's target), and an NDJSON file of sizes.imported rows.
 * `databaseUrl`: a SQLite file, or a PostgreSQL URL whose schema is empty.
 */
export async function buildHeavyFixture(dir, databaseUrl, sizes = DEFAULT_SIZES) {
  const postgres = /^postgres(ql)?:/.test(databaseUrl);
  const { openStore } = await dist('store/open.js');
  const { generateKey } = await dist('keys/format.js');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const store = await openStore(databaseUrl);
  await store.migrate();
  const org = (slug) => store.createOrganization({ name: slug, slug, features: ['inventory'] });
  const orgs = {
    doomed: await org('doomed'),
    small: await org('small'),
    imports: await org('imports'),
  };
  const keys = {};
  for (const [name, remaining] of [
    ['quota', 100_000_000],
    ['plain', null],
  ]) {
    const generated = generateKey('organization');
    await store.createApiKey({
      id: `key_heavy_${name}`,
      organizationId: orgs.small.id,
      userId: null,
      type: 'organization',
      name,
      prefix: generated.prefix,
      hash: generated.hash,
      permissions: ['inventory:view'],
      expiresAt: null,
      remaining,
      rateLimit: null,
      createdAt: Date.now(),
    });
    keys[name] = generated.key;
  }
  await store.close();
  if (postgres) await seedPostgres(databaseUrl, orgs, sizes);
  else await seedSqlite(databaseUrl, orgs, sizes);
  const check = await openStore(databaseUrl);
  const [item] = await check.listItems(orgs.small.id, { limit: 1 });
  await check.close();

  const importFile = path.join(dir, 'import.ndjson');
  const lines = [];
  for (let i = 1; i <= sizes.imported; i++) {
    lines.push(JSON.stringify({ sku: `IMP-${i}`, name: `Imported part ${i}`, quantity: i }));
  }
  writeFileSync(importFile, `${lines.join('\n')}\n`);
  return {
    engine: postgres ? 'postgres' : 'sqlite',
    databaseUrl,
    orgs,
    keys,
    itemId: item.id,
    importFile,
    sizes,
  };
}

async function seedSqlite(file, orgs, sizes) {
  const { default: Database } = await dist('store/sqlite/driver.js');
  const db = new Database(file);
  const now = Date.now();
  const insert = (organization, count, name) => {
    const { seq } = db.prepare('SELECT seq FROM organizations WHERE id = ?').get(organization.id);
    db.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?),
         rows AS (SELECT i, ${name} AS name, printf('%s-%d', ?, i) AS sku FROM n)
       INSERT INTO items (seq, organization_id, id, name, description, sku, barcode, status,
         quantity, custom_fields, search_text, created_at, updated_at, change_seq, created_seq)
       SELECT ? + i, ?, ${SQLITE_ID('i')}, name, 'galvanized steel bracket', sku, NULL, 'Active',
         i, '{}', lower(name) || char(0) || 'galvanized steel bracket' || char(0) || lower(sku) || char(0),
         ?, ?, ? + i, ? + i
       FROM rows`,
    ).run(
      count,
      organization.slug,
      seq * 2 ** 32,
      organization.id,
      now,
      now,
      now * 1000,
      now * 1000,
    );
  };
  db.transaction(() => {
    insert(orgs.doomed, sizes.deleted, "printf('Bulk part %d', i)");
    insert(orgs.small, 100, "printf('Small thing %d', i)");
    // The search index in one batch, as a bulk load leaves it (SqliteStore.indexPending).
    db.prepare(
      `INSERT INTO items_search (rowid, search_text)
       SELECT i.seq, i.search_text FROM items_search_pending p JOIN items i ON i.seq = p.seq`,
    ).run();
    db.prepare('DELETE FROM items_search_pending').run();
    db.prepare(
      'UPDATE organizations SET change_seq = (SELECT COALESCE(MAX(change_seq), 0) FROM items WHERE organization_id = organizations.id)',
    ).run();
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

async function seedPostgres(url, orgs, sizes) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const now = Date.now();
  const insert = (organization, count, name) =>
    client.query(
      `INSERT INTO items (organization_id, id, name, description, sku, barcode, status, quantity,
         custom_fields, search_text, created_at, updated_at, change_seq, created_seq)
       SELECT $1, ${POSTGRES_ID('i')}, r.name, 'galvanized steel bracket', r.sku, NULL, 'Active', i,
         '{}', lower(r.name) || 'A' || 'galvanized steel bracket' || 'A' || lower(r.sku) || 'A',
         $2, $2, $3::bigint + i, $3::bigint + i
       FROM generate_series(1, $4::int) AS i,
         LATERAL (SELECT ${name} AS name, $5 || '-' || i AS sku) AS r`,
      [organization.id, now, now * 1000, count, organization.slug],
    );
  try {
    await client.query('BEGIN');
    await insert(orgs.doomed, sizes.deleted, "'Bulk part ' || i");
    await insert(orgs.small, 100, "'Small thing ' || i");
    await client.query(
      'UPDATE organizations o SET change_seq = (SELECT COALESCE(MAX(change_seq), 0) FROM items WHERE organization_id = o.id)',
    );
    await client.query('COMMIT');
    await client.query('ANALYZE items');
  } finally {
    await client.end();
  }
}

/** `stockroom serve` on the fixture's database (one process). */
export async function startHeavyServer(fixture, env = {}) {
  const [port, docsPort, adminPort] = [await freePort(), await freePort(), await freePort()];
  const child = spawn(
    process.execPath,
    [BIN, 'serve', '--port', String(port), '--docs-port', String(docsPort), '--no-demo'],
    {
      env: {
        ...process.env,
        DATABASE_URL: fixture.databaseUrl,
        NODE_ENV: 'production',
        LOG_LEVEL: 'warn',
        ADMIN_TOKEN,
        ADMIN_PORT: String(adminPort),
        WEBHOOKS: 'off',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const output = [];
  child.stdout.setEncoding('utf8').on('data', (chunk) => output.push(chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk) => output.push(chunk));
  const exited = once(child, 'exit');
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited:\n${output.join('')}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/v1/health`)).ok) break;
    } catch {}
    if (Date.now() > deadline) throw new Error(`the server did not start:\n${output.join('')}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    port,
    pid: child.pid,
    output,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Runs the CLI in another process; resolves with its exit code, output and duration. */
async function cli(fixture, args) {
  const started = performance.now();
  const child = spawn(process.execPath, [BIN, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, DATABASE_URL: fixture.databaseUrl, NODE_ENV: 'production' },
  });
  const output = [];
  child.stdout.setEncoding('utf8').on('data', (chunk) => output.push(chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk) => output.push(chunk));
  const [code] = await once(child, 'exit');
  return { code, output: output.join(''), seconds: (performance.now() - started) / 1000 };
}

/**
 * Item detail, RATE a second with each key, while `work` runs: `quota` (each request charges a
 * use) and `plain` (no quota: no write), whose latency is the machine's and the server's alone.
 */
async function measure(server, fixture, work) {
  const sampler = (key) =>
    startSampler({
      port: server.port,
      path: `/api/v1/inventory/item?itemId=${fixture.itemId}`,
      headers: { 'x-api-key': key },
      rate: RATE,
    });
  const quota = sampler(fixture.keys.quota);
  const plain = sampler(fixture.keys.plain);
  const outcome = await work().then(
    (result) => ({ result }),
    (error) => ({ error }),
  );
  const item = await quota.stop();
  const reference = await plain.stop();
  if ('error' in outcome) throw outcome.error;
  return { item, reference, result: outcome.result };
}

export function orgDeleteScenario(server, fixture) {
  return measure(server, fixture, () => cli(fixture, ['org', 'delete', 'doomed', '--yes']));
}

export function importScenario(server, fixture) {
  return measure(server, fixture, () =>
    cli(fixture, ['items', 'import', '--org', 'imports', fixture.importFile]),
  );
}

export const SCENARIOS = [
  ['org delete (200k items)', orgDeleteScenario],
  ['import (200k rows)', importScenario],
];
