import { tmpdir } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { BUILT_THREAD_SCRIPT, openThreadedSqlite, type TestStore } from '../../testing/engines.js';
import { type Item, type Organization, StoreUnavailableError } from '../types.js';
import Database from './driver.js';
import { CHUNK_ROWS, type Thread } from './sqlite-threads.js';
import { ThreadedSqliteStore } from './threaded-store.js';

/**
 * The thread-backed SQLite store of a serving process (sqlite-threads.ts), with real threads
 * (the built worker script): the store contract runs on it in store.contract.test.ts; here, what
 * only threads do. No timing thresholds: a deadline is shown by a thread held far past it.
 */

let handle: (TestStore & { store: ThreadedSqliteStore }) | undefined;
afterEach(async () => {
  await handle?.cleanup();
  handle = undefined;
});

async function open(options: { timeoutMs?: number; readers?: number } = {}) {
  handle = await openThreadedSqlite(options);
  await handle.store.migrate();
  return handle.store;
}

async function withItems(store: ThreadedSqliteStore, count: number): Promise<Organization> {
  const org = await store.createOrganization({ name: 'Threads', slug: 'threads', features: [] });
  const outcomes = await store.writeItems(
    org.id,
    Array.from({ length: count }, (_, i) => ({ sku: `T-${i}`, name: `Torch ${i}` })),
  );
  expect(outcomes.every((outcome) => outcome === 'created')).toBe(true);
  return org;
}

/** Polls until `condition` holds (no sleeping as synchronisation: a deadline instead). */
async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const readerWorkers = (store: ThreadedSqliteStore) =>
  store.threads.readers.map((reader) => reader.current);

