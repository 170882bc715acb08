import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../ids.js';
import { generateKey } from '../keys/format.js';
import { engineAvailability, SQLITE_THREADS_ENGINE, type TestStore } from '../testing/engines.js';
import { foldCase } from './search.js';
import Database from './sqlite/driver.js';
import {
  type ChangedItem,
  type ChangePage,
  type ChangeQuery,
  type Item,
  type ItemFields,
  type ItemQuery,
  type NewApiKey,
  type Store,
  StoreConflictError,
} from './types.js';

/**
 * One storage contract, every engine: the same tests and the same expected values run against
 * SQLite and PostgreSQL, and a final test compares the two engines' answers to one fixture.
 */
const LEGS = [
  ...(await engineAvailability('store contract')),
  // The serving processes' SQLite store: the same engine, its statements on threads.
  { engine: SQLITE_THREADS_ENGINE, skip: null },
];

const NOW = Date.UTC(2026, 10, 22, 5, 1, 4, 123);

/** The shared fixture: Unicode folding, LIKE metacharacters, odd JSON, field boundaries. */
const FIXTURE: ItemFields[] = [
  {
    sku: 'CBT-1',
    name: 'Crème Brûlée Torch',
    description: 'Kitchen TORCH for ÉCLAIRS',
    barcode: '4006381333931',
    status: 'Active',
    quantity: 2.5,
    customFields: '{"z":1,"a":{"nested":[1,"two",null]},"m":"ünïcode"}',
  },
  {
    sku: 'PCT_TAG',
    name: 'Discount 100% off tag',
    description: 'under_score and back\\slash',
    status: 'Active',
    quantity: 0,
  },
  {
    sku: 'PCT-2',
    name: 'Discount 1000 off',
    description: 'no sign',
    status: 'Draft',
    quantity: -3.25,
  },
  {
    sku: 'GRK-1',
    name: 'Σίσυφος stone',
    description: null,
    barcode: null,
    status: 'Inactive',
    quantity: 1e15,
    customFields: '{ "b" : 2,\n  "a" : 1 }',
  },
  {
    sku: 'STR-1',
    name: 'Straße sign',
    description: 'Kelvin sign: \u212a, long s: \u017f',
    status: 'Active',
    quantity: 1e-7,
    customFields: '{"esc":"\\u0000\\ud800","big":12345678901234567890,"dup":1,"dup":2}',
  },
  { sku: 'SPAN-1', name: 'abc', description: 'def', status: 'Discontinued', quantity: 7 },
  { sku: 'AXB-1', name: 'Taxbox', status: 'Draft' },
  { name: 'No sku: a_b and a%b', description: 'x', status: 'Draft' },
  { sku: 'TURK-1', name: 'İstanbul ferry', status: 'Active', quantity: 3 },
];

/** Search needle → expected skus (null: the item without a sku), in id order. */
const SEARCHES: Array<[string, Array<string | null>]> = [
  ['crème', ['CBT-1']],
  ['CRÈME BRÛLÉE', ['CBT-1']],
  ['creme', []],
  ['éclairs', ['CBT-1']],
  ['4006381333931', ['CBT-1']],
  ['pct_tag', ['PCT_TAG']],
  ['100%', ['PCT_TAG']],
  ['%', ['PCT_TAG', null]],
  ['_', ['PCT_TAG', null]],
  ['a_b', [null]],
  ['a%b', [null]],
  ['\\', ['PCT_TAG']],
  ['back\\slash', ['PCT_TAG']],
  ['ΣΊΣΥΦΟΣ', ['GRK-1']],
  ['σίσυφος', ['GRK-1']],
  ['σισυφοσ', []],
  ['straße', ['STR-1']],
  ['STRA\u1e9eE', ['STR-1']],
  ['STRASSE', []],
  ['sign: k,', ['STR-1']],
  ['long s: s', ['STR-1']],
  ['abc', ['SPAN-1']],
  ['cdef', []],
  ['İSTANBUL', ['TURK-1']],
  ['\u0000', []],
  ['a\u0000b', []],
];

function sortedSkus(items: Item[]): Array<string | null> {
  return items.map((item) => item.sku);
}

/** Every item of a keyset walk, honouring an engine's partial pages (`onPartialPage`). */
async function walk(store: Store, org: string, query: Omit<ItemQuery, 'afterId'>) {
  const seen: Item[] = [];
  let afterId: string | undefined;
  for (;;) {
    let resumeAfter: string | undefined;
    const page = await store.listItems(org, {
      ...query,
      ...(afterId ? { afterId } : {}),
      onPartialPage: (id) => {
        resumeAfter = id;
      },
    });
    seen.push(...page);
    if (resumeAfter !== undefined) afterId = resumeAfter;
    else if (page.length < query.limit) return seen;
    else afterId = page[page.length - 1]?.id;
  }
}

/**
 * Every change of a feed walk from `afterSeq`, page by page, continuing from each page's
 * throughSeq while it says there is more; with the pages, and where the walk ended.
 */
async function walkChanges(
  store: Store,
  org: string,
  query: Omit<ChangeQuery, 'afterSeq'> & { afterSeq?: number },
) {
  const pages: ChangePage[] = [];
  let afterSeq = query.afterSeq ?? 0;
  for (;;) {
    const page = await store.listChanges(org, { ...query, afterSeq });
    pages.push(page);
    expect(page.throughSeq).toBeGreaterThanOrEqual(afterSeq);
    afterSeq = page.throughSeq;
    if (!page.more) break;
  }
  return { pages, changes: pages.flatMap(changesOf), throughSeq: afterSeq };
}

/** A page's changes in feed order: `i:sku` for items, `d:id` for tombstones, with numbers. */
function changesOf(page: ChangePage): Array<{ seq: number; change: string }> {
  return [
    ...page.items.map((item) => ({ seq: item.changeSeq, change: `i:${item.sku ?? item.id}` })),
    ...page.deleted.map((gone) => ({ seq: gone.seq, change: `d:${gone.id}` })),
  ].sort((a, b) => a.seq - b.seq);
}

/**
 * Resolves once a backend waits for a lock behind `pid` (depth 1), or behind a backend that
 * itself waits behind `pid` (depth 2). It asks the server's lock graph, which says when a
 * transaction has reached its wait: no sleep stands in for that.
 */
async function untilBlocked(observer: pg.Client, pid: number, depth: 1 | 2 = 1): Promise<void> {
  const sql =
    depth === 1
      ? 'SELECT count(*)::int AS n FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))'
      : `SELECT count(*)::int AS n FROM pg_stat_activity b
         WHERE EXISTS (SELECT 1 FROM pg_stat_activity a
           WHERE $1 = ANY(pg_blocking_pids(a.pid)) AND a.pid = ANY(pg_blocking_pids(b.pid)))`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    const { rows } = await observer.query(sql, [pid]);
    if ((rows[0]?.n as number) > 0) return;
    if (Date.now() > deadline) throw new Error(`no backend came to wait behind ${pid}`);
  }
}

function newKey(organizationId: string, input: Partial<NewApiKey> = {}): NewApiKey {
  const generated = generateKey(input.userId ? 'user' : 'organization');
  return {
    id: newId(),
    organizationId,
    userId: null,
    type: input.userId ? 'user' : 'organization',
    name: 'Contract key',
    prefix: generated.prefix,
    hash: generated.hash,
    permissions: ['inventory:view'],
    expiresAt: null,
    remaining: null,
    rateLimit: { max: 600, windowSeconds: 60 },
    createdAt: Date.now(),
    view: null,
    ...input,
  };
}

/** What an engine answers to the fixture, with ids replaced by positions (ids differ by run). */
async function fixtureSnapshot(store: Store) {
  const org = await store.createOrganization({ name: 'Snap', slug: 'snap', features: [] });
  const outcomes = await store.writeItems(org.id, FIXTURE, { now: NOW });
  const all = await store.listItems(org.id, { limit: 1000 });
  const position = new Map(all.map((item, i) => [item.id, i]));
  const strip = (items: Item[]) =>
    items.map(({ id, organizationId: _, ...rest }) => ({ at: position.get(id), ...rest }));
  const searches: Record<string, unknown> = {};
  for (const [needle] of SEARCHES) {
    searches[needle] = strip(
      await store.listItems(org.id, { limit: 50, search: foldCase(needle) }),
    );
  }
  const upsert = await store.writeItems(
    org.id,
    [{ sku: 'CBT-1', quantity: 2.5 }, { sku: 'CBT-1', quantity: 3 }, { sku: 'NEW', name: 'n' }, {}],
    { now: NOW + 1000 },
  );
  return {
    outcomes,
    items: strip(all),
    searches,
    upsert,
    after: strip(await walk(store, org.id, { limit: 2 })),
  };
}

