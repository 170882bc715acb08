import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ItemFields } from '../types.js';
import Database from './driver.js';
import { BULK_TRANSACTION_MS, ChunkSizer } from './lock-sharing.js';
import { SqliteStore } from './sqlite-store.js';

/**
 * A bulk load shares SQLite's write lock (lock-sharing.ts): the search index of its queued rows
 * is built in parts, and a small write never indexes a bulk load's large queue in its own
 * transaction. Seen from another connection, between two parts: no timing involved.
 */

const dir = mkdtempSync(path.join(tmpdir(), 'stockroom-lock-sharing-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function rows(tag: string, count: number): ItemFields[] {
  return Array.from({ length: count }, (_, i) => ({
    sku: `${tag}-${i}`,
    name: `Part ${tag} ${i}`,
  }));
}

/** Rows queued for the search index, read on a connection of its own that must get the lock at once. */
function pendingNow(file: string): number {
  const db = new Database(file);
  try {
    db.pragma('busy_timeout = 0');
    db.exec('BEGIN IMMEDIATE');
    const n = (db.prepare('SELECT count(*) AS n FROM items_search_pending').get() as { n: number })
      .n;
    db.exec('COMMIT');
    return n;
  } finally {
    db.close();
  }
}

async function bulkLoaded(
  name: string,
  count: number,
): Promise<{ file: string; store: SqliteStore; org: string }> {
  const file = path.join(dir, `${name}.db`);
  const store = new SqliteStore(file);
  await store.migrate();
  const org = await store.createOrganization({ name, slug: name, features: [] });
  for (let start = 0; start < count; start += 1000) {
    await store.writeItems(org.id, rows(`${name}${start}`, Math.min(1000, count - start)));
  }
  return { file, store, org: org.id };
}

describe('a bulk load and the write lock on SQLite', () => {
  it('indexes its queue in parts when its store closes: between two, another connection writes', async () => {
    const { file, store } = await bulkLoaded('closing', 12_000);
    expect(pendingNow(file)).toBe(12_000);
    const closing = store.close();
    const between = pendingNow(file);
    expect(between).toBeGreaterThan(0);
    expect(between).toBeLessThan(12_000);
    await closing;
    expect(pendingNow(file)).toBe(0);
    const reopened = new SqliteStore(file);
    expect(
      await reopened.listItems((await reopened.findOrganization('closing'))?.id ?? '', {
        limit: 5,
        search: 'closing11000-999',
      }),
    ).toHaveLength(1);
    await reopened.close();
  });

  it('leaves a large queue to the bulk load: a small write indexes only a small one', async () => {
    const { file, store, org } = await bulkLoaded('small-write', 3000);
    await store.writeItems(org, [{ sku: 'one', name: 'One more' }]);
    // 3,000 queued rows are a bulk load's: the small write does not index them in its transaction.
    expect(pendingNow(file)).toBe(3001);
    // Found all the same (searches read the queue), and indexed when the loader closes.
    expect(await store.listItems(org, { limit: 5, search: 'one more' })).toHaveLength(1);
    await store.close();
    expect(pendingNow(file)).toBe(0);
  });

  it('sizes its transactions to about BULK_TRANSACTION_MS from the time the last ones took', () => {
    const sizer = new ChunkSizer(500, 20_000);
    expect(sizer.rows).toBe(500);
    sizer.took(500, BULK_TRANSACTION_MS * 2); // twice too long: half as many rows next time
    expect(sizer.rows).toBe(250);
    sizer.took(250, 0); // instant: averaged with the last, twice as many
    expect(sizer.rows).toBe(500);
    for (let i = 0; i < 20; i++) sizer.took(500, 0);
    expect(sizer.rows).toBe(20_000); // bounded
  });
});