describe('the thread-backed SQLite store', () => {
  it('answers a large page in messages of at most CHUNK_ROWS items, in order', async () => {
    const store = await open();
    const org = await withItems(store, 1000);
    const slices: Item[][] = [];
    for await (const slice of store.listItemSlices(org.id, { limit: 1000 })) slices.push(slice);
    expect(slices.length).toBeGreaterThanOrEqual(1000 / CHUNK_ROWS);
    expect(Math.max(...slices.map((slice) => slice.length))).toBeLessThanOrEqual(CHUNK_ROWS);
    const ids = slices.flat().map((item) => item.id);
    expect(ids).toHaveLength(1000);
    expect([...ids].sort()).toEqual(ids);
    // The change feed too: handed to onItem as they arrive, or kept on the page.
    const handed: string[] = [];
    const page = await store.listChanges(org.id, {
      afterSeq: 0,
      limit: 1000,
      includeDeleted: false,
      onItem: (item) => handed.push(item.id),
    });
    expect(page.items).toEqual([]);
    expect(handed).toHaveLength(1000);
    const kept = await store.listChanges(org.id, {
      afterSeq: 0,
      limit: 1000,
      includeDeleted: false,
    });
    expect(kept.items.map((item) => item.id)).toEqual(handed);
  });

  it('fails a read past DATABASE_TIMEOUT_MS with StoreUnavailableError and replaces its thread', async () => {
    const store = await open({ timeoutMs: 300, readers: 2 });
    const org = await withItems(store, 3);
    const [, busy] = store.threads.readers as [Thread, Thread];
    const before = busy.current;
    // A statement that would run for a minute: cut at the deadline.
    await expect(store.threads.testCall(busy, 'spin', [60_000])).rejects.toBeInstanceOf(
      StoreUnavailableError,
    );
    expect(busy.current).not.toBe(before);
    await busy.whenReady();
    // The replacement serves; so does every other reader.
    for (let i = 0; i < 6; i++) expect(await store.countItems(org.id)).toBe(3);
    expect((await store.listItems(org.id, { limit: 10 })).length).toBe(3);
  });

  it('keeps point lookups answering while the long-read thread is held', async () => {
    const store = await open({ timeoutMs: 60_000, readers: 2 });
    const org = await withItems(store, 3);
    const item = (await store.listItems(org.id, { limit: 1 }))[0] as Item;
    const [, long] = store.threads.readers as [Thread, Thread];
    const spinning = store.threads.testCall(long, 'spin', [60_000]).catch((error) => error);
    // Routed to the held thread, these would wait a minute (the test's timeout first).
    for (let i = 0; i < 5; i++) {
      expect((await store.getItem(org.id, item.id))?.id).toBe(item.id);
      expect((await store.loadKeyContext('0'.repeat(64))) ?? null).toBeNull();
      await store.ping();
    }
    void long.current.terminate();
    expect(await spinning).toBeInstanceOf(StoreUnavailableError);
  });

  it('replaces a reader that dies; the calls it held fail with StoreUnavailableError', async () => {
    const store = await open({ timeoutMs: 60_000, readers: 2 });
    const org = await withItems(store, 2);
    const [, reader] = store.threads.readers as [Thread, Thread];
    const before = reader.current;
    const held = store.threads.testCall(reader, 'spin', [60_000]);
    void before.terminate();
    await expect(held).rejects.toBeInstanceOf(StoreUnavailableError);
    await until(() => reader.current !== before, 'the replacement thread');
    await reader.whenReady();
    expect(await store.countItems(org.id)).toBe(2);
    // A thread that exits by itself (a crash) is replaced too.
    const second = reader.current;
    await expect(store.threads.testCall(reader, 'crash')).rejects.toBeInstanceOf(
      StoreUnavailableError,
    );
    await until(() => reader.current !== second, 'the second replacement');
    await reader.whenReady();
    expect(await store.countItems(org.id)).toBe(2);
    expect(readerWorkers(store)).toHaveLength(2);
  });

  it('replaces a writer that dies; writes work again on the new one', async () => {
    const store = await open({ timeoutMs: 60_000 });
    const org = await withItems(store, 1);
    const writer = store.threads.writer;
    const before = writer.current;
    await expect(store.threads.testCall(writer, 'crash')).rejects.toBeInstanceOf(
      StoreUnavailableError,
    );
    await until(() => writer.current !== before, 'the new writer');
    await writer.whenReady();
    expect(await store.writeItems(org.id, [{ sku: 'T-new', name: 'New torch' }])).toEqual([
      'created',
    ]);
    expect(await store.countItems(org.id)).toBe(2);
  });

  it('fails writes with StoreUnavailableError at the deadline while another connection holds the write lock; reads go on', async () => {
    const store = await open({ timeoutMs: 300 });
    const org = await withItems(store, 5);
    const key = await store.createApiKey({
      id: 'key_threads_1',
      organizationId: org.id,
      userId: null,
      type: 'organization',
      name: 'quota',
      prefix: 'sr_org_abcd',
      hash: 'a'.repeat(64),
      permissions: ['inventory:read'],
      expiresAt: null,
      remaining: 10,
      rateLimit: null,
      createdAt: Date.now(),
      view: null,
    });
    const other = new Database(handle?.url ?? '');
    other.exec('BEGIN IMMEDIATE');
    try {
      // Several charges at once: each fails at its deadline, none waits for the one before.
      const charges = await Promise.allSettled([
        store.consumeQuota(key.id),
        store.consumeQuota(key.id),
        store.consumeQuota(key.id),
        store.recordKeyUse(new Map([[key.id, Date.now()]])),
      ]);
      for (const charge of charges) {
        expect(charge.status).toBe('rejected');
        expect((charge as PromiseRejectedResult).reason).toBeInstanceOf(StoreUnavailableError);
      }
      // Reads answer meanwhile, on their own connections.
      expect((await store.loadKeyContext('a'.repeat(64)))?.key.id).toBe(key.id);
      expect(await store.countItems(org.id)).toBe(5);
      expect(await store.listItems(org.id, { limit: 10, search: 'torch' })).toHaveLength(5);
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    // None of the failed charges took a use.
    expect(await store.consumeQuota(key.id)).toBe(9);
  });

  it('answers point lookups on the calling thread while every reader thread is held', async () => {
    const store = await open({ timeoutMs: 60_000 });
    const org = await withItems(store, 2);
    const item = (await store.listItems(org.id, { limit: 1 }))[0] as Item;
    // Every reader held for a minute: answered here, or not before the test's timeout.
    const held = store.threads.readers.map((reader) =>
      store.threads.testCall(reader, 'spin', [60_000]).catch((error) => error),
    );
    expect((await store.getItem(org.id, item.id))?.id).toBe(item.id);
    expect((await store.getOrganization(org.id))?.id).toBe(org.id);
    expect(await store.loadKeyContext('0'.repeat(64))).toBeNull();
    for (const reader of store.threads.readers) void reader.current.terminate();
    for (const outcome of await Promise.all(held)) {
      expect(outcome).toBeInstanceOf(StoreUnavailableError);
    }
  });

  it('sends a point lookup its own connection cannot answer to a reader thread', async () => {
    const store = await open();
    const org = await withItems(store, 1);
    const item = (await store.listItems(org.id, { limit: 1 }))[0] as Item;
    // Its connection refusing (busy, here closed: StoreUnavailableError either way).
    await (store as unknown as { local: { close(): Promise<void> } }).local.close();
    expect((await store.getItem(org.id, item.id))?.id).toBe(item.id);
    expect((await store.getOrganization(org.id))?.id).toBe(org.id);
  });

  it('reports a partial search page through onPartialPage across the thread', async () => {
    handle = await openThreadedSqlite({ searchLimits: { scanBudget: 2, walkSliceRows: 1 } });
    const store = handle.store;
    await store.migrate();
    const org = await withItems(store, 5);
    const all = await store.listItems(org.id, { limit: 10 });
    let resume: string | undefined;
    // A 1-character needle examines at most the scan budget (2 rows): Torch 0 and Torch 1.
    const page = await store.listItems(org.id, {
      limit: 2,
      search: '1',
      onPartialPage: (id) => {
        resume = id;
      },
    });
    expect(page.map((item) => item.sku)).toEqual(['T-1']);
    expect(resume).toBe(all[1]?.id);
  });

  it('closes every thread without hanging, and refuses calls afterwards', async () => {
    const store = await open();
    await withItems(store, 2);
    const workers = [...readerWorkers(store), store.threads.writer.current];
    const exits = workers.map((worker) => new Promise((resolve) => worker.once('exit', resolve)));
    await store.close();
    await Promise.all(exits);
    await expect(store.ping()).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(store.countOrganizations()).rejects.toBeInstanceOf(StoreUnavailableError);
  });

  it('closes within the deadline even while the writer runs a call that would last a minute', async () => {
    const store = await open({ timeoutMs: 300 });
    const held = store.threads
      .testCall(store.threads.writer, 'spin', [60_000])
      .catch((error: unknown) => error);
    // Past the test's timeout if close waited for the call.
    await store.close();
    expect(await held).toBeInstanceOf(StoreUnavailableError);
  });

  it('refuses a database it cannot open with StoreUnavailableError', async () => {
    // A directory is no database file.
    await expect(
      ThreadedSqliteStore.open(tmpdir(), { script: BUILT_THREAD_SCRIPT }),
    ).rejects.toBeInstanceOf(StoreUnavailableError);
  });
});