for (const { engine, skip } of LEGS) {
  describe.skipIf(skip !== null)(`Store contract on ${engine.label ?? engine.name}`, () => {
    let handle: TestStore;
    let store: Store;

    beforeAll(async () => {
      handle = await engine.open();
      store = handle.store;
      expect((await store.migrate()).length).toBeGreaterThan(0);
    });
    afterAll(() => handle?.cleanup());

    /** Rows of raw SQL (placeholders `$1`…) on the store's database, through a connection of its own. */
    async function rawRows(
      sql: string,
      params: unknown[] = [],
    ): Promise<Array<Record<string, unknown>>> {
      if (engine.name === 'postgres') {
        const client = new pg.Client({ connectionString: handle.url });
        await client.connect();
        try {
          return (await client.query(sql, params)).rows;
        } finally {
          await client.end();
        }
      }
      const db = new Database(handle.url, { readonly: true });
      try {
        return db.prepare(sql.replace(/\$\d+/g, '?')).all(...params) as Array<
          Record<string, unknown>
        >;
      } finally {
        db.close();
      }
    }

    async function tombstoneCount(organizationId: string): Promise<number> {
      const [row] = await rawRows(
        'SELECT count(*) AS n FROM item_tombstones WHERE organization_id = $1',
        [organizationId],
      );
      return Number(row?.n);
    }

    it('migrates once: a second run applies nothing', async () => {
      expect(store.engine).toBe(engine.name);
      expect(await store.migrate()).toEqual([]);
      await store.ping();
    });

    describe('organizations', () => {
      it('creates, finds by id or slug, lists in id order, counts and updates', async () => {
        const before = await store.countOrganizations();
        const a = await store.createOrganization({
          name: 'A',
          slug: 'org-a',
          features: ['inventory'],
        });
        const b = await store.createOrganization({ name: 'B', slug: 'org-b', features: [] });
        expect(a.id).toMatch(/^[0-9a-f]{24}$/);
        expect(await store.getOrganization(a.id)).toEqual(a);
        expect(await store.findOrganization('org-b')).toEqual(b);
        expect(await store.findOrganization(b.id)).toEqual(b);
        expect(await store.findOrganization('nope')).toBeNull();
        expect(await store.getOrganization('0'.repeat(24))).toBeNull();
        expect(await store.countOrganizations()).toBe(before + 2);
        const listed = (await store.listOrganizations()).map((o) => o.id);
        expect(listed).toEqual([...listed].sort());
        expect(listed.slice(-2)).toEqual([a.id, b.id]);
        const updated = await store.updateOrganization(a.id, { features: [] });
        expect(updated).toEqual({ ...a, features: [] });
        expect(await store.updateOrganization(a.id, { name: 'A2' })).toEqual({
          ...a,
          name: 'A2',
          features: [],
        });
        expect(await store.getOrganization(a.id)).toEqual({ ...a, name: 'A2', features: [] });
      });

      it('refuses a duplicate slug and an update of an unknown organization', async () => {
        await store.createOrganization({ name: 'Dup', slug: 'dup', features: [] });
        await expect(
          store.createOrganization({ name: 'Dup2', slug: 'dup', features: [] }),
        ).rejects.toBeInstanceOf(StoreConflictError);
        await expect(
          store.updateOrganization('0'.repeat(24), { name: 'x' }),
        ).rejects.toBeInstanceOf(StoreConflictError);
      });
    });

    describe('users and memberships', () => {
      it('finds users by id or email (case-insensitive) and refuses a duplicate email', async () => {
        const user = await store.createUser({ email: 'Ada@Example.test', name: 'Ada' });
        expect(await store.findUser(user.id)).toEqual(user);
        expect(await store.findUser('ada@example.TEST')).toEqual(user);
        expect(await store.findUser('nobody@example.test')).toBeNull();
        await expect(
          store.createUser({ email: 'ADA@example.test', name: null }),
        ).rejects.toBeInstanceOf(StoreConflictError);
      });

      it('adds members idempotently, lists them in id order and removes them', async () => {
        const org = await store.createOrganization({ name: 'M', slug: 'members', features: [] });
        const u1 = await store.createUser({ email: 'm1@example.test', name: null });
        const u2 = await store.createUser({ email: 'm2@example.test', name: 'Two' });
        await store.addMember(org.id, u2.id);
        await store.addMember(org.id, u1.id);
        await store.addMember(org.id, u1.id);
        expect(await store.listMembers(org.id)).toEqual([u1, u2]);
        expect(await store.isMember(org.id, u1.id)).toBe(true);
        expect(await store.removeMember(org.id, u1.id)).toBe(true);
        expect(await store.removeMember(org.id, u1.id)).toBe(false);
        expect(await store.isMember(org.id, u1.id)).toBe(false);
        expect(await store.listMembers(org.id)).toEqual([u2]);
      });
    });

    describe('API keys', () => {
      let orgId: string;
      beforeAll(async () => {
        orgId = (
          await store.createOrganization({ name: 'K', slug: 'keys', features: ['inventory'] })
        ).id;
      });

      it('stores every field and loads the key context by hash', async () => {
        const input = newKey(orgId, {
          expiresAt: NOW,
          remaining: 3,
          rateLimit: null,
          permissions: [],
        });
        const record = await store.createApiKey(input);
        expect(record).toEqual({
          ...input,
          enabled: true,
          revokedAt: null,
          lastUsedAt: null,
          previousHash: null,
          previousHashExpiresAt: null,
          viewUpdatedAt: null,
        });
        expect(await store.getApiKey(input.id)).toEqual(record);
        const context = await store.loadKeyContext(input.hash);
        expect(context?.key).toEqual(record);
        expect(context?.member).toBe(true);
        expect(context?.organization).toEqual(await store.getOrganization(orgId));
        expect(await store.loadKeyContext('f'.repeat(64))).toBeNull();
        expect((await store.listApiKeys(orgId)).map((k) => k.id)).toContain(input.id);
      });

      it('disables, enables and revokes; a revoked key is unknown', async () => {
        const input = newKey(orgId);
        await store.createApiKey(input);
        expect((await store.setApiKeyEnabled(input.id, false))?.enabled).toBe(false);
        expect((await store.loadKeyContext(input.hash))?.key.enabled).toBe(false);
        expect((await store.setApiKeyEnabled(input.id, true))?.enabled).toBe(true);
        const revoked = await store.revokeApiKey(input.id);
        expect(revoked?.revokedAt).toEqual(expect.any(Number));
        expect((await store.revokeApiKey(input.id))?.revokedAt).toBe(revoked?.revokedAt);
        expect(await store.loadKeyContext(input.hash)).toBeNull();
        expect(await store.setApiKeyEnabled('0'.repeat(24), true)).toBeNull();
      });

      it('reports membership of a user key', async () => {
        const user = await store.createUser({ email: 'keyuser@example.test', name: null });
        await store.addMember(orgId, user.id);
        const input = newKey(orgId, { userId: user.id });
        await store.createApiKey(input);
        expect((await store.loadKeyContext(input.hash))?.member).toBe(true);
        await store.removeMember(orgId, user.id);
        expect((await store.loadKeyContext(input.hash))?.member).toBe(false);
      });

      it('takes, refunds and reports quota', async () => {
        const input = newKey(orgId, { remaining: 2 });
        await store.createApiKey(input);
        expect(await store.consumeQuota(input.id)).toBe(1);
        expect(await store.consumeQuota(input.id)).toBe(0);
        expect(await store.consumeQuota(input.id)).toBeNull();
        expect(await store.refundQuota(input.id)).toBe(1);
        expect(await store.getRemaining(input.id)).toBe(1);
        const unlimited = newKey(orgId);
        await store.createApiKey(unlimited);
        expect(await store.getRemaining(unlimited.id)).toBeNull();
        expect(await store.consumeQuota(unlimited.id)).toBeNull();
        expect(await store.refundQuota(unlimited.id)).toBeNull();
        expect(await store.getRemaining(unlimited.id)).toBeNull();
      });

      it('takes each use of a quota exactly once under concurrency', async () => {
        const input = newKey(orgId, { remaining: 25 });
        await store.createApiKey(input);
        const results = await Promise.all(
          Array.from({ length: 100 }, () => store.consumeQuota(input.id)),
        );
        const taken = results.filter((r): r is number => r !== null).sort((a, b) => a - b);
        expect(taken).toEqual(Array.from({ length: 25 }, (_, i) => i));
        expect(await store.getRemaining(input.id)).toBe(0);
      });

      it('rotates a secret: the old one works until the grace ends, then only the new one', async () => {
        const input = newKey(orgId, { remaining: 9, rateLimit: { max: 5, windowSeconds: 60 } });
        await store.createApiKey(input);
        const first = generateKey('organization');
        const graceEnd = Date.now() + 60_000;
        const rotated = await store.rotateApiKey(input.id, first, graceEnd);
        expect(rotated).toEqual({
          ...(await store.getApiKey(input.id)),
          hash: first.hash,
          prefix: first.prefix,
          previousHash: input.hash,
          previousHashExpiresAt: graceEnd,
        });
        // Everything but the secret is kept: id, quota, rate limit, permissions.
        expect(rotated).toMatchObject({ id: input.id, remaining: 9, rateLimit: input.rateLimit });
        expect((await store.loadKeyContext(first.hash))?.key.id).toBe(input.id);
        expect((await store.loadKeyContext(input.hash))?.key.id).toBe(input.id);

        // Rotating again ends the first grace: only the latest previous secret is kept.
        const second = generateKey('organization');
        await store.rotateApiKey(input.id, second, graceEnd);
        expect(await store.loadKeyContext(input.hash)).toBeNull();
        expect((await store.loadKeyContext(first.hash))?.key.id).toBe(input.id);

        // Without a grace period the previous secret stops at once; a grace in the past too.
        const third = generateKey('organization');
        expect((await store.rotateApiKey(input.id, third, null))?.previousHash).toBeNull();
        expect(await store.loadKeyContext(second.hash)).toBeNull();
        const fourth = generateKey('organization');
        await store.rotateApiKey(input.id, fourth, Date.now() - 1);
        expect(await store.loadKeyContext(third.hash)).toBeNull();
        expect((await store.loadKeyContext(fourth.hash))?.key.id).toBe(input.id);

        // A revoked key cannot be rotated, and neither of its secrets loads.
        const fifth = generateKey('organization');
        await store.rotateApiKey(input.id, fifth, graceEnd);
        await store.revokeApiKey(input.id);
        expect(await store.rotateApiKey(input.id, generateKey('organization'), null)).toBeNull();
        expect(await store.loadKeyContext(fourth.hash)).toBeNull();
        expect(await store.loadKeyContext(fifth.hash)).toBeNull();
        expect(await store.rotateApiKey('0'.repeat(24), fifth, null)).toBeNull();
      });

      it('records the latest use and never goes back in time', async () => {
        const input = newKey(orgId);
        await store.createApiKey(input);
        await store.recordKeyUse(new Map([[input.id, NOW]]));
        await store.recordKeyUse(new Map([[input.id, NOW - 5000]]));
        await store.recordKeyUse(new Map());
        expect((await store.getApiKey(input.id))?.lastUsedAt).toBe(NOW);
      });
    });

    describe('audit log', () => {
      it('appends events and lists them oldest first, the most recent `limit`, per organization', async () => {
        const org = await store.createOrganization({ name: 'A', slug: 'audited', features: [] });
        const other = await store.createOrganization({
          name: 'B',
          slug: 'unaudited',
          features: [],
        });
        const recorded = [];
        for (const [i, action] of (
          ['key.created', 'key.disabled', 'key.revoked'] as const
        ).entries()) {
          recorded.push(
            await store.appendAuditEvent({
              organizationId: org.id,
              actor: 'cli:test',
              action,
              target: i === 0 ? null : 'k'.repeat(24),
              details: { n: i, nested: { list: [1, 'two', null] }, text: 'ünïcode' },
              at: NOW + i,
            }),
          );
        }
        expect(recorded[0]).toEqual({
          id: expect.stringMatching(/^[0-9a-f]{24}$/),
          organizationId: org.id,
          actor: 'cli:test',
          action: 'key.created',
          target: null,
          details: { n: 0, nested: { list: [1, 'two', null] }, text: 'ünïcode' },
          at: NOW,
        });
        expect(await store.listAuditEvents(org.id)).toEqual(recorded);
        expect(await store.listAuditEvents(org.id, { limit: 2 })).toEqual(recorded.slice(1));
        expect(await store.listAuditEvents(other.id)).toEqual([]);
      });
    });

    describe('items: the shared fixture', () => {
      let orgId: string;
      let otherOrgId: string;
      let all: Item[];

      beforeAll(async () => {
        orgId = (await store.createOrganization({ name: 'I', slug: 'items', features: [] })).id;
        otherOrgId = (await store.createOrganization({ name: 'O', slug: 'other', features: [] }))
          .id;
        const outcomes = await store.writeItems(orgId, FIXTURE, { now: NOW });
        expect(outcomes).toEqual(FIXTURE.map(() => 'created'));
        await store.writeItems(otherOrgId, [{ sku: 'CBT-1', name: 'Crème elsewhere' }], {
          now: NOW,
        });
        all = await store.listItems(orgId, { limit: 1000 });
      });

      it('returns items in creation (id) order with every field as written', async () => {
        expect(sortedSkus(all)).toEqual(FIXTURE.map((row) => row.sku ?? null));
        expect(all.map((i) => i.id)).toEqual(all.map((i) => i.id).sort());
        expect(all[0]).toEqual({
          id: all[0]?.id,
          organizationId: orgId,
          name: 'Crème Brûlée Torch',
          description: 'Kitchen TORCH for ÉCLAIRS',
          sku: 'CBT-1',
          barcode: '4006381333931',
          status: 'Active',
          quantity: 2.5,
          stock: '[]',
          customFields: '{"z":1,"a":{"nested":[1,"two",null]},"m":"ünïcode"}',
          createdAt: NOW,
          updatedAt: NOW,
        });
        expect(all.find((i) => i.sku === 'AXB-1')).toMatchObject({
          description: null,
          barcode: null,
          quantity: 0,
          customFields: '{}',
        });
        expect(all.map((i) => i.quantity)).toEqual([2.5, 0, -3.25, 1e15, 1e-7, 7, 0, 0, 3]);
      });

      it('keeps customFields byte for byte (whitespace, key order, duplicates, escapes, big numbers)', async () => {
        for (const row of FIXTURE.filter((r) => r.customFields !== undefined)) {
          const item = all.find((i) => i.sku === row.sku);
          expect(item?.customFields).toBe(row.customFields);
          expect((await store.getItem(orgId, item?.id ?? ''))?.customFields).toBe(row.customFields);
        }
      });

      it.each(SEARCHES)('search %j finds %j', async (needle, skus) => {
        const found = await store.listItems(orgId, { limit: 100, search: foldCase(needle) });
        expect(sortedSkus(found)).toEqual(skus);
      });

      it('combines search, status, limit and cursor', async () => {
        expect(sortedSkus(await store.listItems(orgId, { limit: 100, status: 'Active' }))).toEqual([
          'CBT-1',
          'PCT_TAG',
          'STR-1',
          'TURK-1',
        ]);
        expect(
          sortedSkus(
            await store.listItems(orgId, { limit: 100, status: 'Active', search: 'sign' }),
          ),
        ).toEqual(['STR-1']);
        expect(sortedSkus(await store.listItems(orgId, { limit: 2, search: 'o' }))).toEqual([
          'CBT-1',
          'PCT_TAG',
        ]);
        const afterFirst = await store.listItems(orgId, {
          limit: 100,
          search: 'o',
          afterId: all[1]?.id ?? '',
        });
        expect(sortedSkus(afterFirst)).toEqual(['PCT-2', 'GRK-1', 'STR-1', 'AXB-1', null]);
      });

      it('walks every item exactly once with cursors, with and without filters', async () => {
        expect((await walk(store, orgId, { limit: 2 })).map((i) => i.id)).toEqual(
          all.map((i) => i.id),
        );
        const active = await walk(store, orgId, { limit: 1, status: 'Active' });
        expect(sortedSkus(active)).toEqual(['CBT-1', 'PCT_TAG', 'STR-1', 'TURK-1']);
        const searched = await walk(store, orgId, { limit: 3, search: 'o' });
        expect(sortedSkus(searched)).toEqual([
          'CBT-1',
          'PCT_TAG',
          'PCT-2',
          'GRK-1',
          'STR-1',
          'AXB-1',
          null,
        ]);
      });

      it('scopes every read by organization', async () => {
        const first = all[0];
        if (!first) throw new Error('fixture missing');
        expect(await store.getItem(otherOrgId, first.id)).toBeNull();
        expect(await store.getItem(orgId, first.id)).toEqual(first);
        expect(
          sortedSkus(await store.listItems(otherOrgId, { limit: 10, search: 'crème' })),
        ).toEqual(['CBT-1']);
        expect(await store.countItems(orgId)).toBe(FIXTURE.length);
        expect(await store.countItems(otherOrgId)).toBe(1);
      });
    });

    describe('items: writes', () => {
      let orgId: string;
      beforeAll(async () => {
        orgId = (await store.createOrganization({ name: 'W', slug: 'writes', features: [] })).id;
      });
      const bySku = async (sku: string) =>
        (await walk(store, orgId, { limit: 1000 })).find((item) => item.sku === sku);

      it('upserts by sku: created, updated, unchanged (keeping updatedAt), absent fields kept', async () => {
        expect(
          await store.writeItems(
            orgId,
            [{ sku: 'W-1', name: 'One', quantity: 1, barcode: 'BAR-XYZ' }],
            { now: NOW },
          ),
        ).toEqual(['created']);
        expect((await store.listItems(orgId, { limit: 10, search: 'bar-xyz' })).length).toBe(1);
        expect(
          await store.writeItems(orgId, [{ sku: 'W-1', quantity: 1 }], { now: NOW + 1 }),
        ).toEqual(['unchanged']);
        expect((await bySku('W-1'))?.updatedAt).toBe(NOW);
        expect(
          await store.writeItems(orgId, [{ sku: 'W-1', quantity: 2, barcode: null }], {
            now: NOW + 2,
          }),
        ).toEqual(['updated']);
        expect(await bySku('W-1')).toMatchObject({
          name: 'One',
          quantity: 2,
          barcode: null,
          createdAt: NOW,
          updatedAt: NOW + 2,
        });
        // The search text follows the update.
        expect(await store.listItems(orgId, { limit: 10, search: 'bar-xyz' })).toEqual([]);
      });

      it('sees earlier rows of the same call, creates rows without sku, reports rows it cannot write', async () => {
        const outcomes = await store.writeItems(
          orgId,
          [
            { sku: 'W-2', name: 'Two' },
            { sku: 'W-2', status: 'Active' },
            { sku: 'W-2', status: 'Active' },
            { sku: 'W-404', quantity: 1 },
            { name: 'No sku' },
            { name: 'No sku' },
            { sku: 'W-3', name: 'Bad\u0000name' },
          ],
          { now: NOW },
        );
        expect(outcomes).toEqual([
          'created',
          'updated',
          'unchanged',
          { error: 'name is required to create an item (no item has this sku yet)' },
          'created',
          'created',
          { error: 'name contains the NUL character (U+0000), which cannot be stored' },
        ]);
        expect(await bySku('W-2')).toMatchObject({ name: 'Two', status: 'Active' });
        expect(await bySku('W-3')).toBeUndefined();
        expect((await store.listItems(orgId, { limit: 100, search: 'no sku' })).length).toBe(2);
      });

      it('keeps nothing on a dry run, nor with allOrNothing when a row fails', async () => {
        const count = await store.countItems(orgId);
        expect(
          await store.writeItems(orgId, [{ sku: 'D-1', name: 'Dry' }], { dryRun: true }),
        ).toEqual(['created']);
        expect(
          await store.writeItems(orgId, [{ sku: 'D-2', name: 'Kept?' }, { sku: 'D-3' }], {
            allOrNothing: true,
          }),
        ).toEqual([
          'created',
          { error: 'name is required to create an item (no item has this sku yet)' },
        ]);
        expect(await store.countItems(orgId)).toBe(count);
        expect(
          await store.writeItems(orgId, [{ sku: 'D-2', name: 'Kept' }, { sku: 'D-3' }]),
        ).toEqual([
          'created',
          { error: 'name is required to create an item (no item has this sku yet)' },
        ]);
        expect(await store.countItems(orgId)).toBe(count + 1);
      });

      it('writes thousands of rows in one call and updates them all in another', async () => {
        const rows = Array.from({ length: 4500 }, (_, i) => ({
          sku: `BULK-${i}`,
          name: `Bulk ${i}`,
          quantity: i,
        }));
        const created = await store.writeItems(orgId, rows, { now: NOW });
        expect(created.every((o) => o === 'created')).toBe(true);
        const updated = await store.writeItems(
          orgId,
          rows.map((row, i) =>
            i % 2 === 0 ? { sku: row.sku, quantity: -1 } : { sku: row.sku, quantity: i },
          ),
          { now: NOW + 5 },
        );
        expect(updated.filter((o) => o === 'updated')).toHaveLength(2250);
        expect(updated.filter((o) => o === 'unchanged')).toHaveLength(2250);
        expect(await bySku('BULK-4498')).toMatchObject({ quantity: -1, updatedAt: NOW + 5 });
        // Needles common and rare across a larger organization (both page strategies).
        const names = async (query: Omit<ItemQuery, 'afterId'>) =>
          (await walk(store, orgId, query)).map((item) => item.name);
        expect(
          (await store.listItems(orgId, { limit: 5, search: 'bulk 1' })).map((i) => i.name),
        ).toEqual(['Bulk 1', 'Bulk 10', 'Bulk 11', 'Bulk 12', 'Bulk 13']);
        expect(
          (await store.listItems(orgId, { limit: 5, search: 'bulk 449' })).map((i) => i.name),
        ).toEqual(['Bulk 449', 'Bulk 4490', 'Bulk 4491', 'Bulk 4492', 'Bulk 4493']);
        expect(await names({ limit: 3, search: 'bulk 449' })).toEqual([
          'Bulk 449',
          ...Array.from({ length: 10 }, (_, i) => `Bulk 449${i}`),
        ]);
        expect(await names({ limit: 7, search: 'bulk 4' })).toHaveLength(1 + 10 + 100 + 500);
        expect(await bySku('BULK-4499')).toMatchObject({ quantity: 4499, updatedAt: NOW });
        // A large page given in slices holds the same items as the page read whole.
        for (const query of [
          { limit: 1001, afterId: (await bySku('BULK-7'))?.id },
          { limit: 250, status: 'Draft' as const },
        ]) {
          const slices: Item[][] = [];
          for await (const slice of store.listItemSlices(orgId, query)) slices.push(slice);
          expect(slices.length).toBeGreaterThan(1);
          expect(slices.flat()).toEqual(await store.listItems(orgId, query));
          expect(slices.flat()).toHaveLength(query.limit);
        }
        // A reader that stops early gives back what it held (on PostgreSQL a connection with
        // an open cursor): more early stops than a pool has connections, then a read.
        for (let stop = 0; stop < 12; stop++) {
          for await (const slice of store.listItemSlices(orgId, { limit: 1001 })) {
            expect(slice.length).toBeGreaterThan(0);
            break;
          }
        }
        expect(await store.listItems(orgId, { limit: 1, search: 'bulk 4499' })).toHaveLength(1);
      });

      it('serializes concurrent writers of the same new sku: one creates, the other updates', async () => {
        const [a, b] = await Promise.all([
          store.writeItems(orgId, [{ sku: 'RACE', name: 'Race', quantity: 1 }]),
          store.writeItems(orgId, [{ sku: 'RACE', name: 'Race', quantity: 2 }]),
        ]);
        expect([a?.[0], b?.[0]].sort()).toEqual(['created', 'updated']);
        expect((await store.listItems(orgId, { limit: 10, search: 'race' })).length).toBe(1);
      });

      it('deletes by id or sku, scoped by organization', async () => {
        await store.writeItems(orgId, [
          { sku: 'DEL-1', name: 'Del' },
          { sku: 'DEL-2', name: 'Del' },
        ]);
        const item = await bySku('DEL-1');
        const other = (
          await store.createOrganization({ name: 'X', slug: 'del-other', features: [] })
        ).id;
        expect(await store.deleteItem(other, { id: item?.id ?? '' })).toBe(false);
        expect(await store.deleteItem(orgId, { id: item?.id ?? '' })).toBe(true);
        expect(await store.deleteItem(orgId, { id: item?.id ?? '' })).toBe(false);
        expect(await store.deleteItem(orgId, { sku: 'DEL-2' })).toBe(true);
        expect(await store.deleteItem(orgId, { sku: 'DEL-2' })).toBe(false);
      });
    });

    describe('items: exact lookups', () => {
      let orgId: string;
      let otherOrgId: string;
      let items: Item[];
      beforeAll(async () => {
        orgId = (await store.createOrganization({ name: 'L', slug: 'lookups', features: [] })).id;
        otherOrgId = (
          await store.createOrganization({ name: 'L2', slug: 'lookups-other', features: [] })
        ).id;
        await store.writeItems(
          orgId,
          [
            { sku: 'SKU-1', name: 'One', barcode: '4006381333931', status: 'Active' },
            { sku: 'sku-1', name: 'One, lower case', barcode: 'EAN-SHARED', status: 'Active' },
            { sku: 'PCT_%', name: 'Metacharacters', barcode: 'EAN-shared', status: 'Draft' },
            { sku: 'SHARED-1', name: 'Shared 1', barcode: 'EAN-SHARED', status: 'Draft' },
            { sku: 'SHARED-2', name: 'Shared 2', barcode: 'EAN-SHARED', status: 'Active' },
            { name: 'No sku', barcode: 'EAN-SHARED', status: 'Active' },
            { sku: 'SHARED-3', name: 'Shared 3', barcode: 'EAN-SHARED', status: 'Inactive' },
            { sku: 'NO-BARCODE', name: 'No barcode', status: 'Active' },
          ],
          { now: NOW },
        );
        await store.writeItems(otherOrgId, [
          { sku: 'SKU-1', name: 'Elsewhere', barcode: 'EAN-SHARED', status: 'Active' },
        ]);
        items = await store.listItems(orgId, { limit: 100 });
      });
      const idOf = (sku: string | null) => items.find((item) => item.sku === sku)?.id as string;

      it('finds by sku exactly: case-sensitive, LIKE characters literal, scoped by organization', async () => {
        const one = await store.listItems(orgId, { limit: 10, sku: 'SKU-1' });
        expect(one).toEqual([items.find((item) => item.sku === 'SKU-1')]);
        expect(sortedSkus(await store.listItems(orgId, { limit: 10, sku: 'sku-1' }))).toEqual([
          'sku-1',
        ]);
        expect(sortedSkus(await store.listItems(orgId, { limit: 10, sku: 'PCT_%' }))).toEqual([
          'PCT_%',
        ]);
        expect(await store.listItems(orgId, { limit: 10, sku: 'PCT__' })).toEqual([]);
        expect(await store.listItems(orgId, { limit: 10, sku: 'SKU-' })).toEqual([]);
        expect(await store.listItems(orgId, { limit: 10, sku: 'SKU-1 ' })).toEqual([]);
        expect(await store.listItems(orgId, { limit: 10, sku: 'SKU\u00001' })).toEqual([]);
        expect((await store.listItems(otherOrgId, { limit: 10, sku: 'SKU-1' }))[0]?.name).toBe(
          'Elsewhere',
        );
        // With status and cursor.
        expect(await store.listItems(orgId, { limit: 10, sku: 'SKU-1', status: 'Draft' })).toEqual(
          [],
        );
        expect(
          await store.listItems(orgId, { limit: 10, sku: 'SKU-1', afterId: idOf('SKU-1') }),
        ).toEqual([]);
        expect(
          sortedSkus(
            await store.listItems(orgId, { limit: 10, sku: 'SKU-1', afterId: '0'.repeat(24) }),
          ),
        ).toEqual(['SKU-1']);
      });

      it('finds by barcode exactly, in id order, with status and cursor walks', async () => {
        expect(
          sortedSkus(await store.listItems(orgId, { limit: 10, barcode: '4006381333931' })),
        ).toEqual(['SKU-1']);
        expect(
          sortedSkus(await store.listItems(orgId, { limit: 10, barcode: 'EAN-SHARED' })),
        ).toEqual(['sku-1', 'SHARED-1', 'SHARED-2', null, 'SHARED-3']);
        expect(
          sortedSkus(await store.listItems(orgId, { limit: 10, barcode: 'EAN-shared' })),
        ).toEqual(['PCT_%']);
        expect(await store.listItems(orgId, { limit: 10, barcode: 'EAN' })).toEqual([]);
        expect(sortedSkus(await walk(store, orgId, { limit: 2, barcode: 'EAN-SHARED' }))).toEqual([
          'sku-1',
          'SHARED-1',
          'SHARED-2',
          null,
          'SHARED-3',
        ]);
        expect(
          sortedSkus(
            await walk(store, orgId, { limit: 1, barcode: 'EAN-SHARED', status: 'Active' }),
          ),
        ).toEqual(['sku-1', 'SHARED-2', null]);
        expect(
          sortedSkus(
            await store.listItems(orgId, {
              limit: 2,
              barcode: 'EAN-SHARED',
              afterId: idOf('SHARED-1'),
            }),
          ),
        ).toEqual(['SHARED-2', null]);
        // Another organization's item with the same barcode is never found.
        expect(
          (await store.listItems(orgId, { limit: 10, barcode: 'EAN-SHARED' })).every(
            (item) => item.organizationId === orgId,
          ),
        ).toBe(true);
      });

      it('finds by ids: any order in, id order out, unknown and foreign ids absent', async () => {
        const foreign = (await store.listItems(otherOrgId, { limit: 1 }))[0]?.id as string;
        const ids = [idOf('SHARED-2'), 'f'.repeat(24), idOf('SKU-1'), foreign, idOf(null)];
        expect(sortedSkus(await store.listItems(orgId, { limit: 100, ids }))).toEqual([
          'SKU-1',
          'SHARED-2',
          null,
        ]);
        expect(
          sortedSkus(await store.listItems(orgId, { limit: 100, ids, status: 'Active' })),
        ).toEqual(['SKU-1', 'SHARED-2', null]);
        expect(
          sortedSkus(await store.listItems(orgId, { limit: 100, ids, status: 'Draft' })),
        ).toEqual([]);
        expect(sortedSkus(await walk(store, orgId, { limit: 1, ids }))).toEqual([
          'SKU-1',
          'SHARED-2',
          null,
        ]);
        expect(
          sortedSkus(await store.listItems(orgId, { limit: 1, ids, afterId: idOf('SKU-1') })),
        ).toEqual(['SHARED-2']);
        expect(await store.listItems(orgId, { limit: 100, ids: [] })).toEqual([]);
        expect(await store.listItems(otherOrgId, { limit: 100, ids })).toEqual(
          await store.listItems(otherOrgId, { limit: 100 }),
        );
        const all = items.map((item) => item.id);
        expect(await store.listItems(orgId, { limit: 100, ids: [...all].reverse() })).toEqual(
          items,
        );
      });

      it('combines exact filters with each other and with a search (all must hold)', async () => {
        expect(
          sortedSkus(
            await store.listItems(orgId, { limit: 10, barcode: 'EAN-SHARED', sku: 'SHARED-1' }),
          ),
        ).toEqual(['SHARED-1']);
        expect(
          await store.listItems(orgId, { limit: 10, barcode: 'EAN-SHARED', sku: 'SKU-1' }),
        ).toEqual([]);
        expect(
          sortedSkus(
            await store.listItems(orgId, {
              limit: 10,
              barcode: 'EAN-SHARED',
              search: foldCase('SHARED '),
            }),
          ),
        ).toEqual(['SHARED-1', 'SHARED-2', 'SHARED-3']);
        expect(
          sortedSkus(
            await store.listItems(orgId, { limit: 10, ids: [idOf('SKU-1')], search: 'one' }),
          ),
        ).toEqual(['SKU-1']);
        expect(
          await store.listItems(orgId, { limit: 10, ids: [idOf('SKU-1')], search: 'two' }),
        ).toEqual([]);
      });
    });

    describe('change feed', () => {
      let orgId: string;
      let otherOrgId: string;
      const all = { limit: 1000, includeDeleted: true } as const;
      beforeAll(async () => {
        orgId = (await store.createOrganization({ name: 'C', slug: 'changes', features: [] })).id;
        otherOrgId = (
          await store.createOrganization({ name: 'C2', slug: 'changes-other', features: [] })
        ).id;
      });

      it('starts empty, and an unknown organization has no changes', async () => {
        expect(await store.listChanges(orgId, { afterSeq: 0, ...all })).toEqual({
          items: [],
          deleted: [],
          throughSeq: 0,
          more: false,
        });
        expect(
          await store.listChanges('0'.repeat(24), {
            afterSeq: 42,
            limit: 10,
            includeDeleted: true,
          }),
        ).toEqual({ items: [], deleted: [], throughSeq: 42, more: false });
      });

      it('numbers creates, updates and deletions in order; unchanged rows keep their number', async () => {
        const base = NOW * 1000;
        expect(
          await store.writeItems(
            orgId,
            [
              { sku: 'A', name: 'A', status: 'Active' },
              { sku: 'B', name: 'B', status: 'Draft' },
              { sku: 'C', name: 'C', status: 'Active' },
            ],
            { now: NOW },
          ),
        ).toEqual(['created', 'created', 'created']);
        const first = await store.listChanges(orgId, { afterSeq: 0, ...all });
        // The first number of a write is max(last + 1, now × 1000), then one per row.
        expect(first.items.map((item) => [item.sku, item.changeSeq])).toEqual([
          ['A', base],
          ['B', base + 1],
          ['C', base + 2],
        ]);
        expect(first).toMatchObject({ deleted: [], throughSeq: base + 2, more: false });
        const a = first.items[0] as Item & { changeSeq: number };
        // Its creation's number too (webhooks tell creations from updates by it).
        expect(a).toEqual({
          ...(await store.getItem(orgId, a.id)),
          changeSeq: base,
          createdSeq: base,
        });

        // A write in the same millisecond continues after the last number; a row that writes
        // what is stored is unchanged and keeps its number; a sku written twice in one call
        // takes a number per change and keeps the last.
        expect(
          await store.writeItems(
            orgId,
            [
              { sku: 'A', name: 'A' },
              { sku: 'B', quantity: 5 },
              { sku: 'D', name: 'D', status: 'Active' },
              { sku: 'D', status: 'Inactive' },
              { sku: 'D', status: 'Inactive' },
              { sku: 'X' },
            ],
            { now: NOW },
          ),
        ).toEqual([
          'unchanged',
          'updated',
          'created',
          'updated',
          'unchanged',
          { error: 'name is required to create an item (no item has this sku yet)' },
        ]);
        // A dry run and a rolled-back write take no number.
        await store.writeItems(orgId, [{ sku: 'C', quantity: 9 }], { now: NOW + 5, dryRun: true });
        await store.writeItems(orgId, [{ sku: 'C', quantity: 9 }, { sku: 'Y' }], {
          now: NOW + 5,
          allOrNothing: true,
        });
        // A later millisecond starts at its own clock value.
        await store.writeItems(orgId, [{ sku: 'C', quantity: 1 }], { now: NOW + 2 });

        const before = Date.now();
        expect(await store.deleteItem(orgId, { sku: 'B' })).toBe(true);
        expect(await store.deleteItem(orgId, { sku: 'B' })).toBe(false);
        const after = Date.now();

        const page = await store.listChanges(orgId, { afterSeq: 0, ...all });
        const b = first.items[1] as Item;
        const gone = page.deleted[0];
        expect(changesOf(page)).toEqual([
          { seq: base, change: 'i:A' },
          { seq: base + 5, change: 'i:D' },
          { seq: base + 2000, change: 'i:C' },
          { seq: gone?.seq, change: `d:${b.id}` },
        ]);
        // Deletions use the wall clock: at least its milliseconds × 1000, after every change.
        expect(gone?.seq).toBeGreaterThanOrEqual(before * 1000);
        expect(gone?.deletedAt).toBeGreaterThanOrEqual(before);
        expect(gone?.deletedAt).toBeLessThanOrEqual(after);
        expect(page).toMatchObject({ throughSeq: gone?.seq, more: false });
        expect(page.items.find((item) => item.sku === 'D')?.status).toBe('Inactive');

        // Without includeDeleted the tombstone is left out, and the position still passes it.
        const noDeleted = await store.listChanges(orgId, {
          afterSeq: 0,
          limit: 1000,
          includeDeleted: false,
        });
        expect(noDeleted.deleted).toEqual([]);
        expect(noDeleted.items).toEqual(page.items);
        expect(noDeleted.throughSeq).toBe(gone?.seq);

        // From the end: nothing, and the same position.
        expect(await store.listChanges(orgId, { afterSeq: page.throughSeq, ...all })).toEqual({
          items: [],
          deleted: [],
          throughSeq: page.throughSeq,
          more: false,
        });
        // A position past the end is kept (never moves back).
        expect(
          (await store.listChanges(orgId, { afterSeq: page.throughSeq + 10, ...all })).throughSeq,
        ).toBe(page.throughSeq + 10);
      });

      it('numbers writes on the wall clock: strictly increasing, never below now × 1000', async () => {
        const seqs: number[] = [];
        for (let i = 0; i < 5; i++) {
          const before = Date.now();
          await store.writeItems(orgId, [{ sku: `CLOCK-${i}`, name: `Clock ${i}` }]);
          const [item] = await store.listItems(orgId, { limit: 1, sku: `CLOCK-${i}` });
          const { items } = await store.listChanges(orgId, {
            afterSeq: seqs[seqs.length - 1] ?? 0,
            limit: 1000,
            includeDeleted: false,
          });
          const changed = items.find((candidate) => candidate.id === item?.id);
          expect(changed?.changeSeq).toBeGreaterThanOrEqual(before * 1000);
          expect(changed?.changeSeq).toBeGreaterThanOrEqual((item?.updatedAt ?? 0) * 1000);
          seqs.push(changed?.changeSeq as number);
        }
        expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
        expect(new Set(seqs).size).toBe(seqs.length);
        // A write stamped in the past still numbers after every earlier change.
        await store.writeItems(orgId, [{ sku: 'PAST', name: 'Past' }], { now: NOW - 86_400_000 });
        const { items } = await store.listChanges(orgId, {
          afterSeq: seqs[4] as number,
          limit: 10,
          includeDeleted: false,
        });
        expect(items.map((item) => [item.sku, item.changeSeq])).toEqual([
          ['PAST', (seqs[4] as number) + 1],
        ]);
      });

      it('pages by limit over items and tombstones together, walking the feed exactly once', async () => {
        const org = (await store.createOrganization({ name: 'P', slug: 'paging', features: [] }))
          .id;
        const statuses = ['Active', 'Draft', 'Inactive'] as const;
        await store.writeItems(
          org,
          Array.from({ length: 30 }, (_, i) => ({
            sku: `P-${i}`,
            name: `P ${i}`,
            status: statuses[i % 3],
          })),
        );
        // Interleave deletions and updates, so tombstones fall between items in the feed.
        for (let i = 0; i < 30; i += 4) {
          expect(await store.deleteItem(org, { sku: `P-${i}` })).toBe(true);
          await store.writeItems(org, [{ sku: `P-${i + 1}`, quantity: i + 1 }]);
        }
        const whole = await store.listChanges(org, { afterSeq: 0, ...all });
        expect(whole.more).toBe(false);
        const expected = changesOf(whole);
        expect(expected).toHaveLength(30);
        expect(expected.filter((c) => c.change.startsWith('d:'))).toHaveLength(8);
        expect(expected.map((c) => c.seq)).toEqual(
          [...expected.map((c) => c.seq)].sort((x, y) => x - y),
        );

        for (const limit of [1, 2, 3, 7, 29, 30, 31]) {
          const walked = await walkChanges(store, org, { limit, includeDeleted: true });
          expect(walked.changes).toEqual(expected);
          expect(walked.throughSeq).toBe(whole.throughSeq);
          for (const [i, page] of walked.pages.entries()) {
            const last = i === walked.pages.length - 1;
            expect(page.items.length + page.deleted.length).toBe(
              last ? expected.length - limit * i : limit,
            );
            expect(page.more).toBe(!last);
            if (!last) expect(page.throughSeq).toBe(changesOf(page).at(-1)?.seq);
          }
        }
        // Items handed to onItem as they are read: the same items in the same order, the same
        // page otherwise, also through PostgreSQL's cursor (a limit over 100).
        for (const limit of [1, 7, 29, 30, 150]) {
          for (const afterSeq of [0, expected[5]?.seq as number]) {
            const query = { afterSeq, limit, includeDeleted: true };
            const collected = await store.listChanges(org, query);
            const handed: ChangedItem[] = [];
            const streamed = await store.listChanges(org, {
              ...query,
              onItem: (item) => handed.push(item),
            });
            expect(handed).toEqual(collected.items);
            expect(streamed).toEqual({ ...collected, items: [] });
          }
        }
        // Without tombstones: the items alone, and the walk still ends at the counter.
        const itemsOnly = await walkChanges(store, org, { limit: 4, includeDeleted: false });
        expect(itemsOnly.changes).toEqual(expected.filter((c) => c.change.startsWith('i:')));
        expect(itemsOnly.throughSeq).toBe(whole.throughSeq);

        // A status filter that skips most rows: only matching items, and a page that is not
        // full still moves the position to the organization's counter.
        const active = await walkChanges(store, org, {
          limit: 3,
          status: 'Active',
          includeDeleted: false,
        });
        const activeExpected = whole.items
          .filter((item) => item.status === 'Active')
          .map((item) => ({ seq: item.changeSeq, change: `i:${item.sku}` }));
        expect(active.changes).toEqual(activeExpected);
        expect(active.throughSeq).toBe(whole.throughSeq);
        const rare = await store.listChanges(org, {
          afterSeq: 0,
          limit: 100,
          status: 'Discontinued',
          includeDeleted: false,
        });
        expect(rare).toEqual({ items: [], deleted: [], throughSeq: whole.throughSeq, more: false });
        // Tombstones are never filtered by status.
        const activeWithDeleted = await walkChanges(store, org, {
          limit: 2,
          status: 'Active',
          includeDeleted: true,
        });
        expect(activeWithDeleted.changes).toEqual(
          expected.filter(
            (c) => c.change.startsWith('d:') || activeExpected.some((a) => a.seq === c.seq),
          ),
        );

        // Changes after the walk come from where it ended, and nothing before it again.
        await store.writeItems(org, [
          { sku: 'P-1', quantity: -1 },
          { sku: 'P-new', name: 'New' },
        ]);
        expect(await store.deleteItem(org, { sku: 'P-2' })).toBe(true);
        const next = await walkChanges(store, org, {
          afterSeq: whole.throughSeq,
          limit: 2,
          includeDeleted: true,
        });
        expect(next.changes.map((c) => c.change)).toEqual([
          'i:P-1',
          'i:P-new',
          `d:${whole.items.find((item) => item.sku === 'P-2')?.id}`,
        ]);
        expect(next.pages.map((page) => page.more)).toEqual([true, false]);
      });

      it("never shows another organization's changes, nor moves its position", async () => {
        const { throughSeq } = await store.listChanges(orgId, { afterSeq: 0, ...all });
        await store.writeItems(otherOrgId, [
          { sku: 'A', name: 'Same sku, other organization' },
          { sku: 'O-1', name: 'Other' },
        ]);
        expect(await store.deleteItem(otherOrgId, { sku: 'O-1' })).toBe(true);
        expect(await store.listChanges(orgId, { afterSeq: throughSeq, ...all })).toEqual({
          items: [],
          deleted: [],
          throughSeq,
          more: false,
        });
        const other = await store.listChanges(otherOrgId, { afterSeq: 0, ...all });
        expect(other.items.map((item) => [item.organizationId, item.sku])).toEqual([
          [otherOrgId, 'A'],
        ]);
        expect(other.deleted).toHaveLength(1);
        // Deleting in one organization by another's id or sku deletes nothing, leaves no tombstone.
        const [mine] = await store.listItems(orgId, { limit: 1, sku: 'A' });
        expect(await store.deleteItem(otherOrgId, { id: mine?.id as string })).toBe(false);
        expect(await store.deleteItem(otherOrgId, { sku: 'NOPE' })).toBe(false);
        expect(await store.listChanges(otherOrgId, { afterSeq: other.throughSeq, ...all })).toEqual(
          { items: [], deleted: [], throughSeq: other.throughSeq, more: false },
        );
      });

      it('purges tombstones older than a time, across organizations', async () => {
        // Whatever earlier tests left goes first (+1: a deletion in this very millisecond too).
        await store.purgeTombstones(Date.now() + 1);
        const start = Date.now();
        const org = (await store.createOrganization({ name: 'G', slug: 'purge', features: [] })).id;
        await store.writeItems(org, [
          { sku: 'G-1', name: 'G 1' },
          { sku: 'G-2', name: 'G 2' },
        ]);
        await store.writeItems(otherOrgId, [{ sku: 'G-3', name: 'G 3' }]);
        for (const [where, sku] of [
          [org, 'G-1'],
          [org, 'G-2'],
          [otherOrgId, 'G-3'],
        ] as const) {
          expect(await store.deleteItem(where, { sku })).toBe(true);
        }
        const feed = await store.listChanges(org, { afterSeq: 0, ...all });
        expect(feed.deleted).toHaveLength(2);
        // Only deletions strictly before the time go.
        expect(await store.purgeTombstones(start)).toBe(0);
        expect(await store.listChanges(org, { afterSeq: 0, ...all })).toEqual(feed);
        expect(await store.purgeTombstones(Date.now() + 1)).toBe(3);
        expect(await store.purgeTombstones(Date.now() + 1)).toBe(0);
        const purged = await store.listChanges(org, { afterSeq: 0, ...all });
        expect(purged.deleted).toEqual([]);
        // The position is kept: a client that saw the deletions continues from the same place.
        expect(purged.throughSeq).toBe(feed.throughSeq);
      });

      it.skipIf(engine.name !== 'postgres')(
        'numbers in commit order: a reader never passes a change that is not committed yet',
        async () => {
          const org = (await store.createOrganization({ name: 'R', slug: 'race', features: [] }))
            .id;
          await store.writeItems(org, [{ sku: 'R-0', name: 'R 0' }]);
          const start = await store.listChanges(org, { afterSeq: 0, ...all });

          // The control transaction holds `items` in SHARE mode: reads go on, but writer A,
          // having locked its rows and taken its change number, waits to insert its row.
          const control = new pg.Client({ connectionString: handle.url });
          await control.connect();
          const observer = new pg.Client({ connectionString: handle.url });
          await observer.connect();
          const snapshot = new pg.Client({ connectionString: handle.url });
          await snapshot.connect();
          try {
            await control.query('BEGIN');
            await control.query('LOCK TABLE items IN SHARE MODE');
            const controlPid = (await control.query('SELECT pg_backend_pid() AS pid')).rows[0]
              ?.pid as number;
            const writerA = store.writeItems(org, [
              { sku: 'R-0', quantity: 1 },
              { sku: 'R-A', name: 'A' },
            ]);
            await untilBlocked(observer, controlPid);
            // Writer B, same organization: waits for A (its lock), whatever it writes.
            const writerB = store.writeItems(org, [{ sku: 'R-B', name: 'B' }]);
            await untilBlocked(observer, controlPid, 2);

            // A reader, now and in a transaction that keeps its snapshot: A's number is taken
            // but not committed, so no reader may report a position at or past it.
            const during = await store.listChanges(org, { afterSeq: start.throughSeq, ...all });
            expect(during).toEqual({
              items: [],
              deleted: [],
              throughSeq: start.throughSeq,
              more: false,
            });
            await snapshot.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
            const seen = await snapshot.query(
              'SELECT change_seq FROM organizations WHERE id = $1',
              [org],
            );
            expect(seen.rows[0]?.change_seq).toBe(String(start.throughSeq));

            await control.query('COMMIT');
            expect(await writerA).toEqual(['updated', 'created']);
            expect(await writerB).toEqual(['created']);

            // The reader continues from the position it was given: A's changes, then B's,
            // none skipped, in commit order.
            const afterwards = await store.listChanges(org, {
              afterSeq: during.throughSeq,
              ...all,
            });
            const changes = changesOf(afterwards);
            expect(changes.map((c) => c.change)).toEqual(['i:R-0', 'i:R-A', 'i:R-B']);
            expect(changes[0]?.seq).toBeGreaterThan(start.throughSeq);
            expect(afterwards.throughSeq).toBe(changes[2]?.seq);
            // The snapshot taken before the commits still sees neither.
            const still = await snapshot.query(
              'SELECT count(*)::int AS n FROM items WHERE organization_id = $1 AND change_seq > $2',
              [org, start.throughSeq],
            );
            expect(still.rows[0]?.n).toBe(0);
            await snapshot.query('COMMIT');
          } finally {
            await control.query('ROLLBACK').catch(() => {});
            await Promise.all([control.end(), observer.end(), snapshot.end()]);
          }
        },
      );

      it.skipIf(engine.name !== 'postgres')(
        "serializes on the organization's counter row: a deletion waits for a write that holds it",
        async () => {
          const org = (await store.createOrganization({ name: 'H', slug: 'holder', features: [] }))
            .id;
          await store.writeItems(org, [{ sku: 'H-1', name: 'H 1' }]);
          const start = await store.listChanges(org, { afterSeq: 0, ...all });
          // Writer A takes a number as the store does (without the store's advisory lock, so
          // only the row lock stands between A and B) and keeps its transaction open.
          const writerA = new pg.Client({ connectionString: handle.url });
          await writerA.connect();
          const observer = new pg.Client({ connectionString: handle.url });
          await observer.connect();
          try {
            await writerA.query('BEGIN');
            const taken = await writerA.query(
              `UPDATE organizations SET change_seq = GREATEST(change_seq + 1, $2::bigint)
               WHERE id = $1 RETURNING change_seq, pg_backend_pid() AS pid`,
              [org, Date.now() * 1000],
            );
            const seqA = Number(taken.rows[0]?.change_seq);
            const pidA = taken.rows[0]?.pid as number;
            await writerA.query(
              `INSERT INTO items (organization_id, id, name, status, quantity, search_text,
                 created_at, updated_at, change_seq)
               VALUES ($1, $2, 'A', 'Draft', 0, 'a', 0, 0, $3)`,
              [org, newId(), seqA],
            );
            const deletion = store.deleteItem(org, { sku: 'H-1' });
            await untilBlocked(observer, pidA);
            expect(await store.listChanges(org, { afterSeq: start.throughSeq, ...all })).toEqual({
              items: [],
              deleted: [],
              throughSeq: start.throughSeq,
              more: false,
            });
            await writerA.query('COMMIT');
            expect(await deletion).toBe(true);
            const page = await store.listChanges(org, { afterSeq: start.throughSeq, ...all });
            expect(page.items.map((item) => item.changeSeq)).toEqual([seqA]);
            expect(page.deleted[0]?.seq).toBeGreaterThan(seqA);
            expect(page.throughSeq).toBe(page.deleted[0]?.seq);
          } finally {
            await writerA.query('ROLLBACK').catch(() => {});
            await Promise.all([writerA.end(), observer.end()]);
          }
        },
      );
    });

    describe('bulk deletion', () => {
      it('deletes many items in one call, a tombstone each, and says which were there', async () => {
        const organization = await store.createOrganization({
          name: 'Bulk',
          slug: 'bulk-delete',
          features: ['inventory'],
        });
        await store.writeItems(organization.id, [
          { sku: 'BD-1', name: 'One' },
          { sku: 'BD-2', name: 'Two' },
          { sku: 'BD-3', name: 'Three' },
        ]);
        const [first] = await store.listItems(organization.id, { limit: 1 });
        const before = await store.listChanges(organization.id, {
          afterSeq: 0,
          limit: 10,
          includeDeleted: true,
        });
        expect(
          await store.deleteItems(organization.id, [
            { id: first?.id as string },
            { sku: 'BD-1' },
            { sku: 'BD-3' },
            { sku: 'nope' },
            { id: newId() },
          ]),
        ).toEqual([true, false, true, false, false]);
        const left = await store.listItems(organization.id, { limit: 10 });
        expect(left.map((item) => item.sku)).toEqual(['BD-2']);
        const after = await store.listChanges(organization.id, {
          afterSeq: before.throughSeq,
          limit: 10,
          includeDeleted: true,
        });
        expect(after.deleted).toHaveLength(2);
        const [a, b] = after.deleted;
        expect((b?.seq ?? 0) - (a?.seq ?? 0)).toBe(1);
        expect(await store.deleteItems(organization.id, [])).toEqual([]);
      });
    });

    describe('webhooks', () => {
      const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

      async function organizationWithWebhook(slug: string) {
        const organization = await store.createOrganization({
          name: slug,
          slug,
          features: ['inventory'],
        });
        await store.writeItems(organization.id, [{ sku: `${slug}-old`, name: 'Before' }]);
        const webhook = await store.webhooks.create({
          organizationId: organization.id,
          url: 'https://hooks.example/stockroom',
          events: ['item.created', 'item.deleted'],
          description: 'ERP',
          secret: SECRET,
        });
        return { organization, webhook };
      }

      it("starts a webhook at its organization's latest change and tells creations from updates", async () => {
        const { organization, webhook } = await organizationWithWebhook('hooked');
        expect(webhook).toMatchObject({
          organizationId: organization.id,
          events: ['item.created', 'item.deleted'],
          description: 'ERP',
          secret: SECRET,
          enabled: true,
          disabledReason: null,
          caughtUpSeq: webhook.cursor,
        });
        expect(await store.webhooks.get(webhook.id)).toEqual(webhook);
        expect(await store.webhooks.list(organization.id)).toEqual([webhook]);
        // Nothing is due: no change after the cursor.
        const later = Date.now() + 60_000;
        const due = () => store.webhooks.listDue(later, { settleMs: 0, maxLagMs: 1, limit: 10 });
        expect((await due()).map((w) => w.id)).not.toContain(webhook.id);

        await store.writeItems(organization.id, [
          { sku: 'hooked-old', name: 'Before, changed' },
          { sku: 'hooked-new', name: 'New' },
        ]);
        expect((await due()).map((w) => w.id)).toContain(webhook.id);
        const page = await store.listChanges(organization.id, {
          afterSeq: webhook.cursor,
          limit: 10,
          includeDeleted: true,
        });
        const created = page.items.map((item) => [
          item.sku,
          item.createdSeq !== null && item.createdSeq > webhook.caughtUpSeq,
        ]);
        expect(created).toEqual([
          ['hooked-old', false],
          ['hooked-new', true],
        ]);
      });

      it('advances a cursor only from where it stood, with one pending delivery at a time', async () => {
        const { organization, webhook } = await organizationWithWebhook('advancing');
        await store.writeItems(organization.id, [{ sku: 'advancing-1', name: 'One' }]);
        const delivery = (id: string) => ({
          id,
          payload: '{"events":[]}',
          eventCount: 1,
          createdAt: Date.now(),
        });
        const first = newId();
        // A full page (more to read): the cursor moves, caughtUpSeq stays.
        expect(
          await store.webhooks.advance(
            webhook.id,
            webhook.cursor,
            webhook.cursor + 5,
            delivery(first),
            false,
          ),
        ).toBe(true);
        // A second process that read the same cursor loses, writing nothing.
        expect(
          await store.webhooks.advance(
            webhook.id,
            webhook.cursor,
            webhook.cursor + 5,
            delivery(newId()),
            true,
          ),
        ).toBe(false);
        // While a delivery is pending, the cursor stays.
        expect(
          await store.webhooks.advance(
            webhook.id,
            webhook.cursor + 5,
            webhook.cursor + 9,
            null,
            true,
          ),
        ).toBe(false);
        expect(await store.webhooks.get(webhook.id)).toMatchObject({
          cursor: webhook.cursor + 5,
          caughtUpSeq: webhook.cursor,
        });
        expect((await store.webhooks.listDeliveries(webhook.id, 10)).map((d) => d.id)).toEqual([
          first,
        ]);
        const due = await store.webhooks.listDue(Date.now() + 60_000, {
          settleMs: 0,
          maxLagMs: 1,
          limit: 100,
        });
        expect(due.map((w) => w.id)).not.toContain(webhook.id);
      });

      it('leases a due delivery to one claimant, and records attempts', async () => {
        const { webhook } = await organizationWithWebhook('claimed');
        const id = newId();
        const now = Date.now();
        // A page that read everything: caught up.
        await store.webhooks.advance(
          webhook.id,
          webhook.cursor,
          webhook.cursor + 1,
          { id, payload: '{}', eventCount: 2, createdAt: now },
          true,
        );
        expect((await store.webhooks.get(webhook.id))?.caughtUpSeq).toBe(webhook.cursor + 1);
        const claims = await Promise.all(
          Array.from({ length: 4 }, () => store.webhooks.claim(now, now + 60_000)),
        );
        const mine = claims.filter((claim) => claim?.delivery.id === id);
        expect(mine).toHaveLength(1);
        expect(mine[0]?.webhook.id).toBe(webhook.id);
        // Leased: nobody else gets it until the lease ends; then another process may (the one
        // holding it died mid-attempt).
        expect((await store.webhooks.claim(now + 1, now + 60_000))?.delivery.id).not.toBe(id);
        const reclaimed: string[] = [];
        for (;;) {
          const claim = await store.webhooks.claim(now + 60_001, now + 120_000);
          if (!claim) break;
          reclaimed.push(claim.delivery.id);
        }
        expect(reclaimed).toContain(id);

        await store.webhooks.recordAttempt(id, {
          at: now + 2,
          status: 500,
          error: 'the endpoint answered HTTP 500',
          next: { retryAt: now + 1000 },
        });
        let [stored] = await store.webhooks.listDeliveries(webhook.id, 1);
        expect(stored).toMatchObject({
          state: 'pending',
          attempts: 1,
          nextAttemptAt: now + 1000,
          lastStatus: 500,
        });
        expect((await store.webhooks.claim(now + 999, now + 60_000))?.delivery.id).not.toBe(id);
        expect((await store.webhooks.claim(now + 1000, now + 60_000))?.delivery.id).toBe(id);

        await store.webhooks.recordAttempt(id, {
          at: now + 1001,
          status: null,
          error: 'connect ECONNREFUSED',
          next: 'failed',
          disabledReason: 'gave up',
        });
        [stored] = await store.webhooks.listDeliveries(webhook.id, 1);
        expect(stored).toMatchObject({
          state: 'failed',
          attempts: 2,
          nextAttemptAt: null,
          lastStatus: null,
        });
        expect(await store.webhooks.get(webhook.id)).toMatchObject({
          enabled: false,
          disabledReason: 'gave up',
        });

        expect(await store.webhooks.purgeFinished(now)).toBe(0);
        expect(await store.webhooks.purgeFinished(now + 60_000)).toBeGreaterThanOrEqual(1);
        expect(await store.webhooks.listDeliveries(webhook.id, 10)).toEqual([]);
      });

      it('enables, disables and deletes', async () => {
        const { webhook } = await organizationWithWebhook('toggled');
        expect(await store.webhooks.setEnabled(webhook.id, false, 'paused')).toMatchObject({
          enabled: false,
          disabledReason: 'paused',
        });
        expect(await store.webhooks.setEnabled(webhook.id, true, 'ignored')).toMatchObject({
          enabled: true,
          disabledReason: null,
        });
        expect(await store.webhooks.setEnabled(newId(), true, null)).toBeNull();
        expect(await store.webhooks.delete(webhook.id)).toBe(true);
        expect(await store.webhooks.delete(webhook.id)).toBe(false);
        expect(await store.webhooks.get(webhook.id)).toBeNull();
      });
    });

    describe('deleting an organization', () => {
      it('removes its items, keys and memberships; users, the audit log and other organizations stay', async () => {
        const doomed = await store.createOrganization({
          name: 'Doomed',
          slug: 'doomed',
          features: ['inventory'],
        });
        const kept = await store.createOrganization({
          name: 'Kept',
          slug: 'kept',
          features: ['inventory'],
        });
        const shared = await store.createUser({ email: 'shared@example.test', name: 'Shared' });
        const own = await store.createUser({ email: 'doomed-only@example.test', name: null });
        await store.addMember(doomed.id, shared.id);
        await store.addMember(doomed.id, own.id);
        await store.addMember(kept.id, shared.id);
        const rows = (tag: string): ItemFields[] =>
          Array.from({ length: 600 }, (_, i) => ({
            sku: `${tag}-${i}`,
            name: `Lantern ${tag} ${i}`,
            status: 'Active',
          }));
        // One row written alone (indexed at once on SQLite), then bulk writes (left queued for
        // the search index on SQLite): the deletion must handle both.
        await store.writeItems(doomed.id, [{ sku: 'D-one', name: 'Lantern alone' }]);
        await store.writeItems(doomed.id, rows('D'));
        // A deleted item leaves a tombstone, which goes with the organization.
        await store.writeItems(doomed.id, [{ sku: 'D-gone', name: 'Lantern gone' }]);
        expect(await store.deleteItem(doomed.id, { sku: 'D-gone' })).toBe(true);
        await store.writeItems(kept.id, [{ sku: 'K-gone', name: 'Lantern gone' }]);
        expect(await store.deleteItem(kept.id, { sku: 'K-gone' })).toBe(true);
        await store.writeItems(kept.id, rows('K'));
        const keptFeed = await store.listChanges(kept.id, {
          afterSeq: 0,
          limit: 1000,
          includeDeleted: true,
        });
        expect(keptFeed.deleted).toHaveLength(1);
        const doomedKeys = [
          newKey(doomed.id),
          newKey(doomed.id, { userId: own.id }),
          newKey(doomed.id, { userId: shared.id }),
        ];
        for (const key of doomedKeys) await store.createApiKey(key);
        await store.revokeApiKey(doomedKeys[0]?.id ?? '');
        const keptKey = newKey(kept.id, { userId: shared.id });
        await store.createApiKey(keptKey);
        await store.appendAuditEvent({
          organizationId: doomed.id,
          actor: 'cli:test',
          action: 'organization.created',
          target: doomed.id,
          details: {},
        });
        const keptItems = await walk(store, kept.id, { limit: 250 });
        const keptFound = await walk(store, kept.id, { limit: 250, search: 'lantern k 5' });
        expect(keptFound).toHaveLength(111);
        expect((await store.loadKeyContext(doomedKeys[1]?.hash ?? ''))?.key.id).toBe(
          doomedKeys[1]?.id,
        );

        expect(await store.deleteOrganization(doomed.id)).toEqual({
          items: 601,
          apiKeys: 3,
          memberships: 2,
        });

        expect(await store.getOrganization(doomed.id)).toBeNull();
        expect(await store.findOrganization('doomed')).toBeNull();
        expect((await store.listOrganizations()).map((o) => o.id)).not.toContain(doomed.id);
        expect(await store.countItems(doomed.id)).toBe(0);
        expect(await store.listItems(doomed.id, { limit: 1000 })).toEqual([]);
        expect(await store.listItems(doomed.id, { limit: 10, search: 'lantern' })).toEqual([]);
        expect(await store.listApiKeys(doomed.id)).toEqual([]);
        for (const key of doomedKeys) {
          expect(await store.getApiKey(key.id)).toBeNull();
          expect(await store.loadKeyContext(key.hash)).toBeNull();
        }
        expect(await store.listMembers(doomed.id)).toEqual([]);
        expect(await store.isMember(doomed.id, shared.id)).toBe(false);
        expect(await tombstoneCount(doomed.id)).toBe(0);
        expect(
          await store.listChanges(doomed.id, { afterSeq: 0, limit: 10, includeDeleted: true }),
        ).toEqual({ items: [], deleted: [], throughSeq: 0, more: false });
        // Users stay (they may belong to other organizations), and so does the audit log.
        expect(await store.findUser(shared.id)).toEqual(shared);
        expect(await store.findUser(own.id)).toEqual(own);
        expect(await store.listAuditEvents(doomed.id)).toHaveLength(1);
        // The other organization is untouched, its search index included.
        expect(await store.getOrganization(kept.id)).toEqual(kept);
        expect(
          await store.listChanges(kept.id, { afterSeq: 0, limit: 1000, includeDeleted: true }),
        ).toEqual(keptFeed);
        expect(await walk(store, kept.id, { limit: 250 })).toEqual(keptItems);
        expect(await walk(store, kept.id, { limit: 250, search: 'lantern k 5' })).toEqual(
          keptFound,
        );
        expect(await store.listMembers(kept.id)).toEqual([shared]);
        expect((await store.listApiKeys(kept.id)).map((key) => key.id)).toEqual([keptKey.id]);
        expect(await store.loadKeyContext(keptKey.hash)).toMatchObject({
          key: { id: keptKey.id },
          organization: kept,
          member: true,
        });

        expect(await store.deleteOrganization(doomed.id)).toBeNull();
        expect(await store.deleteOrganization('0'.repeat(24))).toBeNull();

        // The slug is free again, and a new organization starts empty (on SQLite it may take
        // the deleted one's rowid range: no trace of the old rows may show in its searches).
        const again = await store.createOrganization({
          name: 'Doomed again',
          slug: 'doomed',
          features: [],
        });
        expect(await store.listItems(again.id, { limit: 10, search: 'lantern' })).toEqual([]);
        await store.writeItems(again.id, [{ sku: 'D-0', name: 'Lantern anew' }]);
        expect(
          (await store.listItems(again.id, { limit: 10, search: 'lantern' })).map((i) => i.name),
        ).toEqual(['Lantern anew']);
      });

      it('deletes an organization that has nothing but its name', async () => {
        const bare = await store.createOrganization({ name: 'Bare', slug: 'bare', features: [] });
        expect(await store.deleteOrganization(bare.id)).toEqual({
          items: 0,
          apiKeys: 0,
          memberships: 0,
        });
        expect(await store.getOrganization(bare.id)).toBeNull();
      });
    });

    it('answers the fixture exactly as the SQLite engine does', async () => {
      const reference = LEGS.find((leg) => leg.engine.name === 'sqlite')?.engine;
      if (!reference) throw new Error('no SQLite engine');
      const sqlite = await reference.open();
      try {
        await sqlite.store.migrate();
        const own = await engine.open();
        try {
          await own.store.migrate();
          expect(await fixtureSnapshot(own.store)).toEqual(await fixtureSnapshot(sqlite.store));
        } finally {
          await own.cleanup();
        }
      } finally {
        await sqlite.cleanup();
      }
    });
  });
}
