import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../store/types.js';
import { engineAvailability, type TestStore } from '../testing/engines.js';
import { startTestServer } from '../testing/harness.js';
import { PURGE_SLACK_MS, TombstonePurger } from './tombstones.js';

const LEGS = await engineAvailability('tombstone purger');
const DAY = 86_400_000;

for (const { engine, skip } of LEGS) {
  describe.skipIf(skip !== null)(`TombstonePurger on ${engine.name}`, () => {
    let handle: TestStore;
    let store: Store;
    let purger: TombstonePurger;
    const errors: unknown[] = [];

    beforeAll(async () => {
      handle = await engine.open();
      store = handle.store;
      await store.migrate();
      // An interval far longer than the test: only the purges it asks for run.
      purger = new TombstonePurger(store, 30 * DAY, (error) => errors.push(error), 3_600_000);
    });
    afterAll(async () => {
      await purger.close();
      await handle.cleanup();
    });

    async function deletedItemIn(organizationId: string, sku: string) {
      await store.writeItems(organizationId, [{ name: sku, sku }]);
      expect(await store.deleteItem(organizationId, { sku })).toBe(true);
    }

    it('drops tombstones only once the retention period and the slack have passed', async () => {
      const org = await store.createOrganization({ name: 'P', slug: 'purge', features: [] });
      await deletedItemIn(org.id, 'GONE-1');
      const feed = () =>
        store.listChanges(org.id, { afterSeq: 0, limit: 10, includeDeleted: true });
      expect((await feed()).deleted).toHaveLength(1);

      // Just inside retention + slack: kept.
      expect(await purger.purge(Date.now() + 30 * DAY)).toBe(0);
      expect((await feed()).deleted).toHaveLength(1);
      // Past it: dropped, in every organization.
      const other = await store.createOrganization({ name: 'Q', slug: 'purge-2', features: [] });
      await deletedItemIn(other.id, 'GONE-2');
      expect(await purger.purge(Date.now() + 30 * DAY + PURGE_SLACK_MS + 60_000)).toBe(2);
      expect((await feed()).deleted).toEqual([]);
      expect(errors).toEqual([]);
    });

    it('reports a failed purge and keeps running', async () => {
      const broken = { purgeTombstones: () => Promise.reject(new Error('database down')) };
      const failing = new TombstonePurger(broken as unknown as Store, DAY, (e) => errors.push(e));
      failing.start();
      expect(await failing.purge()).toBe(0);
      await failing.close();
      // The purge at start and the one asked for.
      expect(errors.map((e) => (e as Error).message)).toEqual(['database down', 'database down']);
    });
  });
}

describe('the first start of a fresh SQLite database', () => {
  it('logs no warning and no error: the purge waits for the migration', async () => {
    const server = await startTestServer({ engine: 'sqlite', captureLogs: true });
    try {
      // Queued behind the purge the start ran: once this one is done, that one is too.
      expect(await server.server.services.tombstones.purge()).toBe(0);
      expect((await server.request('/api/v1/health')).status).toBe(200);
      const loud = server.logs.filter((line) => (line.level as number) >= 40);
      expect(loud).toEqual([]);
      expect(server.logs.length).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  });
});
