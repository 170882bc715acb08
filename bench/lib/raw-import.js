// The import's in-run reference: the same rows of the same NDJSON file written into the same
// schema (a database made by `stockroom migrate` and `org create`) with better-sqlite3 alone:
// a line reader, JSON.parse, one prepared INSERT, transactions of 1,000 rows, the connection
// settings of the store (connection.ts) and the search index built in one batch at the end, as
// the store does for a bulk load. No checks, no upsert lookups, no worker thread: what SQLite
// itself costs for these rows on this machine, at this moment.
// Usage: node raw-import.js DATABASE ORGANIZATION_SLUG FILE → prints {"seconds", "rows"}
import { createReadStream } from 'node:fs';
import readline from 'node:readline';

// The driver the store loads (better-sqlite3 12 or 13, whichever this Node.js runs).
const { default: Database } = await import('../../packages/server/dist/store/sqlite/driver.js');
const { searchText } = await import('../../packages/server/dist/store/search.js');

const [file, slug, input] = process.argv.slice(2);
const db = new Database(file);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.pragma('foreign_keys = ON');
db.pragma('cache_size = -16384');
db.pragma('wal_autocheckpoint = 16384');
db.pragma('temp_store = MEMORY');

const started = performance.now();
const { id: organizationId, seq: organizationSeq } = db
  .prepare('SELECT id, seq FROM organizations WHERE slug = ?')
  .get(slug);
let seq = organizationSeq * 4294967296;
const insert = db.prepare(
  `INSERT INTO items (seq, organization_id, id, name, description, sku, barcode, status,
     quantity, custom_fields, search_text, created_at, updated_at, change_seq, created_seq)
   VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
);
const now = Date.now();
const idPrefix = Math.floor(now / 1000)
  .toString(16)
  .padStart(8, '0');
let rows = 0;
const write = db.transaction((batch) => {
  for (const item of batch) {
    rows++;
    seq++;
    const description = item.description ?? null;
    const sku = item.sku ?? null;
    const barcode = item.barcode ?? null;
    insert.run(
      seq,
      organizationId,
      `${idPrefix}${rows.toString(16).padStart(16, '0')}`,
      item.name,
      description,
      sku,
      barcode,
      item.status ?? 'Draft',
      item.quantity ?? 0,
      JSON.stringify(item.customFields ?? {}),
      searchText({ name: item.name, description, sku, barcode }),
      now,
      now,
      rows,
      rows,
    );
  }
});
let batch = [];
for await (const line of readline.createInterface({ input: createReadStream(input) })) {
  if (line.trim() === '') continue;
  batch.push(JSON.parse(line));
  if (batch.length === 1000) {
    write(batch);
    batch = [];
  }
}
write(batch);
db.transaction(() => {
  db.prepare(
    `INSERT INTO items_search (rowid, search_text)
     SELECT i.seq, i.search_text FROM items_search_pending p JOIN items i ON i.seq = p.seq`,
  ).run();
  db.prepare('DELETE FROM items_search_pending').run();
})();
db.close();
process.stdout.write(
  `${JSON.stringify({ seconds: (performance.now() - started) / 1000, rows })}\n`,
);
