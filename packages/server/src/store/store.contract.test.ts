import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../ids.js';
import { generateKey } from '../keys/format.js';
import { engineAvailability, type TestStore } from '../testing/engines.js';
import { foldCase } from './search.js';
import {
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
const LEGS = await engineAvailability('store contract');

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
  describe.skipIf(skip !== null)(`Store contract on ${engine.name}`, () => {
    let handle: TestStore;
    let store: Store;

    beforeAll(async () => {
      handle = await engine.open();
      store = handle.store;
      expect((await store.migrate()).length).toBeGreaterThan(0);
    });
    afterAll(() => handle?.cleanup());

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
        await store.writeItems(kept.id, rows('K'));
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
        // Users stay (they may belong to other organizations), and so does the audit log.
        expect(await store.findUser(shared.id)).toEqual(shared);
        expect(await store.findUser(own.id)).toEqual(own);
        expect(await store.listAuditEvents(doomed.id)).toHaveLength(1);
        // The other organization is untouched, its search index included.
        expect(await store.getOrganization(kept.id)).toEqual(kept);
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
