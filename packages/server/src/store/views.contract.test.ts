import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../ids.js';
import { generateKey } from '../keys/format.js';
import { engineAvailability, SQLITE_THREADS_ENGINE, type TestEngine } from '../testing/engines.js';
import { createTestSchema } from '../testing/postgres.js';
import { postgresUnavailable } from '../testing/services.js';
import { stockText } from './items/stock.js';
import { PostgresStore } from './postgres/postgres-store.js';
import { foldCase } from './search.js';
import { SqliteStore } from './sqlite/sqlite-store.js';
import {
  type ChangedItem,
  type Item,
  type ItemQuery,
  type ItemScope,
  type ItemStatus,
  SEARCH_FIELDS,
  type Store,
  type Tombstone,
} from './types.js';

/**
 * The store contract of key views (issue 32), on every engine: a key's scope applied inside
 * the queries of lists, search, lookups, detail and the change feed. Each page walk under a
 * scope is compared with the same walk over every item filtered in JavaScript (the model):
 * pages stay full and cursors exact because the scope is part of the query.
 */

/** SQLite with tiny search limits, so that its index plans (not only its walks) are exercised. */
const SQLITE_SMALL_LIMITS: TestEngine = {
  name: 'sqlite',
  label: 'sqlite (index plans)',
  unavailable: async () => null,
  async open() {
    const dir = mkdtempSync(path.join(tmpdir(), 'stockroom-views-'));
    const store = new SqliteStore(path.join(dir, 'stockroom.db'), {
      searchLimits: { ftsCandidateCap: 5, scanBudget: 40, walkSliceRows: 7 },
    });
    return {
      store,
      url: dir,
      async cleanup() {
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
};

/** PostgreSQL with the same small scan budget: its bounded walks end within the data. */
const POSTGRES_SMALL_BUDGET: TestEngine = {
  name: 'postgres',
  label: 'postgres (small scan budget)',
  unavailable: postgresUnavailable,
  async open() {
    const schema = await createTestSchema();
    const store = new PostgresStore(schema.url, { poolSize: 4, scanBudget: 40 });
    return {
      store,
      url: schema.url,
      async cleanup() {
        await store.close();
        await schema.drop();
      },
    };
  },
};

const postgresSkip = await postgresUnavailable();
const LEGS = [
  ...(await engineAvailability('views contract')),
  { engine: SQLITE_THREADS_ENGINE, skip: null },
  { engine: SQLITE_SMALL_LIMITS, skip: null },
  { engine: POSTGRES_SMALL_BUDGET, skip: postgresSkip },
];

const STATUSES: ItemStatus[] = ['Draft', 'Active', 'Inactive', 'Discontinued'];
const WORDS = ['steel', 'bolt', 'nut', 'washer', 'drill', 'Stéel', 'chain', 'rope'];

/** A small deterministic generator (mulberry32), so a failure replays. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const N = 400;

function rows() {
  const next = random(32);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)] as T;
  return Array.from({ length: N }, (_, k) => {
    const channel = pick(['web', 'store', 5, 'Web', null]);
    const custom: Record<string, unknown> = {};
    if (channel !== null) custom.channel = channel;
    if (next() < 0.3) custom.nested = { channel: 'web' };
    const stock: Record<string, number> = {};
    if (next() < 0.6) stock.WH = Math.floor(next() * 3);
    if (next() < 0.4) stock.SHOP = Math.floor(next() * 2);
    return {
      sku: `SKU-${k}`,
      name: `${pick(WORDS)} ${pick(WORDS)} ${k}`,
      description: next() < 0.5 ? `made of ${pick(WORDS)}` : null,
      barcode: next() < 0.3 ? `0000${k}steel` : null,
      status: pick(STATUSES),
      ...(Object.keys(stock).length > 0 ? { stock: stockText(stock) } : { quantity: k % 5 }),
      customFields: JSON.stringify(custom),
    };
  });
}

/** Whether the model lets `scope` see an item. */
function inScope(item: Item, scope: ItemScope): boolean {
  if (scope.statuses && !scope.statuses.includes(item.status)) return false;
  const stock = JSON.parse(item.stock) as Array<{ location: string; quantity: number }>;
  for (const code of scope.locations ?? []) {
    if (!stock.some((row) => row.location === code && row.quantity > 0)) return false;
  }
  const custom = JSON.parse(item.customFields) as Record<string, unknown>;
  for (const { name, value } of scope.customFields ?? []) {
    if (custom[name] !== value) return false;
  }
  return true;
}

/** The model of a page walk: every item the query and the scope select, in `_id` order. */
function model(all: Item[], query: Omit<ItemQuery, 'limit'>): string[] {
  const scope = query.scope ?? {};
  const visible = scope.searchFields ?? SEARCH_FIELDS;
  return all
    .filter((item) => inScope(item, scope))
    .filter((item) => query.status === undefined || item.status === query.status)
    .filter((item) => query.sku === undefined || item.sku === query.sku)
    .filter((item) => query.ids === undefined || query.ids.includes(item.id))
    .filter(
      (item) =>
        query.location === undefined ||
        inScope(item, { locations: [query.location] } satisfies ItemScope),
    )
    .filter(
      (item) =>
        query.search === undefined ||
        visible.some((field) => foldCase(item[field] ?? '').includes(query.search as string)),
    )
    .map((item) => item.id);
}

/**
 * Walks every page as the API does: a full page continues after its last item, a short one
 * where the store says (`resumes` collects those positions: the ids a short page's cursor names).
 */
async function walk(
  store: Store,
  org: string,
  query: Omit<ItemQuery, 'limit'>,
  limit: number,
  resumes: string[] = [],
): Promise<string[]> {
  const seen: string[] = [];
  let afterId: string | undefined;
  for (let pages = 0; pages < 500; pages++) {
    let resume: string | undefined;
    const page = await store.listItems(org, {
      ...query,
      limit,
      ...(afterId === undefined ? {} : { afterId }),
      onPartialPage: (id) => {
        resume = id;
        resumes.push(id);
      },
    });
    seen.push(...page.map((item) => item.id));
    if (page.length === limit) afterId = page[page.length - 1]?.id;
    else if (resume !== undefined) afterId = resume;
    else return seen;
  }
  throw new Error('the walk did not end');
}

const SCOPES: ItemScope[] = [
  {},
  { statuses: ['Active'] },
  { statuses: ['Active', 'Draft'] },
  { statuses: [] },
  { locations: ['WH'] },
  { locations: ['WH', 'SHOP'] },
  { customFields: [{ name: 'channel', value: 'web' }] },
  { searchFields: ['name', 'description'] },
  { searchFields: ['name'] },
  {
    statuses: ['Active', 'Inactive'],
    locations: ['SHOP'],
    customFields: [{ name: 'channel', value: 'web' }],
    searchFields: ['name', 'sku'],
  },
];

const QUERIES: Array<Omit<ItemQuery, 'limit' | 'scope'>> = [
  {},
  { status: 'Active' },
  { status: 'Draft' },
  { location: 'SHOP' },
  { search: 'steel' },
  { search: 'stéel' },
  { search: 'st' },
  { search: '0000' },
  { search: 'sku-1' },
  { search: 'absent' },
  { search: 'steel', status: 'Active' },
  { search: 'bolt', location: 'WH' },
  { sku: 'SKU-7' },
  { sku: 'SKU-7', search: 'sku' },
];

for (const { engine, skip } of LEGS) {
  describe.skipIf(skip !== null)(`Key views contract on ${engine.label ?? engine.name}`, () => {
    let cleanup: () => Promise<void>;
    let store: Store;
    let org: string;
    let all: Item[];

    beforeAll(async () => {
      const handle = await engine.open();
      cleanup = handle.cleanup;
      store = handle.store;
      await store.migrate();
      org = (await store.createOrganization({ name: 'Views', slug: 'views', features: [] })).id;
      await store.createLocation(org, { code: 'WH', name: 'Warehouse' });
      await store.createLocation(org, { code: 'SHOP', name: 'Shop' });
      const outcomes = await store.writeItems(org, rows());
      expect(outcomes.every((outcome) => outcome === 'created')).toBe(true);
      all = await store.listItems(org, { limit: N });
      expect(all).toHaveLength(N);
    }, 60_000);
    afterAll(() => cleanup?.());

    it('keeps a key’s view, clears it, and loads it with the key', async () => {
      const generated = generateKey('organization');
      const key = await store.createApiKey({
        id: newId(),
        organizationId: org,
        userId: null,
        type: 'organization',
        name: 'Feed',
        prefix: generated.prefix,
        hash: generated.hash,
        permissions: ['inventory:view'],
        expiresAt: null,
        remaining: null,
        rateLimit: null,
        createdAt: 1_000,
        view: { where: ['status=Active'], hideFields: ['barcode'], quantityCap: null },
      });
      expect(key).toMatchObject({ viewUpdatedAt: 1_000 });
      expect(await store.getApiKey(key.id)).toEqual(key);
      const view = { where: [], hideFields: ['customFields.cost'], quantityCap: 10 };
      const updated = await store.setApiKeyView(key.id, view, 2_000);
      expect(updated).toMatchObject({ view, viewUpdatedAt: 2_000 });
      expect((await store.loadKeyContext(generated.hash))?.key).toEqual(updated);
      expect(await store.setApiKeyView(key.id, null, 3_000)).toMatchObject({
        view: null,
        viewUpdatedAt: 3_000,
      });
      await store.revokeApiKey(key.id);
      expect(await store.setApiKeyView(key.id, view, 4_000)).toBeNull();
      expect(await store.setApiKeyView('f'.repeat(24), view, 4_000)).toBeNull();
    });

    for (const [s, scope] of SCOPES.entries()) {
      it(`scope ${s} ${JSON.stringify(scope)}: every walk equals the model, in full pages`, async () => {
        for (const query of QUERIES) {
          const scoped = { ...query, scope };
          const expected = model(all, scoped);
          // 13 per page: pages end in the middle of runs of matches and of non-matches.
          expect(await walk(store, org, scoped, 13), JSON.stringify(query)).toEqual(expected);
        }
        // Exact lookups by id under the scope: one visible and one hidden item at most.
        const visible = model(all, { scope });
        const hidden = all.map((item) => item.id).filter((id) => !visible.includes(id));
        const ids = [...visible.slice(0, 3), ...hidden.slice(0, 3)];
        expect(await walk(store, org, { ids, scope }, 100)).toEqual(
          model(all, { ids, scope }).sort(),
        );
        for (const id of ids) {
          const item = await store.getItem(org, id, scope);
          expect(item?.id ?? null).toBe(visible.includes(id) ? id : null);
        }
      });
    }

    it('a short search page resumes after an item of the scope, never one it hides', async () => {
      // The bounded walk of a 1–2 character needle stops after its budget of rows; the cursor
      // the API makes of where it stopped must name an item the key may see (issue 41).
      let resumed = 0;
      for (const scope of SCOPES.filter((s) => s.statuses?.length !== 0)) {
        const visible = new Set(model(all, { scope }));
        for (const search of ['st', 'e', 'zz']) {
          const resumes: string[] = [];
          const scoped = { search, scope };
          const label = `${search} ${JSON.stringify(scope)}`;
          expect(await walk(store, org, scoped, 13, resumes), label).toEqual(model(all, scoped));
          for (const id of resumes)
            expect(visible.has(id), `${label}: resumes after ${id}`).toBe(true);
          resumed += resumes.length;
        }
      }
      // The engines with a small budget do stop short (the default budget is never reached).
      if (engine.label?.includes('small') || engine.label?.includes('index plans')) {
        expect(resumed).toBeGreaterThan(0);
      }
    });

    it('a custom field matches as a string, at the top level only', async () => {
      const scope: ItemScope = { customFields: [{ name: 'channel', value: 'web' }] };
      const seen = await walk(store, org, { scope }, 1000);
      expect(seen.length).toBeGreaterThan(0);
      for (const item of all) {
        const custom = JSON.parse(item.customFields) as Record<string, unknown>;
        expect(seen.includes(item.id)).toBe(custom.channel === 'web');
      }
      // A key named like SQL or a JSON path is only ever a key.
      const odd: ItemScope = { customFields: [{ name: "$.channel' OR 1=1 --", value: 'web' }] };
      expect(await walk(store, org, { scope: odd }, 100)).toEqual([]);
    });

    it('the change feed leaves out what the scope does not see, or lists it as deleted', async () => {
      const other = (
        await store.createOrganization({ name: 'Feed', slug: 'views-feed', features: [] })
      ).id;
      await store.writeItems(other, [
        { sku: 'A', name: 'A', status: 'Active' },
        { sku: 'B', name: 'B', status: 'Draft' },
        { sku: 'C', name: 'C', status: 'Active' },
      ]);
      const start = (
        await store.listChanges(other, { afterSeq: 0, limit: 10, includeDeleted: false })
      ).throughSeq;
      // A leaves the view, B enters it, C is deleted.
      await store.writeItems(other, [
        { sku: 'A', status: 'Inactive' },
        { sku: 'B', status: 'Active' },
      ]);
      await store.deleteItem(other, { sku: 'C' });
      const scope: ItemScope = { statuses: ['Active'] };
      const read = async (includeDeleted: boolean, limit = 10) => {
        const items: ChangedItem[] = [];
        const deleted: Tombstone[] = [];
        let afterSeq = start;
        for (;;) {
          const page = await store.listChanges(other, {
            afterSeq,
            limit,
            includeDeleted,
            scope,
            scopeSince: 5,
          });
          items.push(...page.items);
          deleted.push(...page.deleted);
          afterSeq = page.throughSeq;
          if (!page.more) return { items, deleted };
        }
      };
      const quiet = await read(false);
      expect(quiet.items.map((item) => item.sku)).toEqual(['B']);
      expect(quiet.deleted).toEqual([]);
      for (const limit of [10, 1]) {
        const full = await read(true, limit);
        expect(full.items.map((item) => item.sku)).toEqual(['B']);
        const [a] = await store.listItems(other, { limit: 1, sku: 'A' });
        expect(full.deleted.map((entry) => entry.id)).toHaveLength(2);
        expect(full.deleted[0]).toMatchObject({ id: a?.id, deletedAt: a?.updatedAt });
        // In change order: A's change, B's, then C's deletion.
        const seqs = [
          ...full.items.map((item) => item.changeSeq),
          ...full.deleted.map((d) => d.seq),
        ];
        expect(full.deleted[0]?.seq).toBeLessThan(full.items[0]?.changeSeq as number);
        expect(full.deleted[1]?.seq).toBe(Math.max(...seqs));
      }
      // A view exit is never dated before the view changed.
      const late = await store.listChanges(other, {
        afterSeq: start,
        limit: 10,
        includeDeleted: true,
        scope,
        scopeSince: 9e12,
      });
      expect(late.deleted[0]?.deletedAt).toBe(9e12);
    });

    it('with deletions, every changed row the scope does not surely hold is a view exit', async () => {
      // Items without the custom field (NULL on PostgreSQL, not false), an empty status list
      // (`IN (NULL)` on SQLite), and the rest: none of them may come back as an item.
      const scopes: ItemScope[] = [
        { customFields: [{ name: 'channel', value: 'web' }] },
        { customFields: [{ name: 'absent', value: 'web' }] },
        { statuses: [] },
        { statuses: ['Active'], locations: ['WH'] },
      ];
      for (const scope of scopes) {
        const page = await store.listChanges(org, {
          afterSeq: 0,
          limit: N,
          includeDeleted: true,
          scope,
        });
        const label = JSON.stringify(scope);
        expect(page.more, label).toBe(false);
        const visible = model(all, { scope });
        expect(page.items.map((item) => item.id).sort(), label).toEqual([...visible].sort());
        expect(page.deleted.map((entry) => entry.id).sort(), label).toEqual(
          all
            .map((item) => item.id)
            .filter((id) => !visible.includes(id))
            .sort(),
        );
      }
    });
  });
}
