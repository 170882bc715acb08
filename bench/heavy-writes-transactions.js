#!/usr/bin/env node
// Issue 41, point 9, on SQLite: how long each transaction of a heavy write holds the write lock,
// in process, with no server: SqliteStore.deleteOrganization of an organization of N items, and
// the search index of N queued rows built in parts (SqliteStore.indexPendingInParts, what an
// import does at its end). Prints the longest transactions and how many pass 50 / 100 ms, for
// FTS5 settings given as SQL (run on the store's connection before the write). The connection's
// automatic WAL checkpoints are off: one runs after a commit, once the write lock is released,
// and timed with the transaction it would look like a long one.
//
//   node bench/heavy-writes-transactions.js        (on a built tree: npx tsc -b packages/server/tsconfig.build.json)
//   options: --write delete|index (delete)  --items N (200000)
//            --fields (the four field indexes of migration 13 hold the rows too, as after a real
//              import; bench:heavy-writes' fixture leaves them empty)
//            --settings SQL (e.g. "INSERT INTO items_search(items_search, rank) VALUES('automerge', 0)")
//            --merge N (after the write, 'merge' steps of N pages on each index until done, timed)
import { copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = path.join(ROOT, 'packages/server/dist');
const { SqliteStore } = await import(path.join(DIST, 'store/sqlite/sqlite-store.js'));
const { default: Database } = await import(path.join(DIST, 'store/sqlite/driver.js'));

const { values: opts } = parseArgs({
  options: {
    write: { type: 'string', default: 'delete' },
    items: { type: 'string', default: '200000' },
    fields: { type: 'boolean', default: false },
    settings: { type: 'string', default: '' },
    merge: { type: 'string' },
  },
});
const N = Number(opts.items);
const INDEXES = [
  'items_search',
  'items_search_name',
  'items_search_description',
  'items_search_sku',
  'items_search_barcode',
];
const dir = path.join(ROOT, 'bench/.data/heavy-writes-transactions');
mkdirSync(dir, { recursive: true });

/** A file with organizations `big` (N items) and `small` (100), built once per shape. */
async function fixture() {
  const indexed = opts.write === 'delete';
  const file = path.join(dir, `${opts.write}-${N}${opts.fields ? '-fields' : ''}.db`);
  if (existsSync(file)) return file;
  const store = new SqliteStore(file);
  await store.migrate();
  const big = await store.createOrganization({ name: 'Big', slug: 'big', features: [] });
  const small = await store.createOrganization({ name: 'Small', slug: 'small', features: [] });
  await store.close();
  const db = new Database(file);
  db.function('part', { deterministic: true }, (text, k) => String(text).split('\0')[Number(k)]);
  const now = Date.now();
  const insert = (organization, count, name) => {
    const { seq } = db.prepare('SELECT seq FROM organizations WHERE id = ?').get(organization.id);
    db.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?),
         rows AS (SELECT i, ${name} AS name, printf('%s-%d', ?, i) AS sku FROM n)
       INSERT INTO items (seq, organization_id, id, name, description, sku, barcode, status,
         quantity, custom_fields, search_text, created_at, updated_at, change_seq, created_seq)
       SELECT ? + i, ?, printf('%08x%016x', 1767225600, i), name, 'galvanized steel bracket', sku,
         NULL, 'Active', i, '{}',
         lower(name) || char(0) || 'galvanized steel bracket' || char(0) || lower(sku) || char(0),
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
  const indexQueue = (fields) => {
    const queued = 'FROM items_search_pending p JOIN items i ON i.seq = p.seq';
    db.prepare(
      `INSERT INTO items_search (rowid, search_text) SELECT i.seq, i.search_text ${queued}`,
    ).run();
    if (fields) {
      for (const [k, table] of INDEXES.slice(1).entries()) {
        db.prepare(
          `INSERT INTO ${table} (rowid, text) SELECT i.seq, part(i.search_text, ${k}) ${queued}`,
        ).run();
      }
    }
    db.prepare('DELETE FROM items_search_pending').run();
  };
  db.transaction(() => {
    insert(small, 100, "printf('Small thing %d', i)");
    indexQueue(true);
    insert(big, N, "printf('Bulk part %d', i)");
    // To delete: indexed in one batch, as a bulk load leaves it. To index: left queued.
    if (indexed) indexQueue(opts.fields);
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return file;
}

const file = path.join(dir, 'run.db');
for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
copyFileSync(await fixture(), file);
const store = new SqliteStore(file);
// The store's own connection (protected members, reached from outside for the measurement).
if (opts.settings) store.db.exec(opts.settings);
store.db.pragma('wal_autocheckpoint = 0');
const times = [];
const run = store.run.bind(store);
store.run = (work) => {
  const started = performance.now();
  try {
    return run(work);
  } finally {
    times.push(performance.now() - started);
  }
};
const started = performance.now();
if (opts.write === 'delete') {
  const big = (await store.listOrganizations()).find((o) => o.slug === 'big');
  await store.deleteOrganization(big.id);
} else {
  await store.indexPendingInParts();
}
const seconds = (performance.now() - started) / 1000;
store.run = run;
times.sort((a, b) => b - a);
const over = (ms) => times.filter((t) => t > ms).length;
console.log(
  `${opts.write} of ${N} rows${opts.fields ? ' (field indexes filled)' : ''}${opts.settings ? `, settings: ${opts.settings}` : ''}`,
);
console.log(
  `${seconds.toFixed(1)} s, ${times.length} transactions, longest ${times
    .slice(0, 6)
    .map((t) => t.toFixed(0))
    .join(' / ')} ms, ${over(50)} over 50 ms, ${over(100)} over 100 ms`,
);
if (opts.merge) {
  const steps = [];
  for (const table of INDEXES) {
    for (;;) {
      const before = store.db.prepare('SELECT total_changes() AS c').get().c;
      const at = performance.now();
      store.db
        .prepare(`INSERT INTO ${table} (${table}, rank) VALUES ('merge', ?)`)
        .run(Number(opts.merge));
      steps.push(performance.now() - at);
      // A step with nothing left to merge changes only the structure record, if anything.
      if (store.db.prepare('SELECT total_changes() AS c').get().c - before < 2) break;
    }
  }
  const total = steps.reduce((a, b) => a + b, 0);
  steps.sort((a, b) => b - a);
  console.log(
    `then 'merge' ${opts.merge}: ${steps.length} steps, ${(total / 1000).toFixed(1)} s, longest ${steps
      .slice(0, 6)
      .map((t) => t.toFixed(0))
      .join(' / ')} ms`,
  );
}
await store.close();
