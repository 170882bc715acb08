import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ItemFields } from '../types.js';
import Database, { type SqliteDatabase } from './driver.js';
import { SqliteStore } from './sqlite-store.js';

/**
 * Deleting an organization on SQLite takes its items out of the FTS5 index row by row (the
 * delete trigger), in transactions of a bounded size with a pause after each, so that other
 * connections' writes (a server's quota charges) get the write lock in between
 * (lock-sharing.ts). The index must end up exactly right (FTS5's own integrity check compares it
 * with the items table), and a delete cut short must be finished by deleting again.
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

  it('deletes the items in parts: between two, another connection takes the write lock', async () => {
    const big = await store.createOrganization({ name: 'Big', slug: 'big', features: [] });
    const small = await store.createOrganization({ name: 'Small', slug: 'small', features: [] });
    await store.writeItems(big.id, rows('B', 1500));
    await store.writeItems(big.id, [{ sku: 'B-one', name: 'Lantern alone' }]); // indexes the queue
    await store.writeItems(small.id, rows('S', 600)); // a bulk write: stays queued
    expect(pending()).toBe(600);
    const before = await store.listItems(small.id, { limit: 1000, search: 'lantern s 5' });
    expect(before).toHaveLength(111);

    const deletion = store.deleteOrganization(big.id);
    // The first part is committed, the lock is free until the next: a write gets in at once.
    const seen = raw((db) => {
      db.pragma('busy_timeout = 0');
      db.exec('BEGIN IMMEDIATE');
      const left = db.prepare('SELECT count(*) AS n FROM items WHERE organization_id = ?');
      const n = (left.get(big.id) as { n: number }).n;
      db.exec('COMMIT');
      return n;
    });
    expect(seen).toBeGreaterThan(0);
    expect(seen).toBeLessThan(1501);
    expect(await deletion).toEqual({ items: 1501, apiKeys: 0, memberships: 0 });
    // The other organization's queued rows stay queued, and found.
    expect(pending()).toBe(600);
    expect(await store.listItems(small.id, { limit: 1000, search: 'lantern s 5' })).toEqual(before);
    store = await reopen(store);
    expect(pending()).toBe(0);
    checkIndex();
    expect(await store.listItems(small.id, { limit: 1000, search: 'lantern s 5' })).toEqual(before);
    expect(await store.listItems(small.id, { limit: 1000, search: 'brûlée' })).toHaveLength(200);
    expect(await store.listItems(big.id, { limit: 10, search: 'lantern' })).toEqual([]);
  });

  it('finishes a delete cut short when asked again', async () => {
    const cut = await store.createOrganization({ name: 'Cut', slug: 'cut', features: [] });
    await store.writeItems(cut.id, rows('C', 2500));
    await store.writeItems(cut.id, [{ sku: 'C-one', name: 'Lantern alone' }]); // indexes the queue
    // Another connection takes the lock after the first part and keeps it: the next part
    // fails (busy_timeout 0), as when the process is killed between two parts.
    const impatient = new SqliteStore(file, { busyTimeoutMs: 0 });
    const deletion = impatient.deleteOrganization(cut.id);
    const holder = new Database(file);
    holder.exec('BEGIN IMMEDIATE');
    await expect(deletion).rejects.toThrow(/busy/);
    holder.exec('ROLLBACK');
    holder.close();
    await impatient.close();
    const left = await store.countItems(cut.id);
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThan(2501);
    expect(await store.findOrganization('cut')).not.toBeNull();
    expect(await store.deleteOrganization(cut.id)).toEqual({
      items: left,
      apiKeys: 0,
      memberships: 0,
    });
    expect(await store.findOrganization('cut')).toBeNull();
    checkIndex();
  });

  it('takes the rows out one by one when the organization holds fewer, queued or indexed', async () => {
    const few = await store.createOrganization({ name: 'Few', slug: 'few', features: [] });
    const small = await store.findOrganization('small');
    await store.writeItems(few.id, [{ sku: 'F-one', name: 'Lantern single' }]);
    await store.writeItems(few.id, rows('F', 500)); // stays queued
    await store.writeItems(small?.id ?? '', rows('T', 500)); // stays queued
    expect(pending()).toBe(1000);

    expect(await store.deleteOrganization(few.id)).toMatchObject({ items: 501 });
    // Only the deleted organization's rows left the queue.
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
