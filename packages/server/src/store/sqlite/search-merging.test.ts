import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ItemFields } from '../types.js';
import Database from './driver.js';
import { SEARCH_INDEXES } from './search-merging.js';
import { SqliteStore } from './sqlite-store.js';

/**
 * While a bulk load's search index is built in parts, FTS5 merges no segments inside them; the
 * segments are merged afterwards in steps of their own and FTS5's merging comes back
 * (search-merging.ts). Seen from another connection, between two parts: no timing involved.
 */

const dir = mkdtempSync(path.join(tmpdir(), 'stockroom-search-merging-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Each index's automerge and crisismerge settings (null: FTS5's default), on a connection of its own. */
function mergeSettings(file: string): Array<[unknown, unknown]> {
  const db = new Database(file);
  try {
    return SEARCH_INDEXES.map((table) => {
      const get = (key: string) =>
        (db.prepare(`SELECT v FROM ${table}_config WHERE k = ?`).get(key) as { v: unknown })?.v ??
        null;
      return [get('automerge'), get('crisismerge')];
    });
  } finally {
    db.close();
  }
}

function pendingNow(file: string): number {
  const db = new Database(file);
  try {
    return (db.prepare('SELECT count(*) AS n FROM items_search_pending').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

function rows(tag: string, count: number): ItemFields[] {
  return Array.from({ length: count }, (_, i) => ({
    sku: `${tag}-${i}`,
    name: `Part ${tag} ${i}`,
  }));
}

const suspended = SEARCH_INDEXES.map(() => [0, 2000]);
const merging = SEARCH_INDEXES.map(() => [4, 16]);

describe('FTS5 merging during a bulk load on SQLite', () => {
  it('is suspended while the parts run, then the segments are merged and merging comes back', async () => {
    const file = path.join(dir, 'load.db');
    const store = new SqliteStore(file);
    await store.migrate();
    const org = await store.createOrganization({ name: 'load', slug: 'load', features: [] });
    for (let start = 0; start < 12_000; start += 1000) {
      await store.writeItems(org.id, rows(`load${start}`, 1000));
    }
    const closing = store.close();
    expect(pendingNow(file)).toBeGreaterThan(0);
    expect(mergeSettings(file)).toEqual(suspended);
    await closing;
    expect(pendingNow(file)).toBe(0);
    expect(mergeSettings(file)).toEqual(merging);
    const reopened = new SqliteStore(file);
    await reopened.migrate();
    // Found through items_search and through a field's own index alike.
    for (const scope of [undefined, { searchFields: ['sku'] as const }]) {
      const found = await reopened.listItems(org.id, { limit: 5, search: 'load11000-999', scope });
      expect(found.map((item) => item.sku)).toEqual(['load11000-999']);
    }
    await reopened.close();
  });

  it('comes back at the next start when a build was cut short', async () => {
    const file = path.join(dir, 'cut-short.db');
    const store = new SqliteStore(file);
    await store.migrate();
    await store.close();
    const db = new Database(file);
    for (const table of SEARCH_INDEXES) {
      db.prepare(`INSERT INTO ${table} (${table}, rank) VALUES ('automerge', 0)`).run();
    }
    db.close();
    const reopened = new SqliteStore(file);
    await reopened.migrate();
    expect(mergeSettings(file)).toEqual(merging);
    await reopened.close();
  });
});
