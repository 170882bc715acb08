import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ItemFields } from '../types.js';
import Database, { type SqliteDatabase } from './driver.js';
import { SqliteStore } from './sqlite-store.js';

/**
 * Deleting an organization on SQLite takes its items out of the FTS5 index one by one (the
 * delete trigger), or, when it holds most of the rows, rebuilds the index from the rows that
 * stay. Either way the index must end up exactly right: FTS5's own integrity check compares
 * it with the items table.
 */

const dir = mkdtempSync(path.join(tmpdir(), 'stockroom-org-delete-'));
const file = path.join(dir, 'stockroom.db');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function rows(tag: string, count: number): ItemFields[] {
  return Array.from({ length: count }, (_, i) => ({
    sku: `${tag}-${i}`,
    name: `Lantern ${tag} ${i}`,
    description: i % 3 === 0 ? 'Crème brûlée torch' : `pack of ${i}`,
    status: 'Active',
  }));
}

/** Runs `work` on a raw connection to the file, beside the store's. */
function raw<T>(work: (db: SqliteDatabase) => T): T {
  const db = new Database(file);
  try {
    return work(db);
  } finally {
    db.close();
  }
}

const pending = () =>
  raw(
    (db) => (db.prepare('SELECT count(*) AS n FROM items_search_pending').get() as { n: number }).n,
  );

/** FTS5's integrity check against the content table (throws when the index is wrong). */
function checkIndex(): void {
  raw((db) => {
    db.prepare("INSERT INTO items_search (items_search, rank) VALUES ('integrity-check', 1)").run();
  });
}

/** Closing a store indexes what it left queued; a fresh store is returned. */
async function reopen(store: SqliteStore): Promise<SqliteStore> {
  await store.close();
  const next = new SqliteStore(file);
  await next.migrate();
  return next;
}

describe('SqliteStore.deleteOrganization and the search index', () => {
  let store: SqliteStore;
  beforeAll(async () => {
    store = new SqliteStore(file);
    await store.migrate();
  });
  afterAll(() => store?.close());

  it('rebuilds the index when the organization holds most of the rows', async () => {
    const big = await store.createOrganization({ name: 'Big', slug: 'big', features: [] });
    const small = await store.createOrganization({ name: 'Small', slug: 'small', features: [] });
    await store.writeItems(big.id, rows('B', 3000));
    await store.writeItems(big.id, [{ sku: 'B-one', name: 'Lantern alone' }]); // indexes the queue
    await store.writeItems(small.id, rows('S', 600)); // a bulk write: stays queued
    expect(pending()).toBe(600);
    const before = await store.listItems(small.id, { limit: 1000, search: 'lantern s 5' });
    expect(before).toHaveLength(111);

    expect(await store.deleteOrganization(big.id)).toEqual({
      items: 3001,
      apiKeys: 0,
      memberships: 0,
    });
    // The rebuild indexed every row that stays, the queued ones included.
    expect(pending()).toBe(0);
    checkIndex();
    expect(await store.listItems(small.id, { limit: 1000, search: 'lantern s 5' })).toEqual(before);
    expect(await store.listItems(small.id, { limit: 1000, search: 'brûlée' })).toHaveLength(200);
    expect(await store.listItems(big.id, { limit: 10, search: 'lantern' })).toEqual([]);
    // The index keeps its settings.
    expect(
      raw((db) => db.prepare("SELECT v FROM items_search_config WHERE k = 'hashsize'").get()),
    ).toEqual({ v: 67108864 });
  });

  it('takes the rows out one by one when the organization holds fewer, queued or indexed', async () => {
    const few = await store.createOrganization({ name: 'Few', slug: 'few', features: [] });
    const small = await store.findOrganization('small');
    await store.writeItems(few.id, [{ sku: 'F-one', name: 'Lantern single' }]);
    await store.writeItems(few.id, rows('F', 500)); // stays queued
    await store.writeItems(small?.id ?? '', rows('T', 500)); // stays queued
    expect(pending()).toBe(1000);

    expect(await store.deleteOrganization(few.id)).toMatchObject({ items: 501 });
    // Only the deleted organization's rows left the queue: no rebuild happened.
    expect(pending()).toBe(500);
    store = await reopen(store);
    expect(pending()).toBe(0);
    checkIndex();
    expect(await store.listItems(few.id, { limit: 10, search: 'lantern' })).toEqual([]);
    expect(
      await store.listItems(small?.id ?? '', { limit: 1000, search: 'lantern t 49' }),
    ).toHaveLength(11);
  });
});
