import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { issueKey } from '../keys/issue.js';
import Database from '../store/sqlite/driver.js';
import { SqliteStore } from '../store/sqlite/sqlite-store.js';
import type { ItemFields } from '../store/types.js';
import { createCliSandbox, expectSuccess } from '../testing/cli-harness.js';
import { startServeProcess } from '../testing/serve-process.js';

/**
 * `stockroom backup` beside a running `stockroom serve` and a running import, each a process of
 * its own: the e2e tier (it spawns processes). The command's other rules are backup.test.ts's.
 */

const ROWS_PER_IMPORT_BATCH = 1000; // items/import.ts DEFAULT_BATCH_SIZE

function rows(tag: string, count: number): ItemFields[] {
  return Array.from({ length: count }, (_, i) => ({
    sku: `${tag}-${i}`,
    name: `Lantern ${tag} ${i}`,
    description: i % 2 === 0 ? 'Crème brûlée torch' : null,
    status: 'Active',
    quantity: i / 4,
    customFields: `{ "z": ${i}, "a": "ü" }`,
  }));
}

/** Temporary files a backup leaves beside its target (none, if it cleaned up). */
function leftovers(dir: string): string[] {
  return readdirSync(dir).filter((name) => name.endsWith('.tmp'));
}

/** Opens a backup read-only and runs SQLite's integrity check and a count. */
function inspect(file: string): { integrity: string; items: number } {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return {
      integrity: db.pragma('integrity_check', { simple: true }) as string,
      items: (db.prepare('SELECT count(*) AS n FROM items').get() as { n: number }).n,
    };
  } finally {
    db.close();
  }
}

/** A store on `file`, closed by `cleanup`. */
function opener() {
  const stores: SqliteStore[] = [];
  return {
    open(file: string) {
      const store = new SqliteStore(file);
      stores.push(store);
      return store;
    },
    cleanup: () => Promise.all(stores.map((store) => store.close())),
  };
}

describe('stockroom backup while a server serves the file and an import writes it', () => {
  const box = createCliSandbox();
  const stores = opener();
  afterAll(async () => {
    await stores.cleanup();
    box.cleanup();
  });

  it('gives consistent snapshots: each copy passes integrity_check and holds a committed state', async () => {
    const store = stores.open(box.dbPath);
    await store.migrate();
    const busy = await store.createOrganization({
      name: 'Busy',
      slug: 'busy',
      features: ['inventory'],
    });
    const base = 250;
    await store.writeItems(busy.id, rows('BASE', base));
    const { key } = await issueKey(store, {
      organizationId: busy.id,
      remaining: 1_000_000,
      rateLimit: null,
    });
    const total = 50 * ROWS_PER_IMPORT_BATCH;
    const csv = ['sku,name,description,quantity'];
    for (let i = 0; i < total; i++) {
      csv.push(`NEW-${i},Item ${i} lantern,"Described at some length, item ${i}",${i}`);
    }
    const file = box.file('import.csv', `${csv.join('\n')}\n`);

    const server = await startServeProcess({ DATABASE_URL: box.dbPath });
    try {
      // The server reads and writes (each request spends quota) throughout.
      let serving = true;
      const statuses: number[] = [];
      const traffic = (async () => {
        while (serving) {
          const response = await fetch(`${server.apiUrl}/api/v1/inventory/items?limit=5`, {
            headers: { 'x-api-key': key },
          });
          await response.arrayBuffer();
          statuses.push(response.status);
        }
      })();
      let importing = true;
      // The import and the backups are processes of their own, as an operator's would be.
      const imported = box
        .runBinary(['items', 'import', file, '--org', 'busy', '--json'])
        .finally(() => {
          importing = false;
        });
      // Backups start once the import has committed its first batch (it reads the whole file
      // first), so they overlap its writes.
      const reader = new Database(box.dbPath, { readonly: true });
      try {
        const count = reader.prepare('SELECT count(*) AS n FROM items');
        while ((count.get() as { n: number }).n === base && importing) {
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      } finally {
        reader.close();
      }
      // Backups keep starting, a few at a time and staggered, until the import ends: their
      // snapshots fall at different points of it.
      const copies: string[] = [];
      const running = new Set<Promise<void>>();
      const finished: Array<Promise<void>> = [];
      while (importing) {
        if (running.size >= 3) {
          await Promise.race(running);
          continue;
        }
        const copy = path.join(box.dir, `copy-${copies.length}.db`);
        copies.push(copy);
        const backup: Promise<void> = box.runBinary(['backup', copy, '--json']).then((run) => {
          running.delete(backup);
          expectSuccess(run, { json: true });
        });
        running.add(backup);
        finished.push(backup);
        await Promise.race([imported, new Promise((resolve) => setTimeout(resolve, 150))]);
      }
      await Promise.all(finished);
      const result = await imported;
      serving = false;
      await traffic;
      expectSuccess(result, { json: true });
      expect(result.json).toMatchObject({ created: total, failed: 0 });
      expect(statuses.length).toBeGreaterThan(0);
      expect(new Set(statuses)).toEqual(new Set([200]));

      // Every batch of the import is one transaction: a copy holds whole batches only.
      const committed = (n: number) =>
        n >= base && n <= base + total && (n - base) % ROWS_PER_IMPORT_BATCH === 0;
      const counts: number[] = [];
      for (const copy of copies) {
        const { integrity, items } = inspect(copy);
        expect(integrity).toBe('ok');
        expect(committed(items), `${items} items`).toBe(true);
        counts.push(items);
      }
      // The search index and its queue were copied consistently with the rows: once the rows
      // left queued are indexed, FTS5's own check agrees with the items table.
      for (const copy of copies.filter((_, i) => (counts[i] ?? 0) < base + total).slice(0, 2)) {
        const opened = stores.open(copy);
        await opened.migrate();
        await opened.close();
        const raw = new Database(copy);
        try {
          raw
            .prepare("INSERT INTO items_search (items_search, rank) VALUES ('integrity-check', 1)")
            .run();
        } finally {
          raw.close();
        }
      }
      // At least one copy was taken while the import was part-way through.
      expect(
        counts.some((n) => n > base && n < base + total),
        `items in the copies: ${counts.join(', ')}`,
      ).toBe(true);
      expect(leftovers(box.dir)).toEqual([]);
    } finally {
      await server.stop();
    }
  }, 120_000);
});
