import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cursorMatches, decodeCursor } from '../packages/server/src/api/cursor.js';
import { parseFields } from '../packages/server/src/api/item-fields.js';
import { itemJson, serializeOrganization } from '../packages/server/src/api/serialize.js';
import { foldCase } from '../packages/server/src/store/search.js';
import type { Item, ItemStatus, Organization } from '../packages/server/src/store/types.js';
import { startTestServer, type TestServer } from '../packages/server/src/testing/harness.js';
import { announceSkip, postgresUnavailable } from '../packages/server/src/testing/services.js';

/**
 * Tenant isolation as a property: random worlds of 2–4 organizations whose items share names,
 * skus and barcodes, with organization and user keys (with and without inventory:view, the
 * feature on or off); random requests of one key to every endpoint with parameters taken from
 * ANOTHER organization (search terms from its items, its item ids, its id as organizationId, a
 * cursor from its walk). Every answer is compared whole with an in-test model of what the key's
 * own organization holds: nothing of another organization shows — content, ids, counts or
 * existence — beyond the documented 403 of the organizationId override.
 */
const pgSkip = await postgresUnavailable();
const STATUSES: ItemStatus[] = ['Draft', 'Active', 'Inactive', 'Discontinued'];
const WORDS = [
  'Tent',
  'tent',
  'LAMP',
  'Stove',
  'rope',
  'Ärmel',
  'straße',
  'ΣΊΓΜΑ',
  '10%_off',
  'x\\y',
];
const FIELD_SETS = [
  undefined,
  '_id',
  '_id,name,sku',
  'organizationId,quantity',
  'customFields,barcode',
];

interface KeySpec {
  user: boolean;
  permitted: boolean;
}
interface OrgSpec {
  feature: boolean;
  items: Array<{
    name: number;
    sku: number | null;
    barcode: number | null;
    status: number;
    extra: number;
  }>;
  keys: KeySpec[];
}

const orgSpec = fc.record({
  feature: fc.constantFrom(true, true, true, true, false),
  items: fc.array(
    fc.record({
      name: fc.nat(WORDS.length * WORDS.length - 1),
      sku: fc.option(fc.nat(20), { freq: 4 }),
      barcode: fc.option(fc.nat(20)),
      status: fc.nat(3),
      extra: fc.nat(1000),
    }),
    { maxLength: 12 },
  ),
  keys: fc.array(
    fc.record({ user: fc.boolean(), permitted: fc.constantFrom(true, true, true, false) }),
    {
      minLength: 1,
      maxLength: 3,
    },
  ),
});

/** One request; numbers pick from the world once it exists. */
const requestSpec = fc.record({
  key: fc.nat(),
  endpoint: fc.constantFrom('items', 'items', 'items', 'item', 'item', 'organization', 'verify'),
  other: fc.nat(),
  limit: fc.option(fc.integer({ min: 1, max: 15 })),
  search: fc.option(
    fc.record({
      from: fc.constantFrom('other', 'own', 'word'),
      pick: fc.nat(),
      start: fc.nat(),
      length: fc.integer({ min: 1, max: 8 }),
    }),
  ),
  status: fc.option(fc.nat(3)),
  fields: fc.nat(FIELD_SETS.length - 1),
  cursor: fc.option(fc.constantFrom('other', 'own')),
  itemFrom: fc.constantFrom('other', 'own', 'unknown'),
  pick: fc.nat(),
  override: fc.constantFrom('none', 'none', 'none', 'own', 'other', 'unknown'),
  /** An exact lookup (sku, barcode or ids) with values from either organization. */
  exact: fc.option(
    fc.record({
      kind: fc.constantFrom('sku', 'barcode', 'ids'),
      from: fc.constantFrom('other', 'own'),
      pick: fc.nat(),
      count: fc.integer({ min: 1, max: 4 }),
    }),
    { freq: 3 },
  ),
  /** An incremental sync from the beginning (with deletions, which none of these worlds has). */
  sync: fc.constantFrom(false, false, false, true),
});

interface World {
  orgs: Array<{ org: Organization; items: Item[]; keys: Array<KeySpec & { key: string }> }>;
}

let server: TestServer;
let slug = 0;

async function buildWorld(specs: OrgSpec[]): Promise<World> {
  const orgs: World['orgs'] = [];
  for (const spec of specs) {
    slug += 1;
    const org = await server.createOrganization({
      name: `Tenant ${slug}`,
      slug: `tenant-${process.pid}-${slug}`,
      features: spec.feature ? ['inventory'] : [],
    });
    const seen = new Set<string>();
    const rows = spec.items.map((item, i) => {
      const word = (n: number) =>
        `${WORDS[n % WORDS.length]} ${WORDS[Math.floor(n / WORDS.length) % WORDS.length]}`;
      let sku = item.sku === null ? null : `SKU-${item.sku}`;
      if (sku !== null && seen.has(sku)) sku = null;
      if (sku !== null) seen.add(sku);
      return {
        name: word(item.name),
        description: i % 2 ? `About ${word(item.extra)}` : null,
        sku,
        barcode: item.barcode === null ? null : `0000${item.barcode}`,
        status: STATUSES[item.status] as ItemStatus,
        quantity: item.extra,
        customFields: JSON.stringify({ n: item.extra }),
      };
    });
    if (rows.length > 0) await server.createItems(org.id, rows);
    const items = await server.store.listItems(org.id, { limit: 1000 });
    expect(items).toHaveLength(rows.length);
    const keys = [];
    for (const keySpec of spec.keys) {
      const user = keySpec.user ? await server.createUser(org.id) : null;
      const { key } = await server.createKey({
        organizationId: org.id,
        ...(user ? { userId: user.id } : {}),
        permissions: keySpec.permitted ? ['inventory:view'] : [],
        rateLimit: null,
      });
      keys.push({ ...keySpec, key });
    }
    orgs.push({ org, items, keys });
  }
  return { orgs };
}

type Spec = typeof requestSpec extends fc.Arbitrary<infer T> ? T : never;

interface Expected {
  status: number;
  code?: string;
  param?: string;
  body?: unknown;
}

const matches = (item: Item, needle: string | undefined, status: ItemStatus | undefined) => {
  if (status !== undefined && item.status !== status) return false;
  if (needle === undefined) return true;
  const folded = foldCase(needle);
  return [item.name, item.description, item.sku, item.barcode].some(
    (field) => field !== null && foldCase(field).includes(folded),
  );
};

/** The request to send and the answer the model expects of it. */
async function plan(
  world: World,
  spec: Spec,
): Promise<{ path: string; key: string; expected: Expected; foreign: string[] }> {
  const allKeys = world.orgs.flatMap((o, orgIndex) => o.keys.map((k) => ({ ...k, orgIndex })));
  const key = allKeys[spec.key % allKeys.length] as (typeof allKeys)[number];
  const own = world.orgs[key.orgIndex] as World['orgs'][number];
  const others = world.orgs.filter((_, i) => i !== key.orgIndex);
  const other = others[spec.other % others.length] as World['orgs'][number];
  const foreign = others.flatMap((o) => [o.org.id, ...o.items.map((item) => item.id)]);
  const query = new URLSearchParams();
  const statusFilter = spec.status === null ? undefined : (STATUSES[spec.status] as ItemStatus);
  let searchFilter: string | undefined;
  if (spec.override === 'own') query.set('organizationId', own.org.id);
  if (spec.override === 'other') query.set('organizationId', other.org.id);
  if (spec.override === 'unknown') query.set('organizationId', 'f'.repeat(24));

  if (spec.endpoint === 'verify' || spec.endpoint === 'organization') {
    const path = spec.endpoint === 'verify' ? '/api/v1/auth/verify' : '/api/v1/organization';
    if (spec.endpoint === 'verify') {
      return { path, key: key.key, expected: { status: 200 }, foreign };
    }
    const qs = query.toString();
    return {
      path: `${path}${qs ? `?${qs}` : ''}`,
      key: key.key,
      expected: overrideOr({ status: 200, body: { data: serializeOrganization(own.org) } }),
      foreign,
    };
  }

  const fieldsRaw = FIELD_SETS[spec.fields];
  if (fieldsRaw !== undefined) query.set('fields', fieldsRaw);
  const fields = parseFields(fieldsRaw);
  const inventoryGate = (ok: Expected): Expected => {
    const viaOverride = overrideOr(ok);
    if (viaOverride !== ok) return viaOverride;
    if (!own.org.features.includes('inventory')) return { status: 403, code: 'FEATURE_DISABLED' };
    if (!key.permitted) return { status: 403, code: 'INSUFFICIENT_PERMISSIONS' };
    return ok;
  };

  if (spec.endpoint === 'item') {
    const source = spec.itemFrom === 'own' ? own : other;
    const item =
      source.items.length > 0 ? source.items[spec.pick % source.items.length] : undefined;
    const itemId = spec.itemFrom === 'unknown' || !item ? '0'.repeat(24) : item.id;
    query.set('itemId', itemId);
    const mine = own.items.find((i) => i.id === itemId);
    const ok: Expected = mine
      ? { status: 200, body: { data: JSON.parse(itemJson(mine, fields)) } }
      : { status: 404, code: 'ITEM_NOT_FOUND' };
    return {
      path: `/api/v1/inventory/item?${query}`,
      key: key.key,
      expected: inventoryGate(ok),
      foreign,
    };
  }

  // The item list.
  if (spec.limit !== null) query.set('limit', String(spec.limit));
  if (statusFilter) query.set('status', statusFilter);
  if (spec.sync) {
    // Every item of the key's own organization, in change order (here creation order), and
    // no deletion: never another organization's changes.
    query.set('updatedSince', '1970-01-01');
    query.set('includeDeleted', 'false');
    const limit = spec.limit ?? 100;
    const all = own.items.filter((item) => matches(item, undefined, statusFilter));
    const page = all.slice(0, limit);
    const ok: Expected = {
      status: 200,
      body: {
        data: page.map((item) => JSON.parse(itemJson(item, fields))),
        organizationId: own.org.id,
        count: page.length,
        nextCursor: all.length > limit ? expect.any(String) : null,
        nextSince: expect.any(String),
      },
    };
    return {
      path: `/api/v1/inventory/items?${query}`,
      key: key.key,
      expected: inventoryGate(ok),
      foreign,
    };
  }
  let exact: ((item: Item) => boolean) | undefined;
  const exactFilters: { sku?: string; barcode?: string; ids?: string } = {};
  if (spec.exact) {
    const source = spec.exact.from === 'own' ? own : other;
    const { kind, pick, count } = spec.exact;
    if (kind === 'ids') {
      const ids = Array.from({ length: count }, (_, i) =>
        source.items.length > 0
          ? (source.items[(pick + i) % source.items.length] as Item).id
          : '0'.repeat(24),
      );
      exactFilters.ids = ids.join(',');
      exact = (item) => ids.includes(item.id);
    } else {
      const values = source.items
        .map((item) => item[kind])
        .filter((value): value is string => value !== null);
      const value = values.length > 0 ? (values[pick % values.length] as string) : 'SKU-0';
      exactFilters[kind] = value;
      exact = (item) => item[kind] === value;
    }
    for (const [name, value] of Object.entries(exactFilters)) query.set(name, value);
  }
  if (spec.search && !spec.exact) {
    const source = spec.search.from === 'own' ? own : other;
    const texts =
      spec.search.from === 'word'
        ? WORDS
        : source.items.flatMap((i) =>
            [i.name, i.description, i.sku, i.barcode].filter((t): t is string => t !== null),
          );
    const text = texts.length > 0 ? (texts[spec.search.pick % texts.length] as string) : 'tent';
    const start = spec.search.start % text.length;
    searchFilter = text.slice(start, start + spec.search.length) || text;
    query.set('search', searchFilter);
  }
  let afterId: string | undefined;
  let cursorOk = true;
  if (spec.cursor) {
    // A real cursor from a walk of the other organization (or its own), with the same filters
    // when it can be had, and otherwise the first page's cursor made without filters.
    const walker = spec.cursor === 'own' ? own : other;
    const walkKey = walker.keys.find((k) => k.permitted);
    let cursor: string | null = null;
    if (walkKey && walker.org.features.includes('inventory')) {
      const walkQuery = new URLSearchParams({ limit: '1', ...exactFilters });
      if (statusFilter) walkQuery.set('status', statusFilter);
      if (searchFilter) walkQuery.set('search', searchFilter);
      const page = await server.request(`/api/v1/inventory/items?${walkQuery}`, {
        key: walkKey.key,
      });
      expect(page.status).toBe(200);
      cursor = page.body.nextCursor;
      if (cursor === null) {
        const unfiltered = await server.request('/api/v1/inventory/items?limit=1', {
          key: walkKey.key,
        });
        cursor = unfiltered.body.nextCursor;
      }
    }
    if (cursor !== null) {
      query.set('cursor', cursor);
      const decoded = decodeCursor(cursor);
      expect(decoded).not.toBeNull();
      afterId = decoded?.afterId;
      cursorOk =
        decoded !== null &&
        cursorMatches(decoded, { status: statusFilter, search: searchFilter, ...exactFilters });
    }
  }
  const limit = spec.limit ?? 100;
  const all = own.items.filter(
    (item) =>
      (afterId === undefined || item.id > afterId) &&
      matches(item, searchFilter, statusFilter) &&
      (exact === undefined || exact(item)),
  );
  const page = all.slice(0, limit);
  const ok: Expected = cursorOk
    ? {
        status: 200,
        body: {
          data: page.map((item) => JSON.parse(itemJson(item, fields))),
          organizationId: own.org.id,
          count: page.length,
          nextCursor: all.length > limit ? expect.any(String) : null,
        },
      }
    : { status: 400, code: 'INVALID_PARAMETER', param: 'cursor' };
  // A bad cursor is a 400, which comes before every authorization check.
  const expected = ok.status === 400 ? ok : inventoryGate(ok);
  return { path: `/api/v1/inventory/items?${query}`, key: key.key, expected, foreign };

  function overrideOr(ok: Expected): Expected {
    if (spec.override === 'other')
      return { status: 403, code: 'ORGANIZATION_FORBIDDEN', param: 'organizationId' };
    if (spec.override === 'unknown')
      return { status: 404, code: 'ORGANIZATION_NOT_FOUND', param: 'organizationId' };
    return ok;
  }
}

function isolationProperty(runs: number) {
  return async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(orgSpec, { minLength: 2, maxLength: 4 }),
        fc.array(requestSpec, { minLength: 25, maxLength: 25 }),
        async (specs, requests) => {
          const world = await buildWorld(specs);
          for (const spec of requests) {
            const { path, key, expected, foreign } = await plan(world, spec);
            const response = await server.request(path, { key });
            const label = `${path} → ${response.text.slice(0, 300)}`;
            expect(response.status, label).toBe(expected.status);
            if (expected.code) {
              expect(response.body.error.code, label).toBe(expected.code);
              if (expected.param) expect(response.body.error.param, label).toBe(expected.param);
            }
            if (expected.body !== undefined) expect(response.body, label).toEqual(expected.body);
            if (path.startsWith('/api/v1/auth/verify')) {
              const own = world.orgs.find((o) => o.keys.some((k) => k.key === key));
              expect(response.body.key.organizationId).toBe(own?.org.id);
            }
            // Whatever the answer, no id of another organization (nor of its items) is in it
            // unless the request sent it (a 404 names the itemId it was asked for, exactly as
            // for an id that exists nowhere).
            for (const id of foreign) {
              if (!path.includes(id)) expect(response.text, label).not.toContain(id);
            }
            if (expected.code === 'ITEM_NOT_FOUND') {
              const asked = new URL(path, 'http://x').searchParams.get('itemId');
              expect(response.body.error.message).toBe(
                `No item with _id ${asked} exists in this organization. List items to find valid ids.`,
              );
            }
          }
        },
      ),
      { numRuns: runs },
    );
  };
}

describe('tenant isolation on SQLite', () => {
  beforeAll(async () => {
    server = await startTestServer({ engine: 'sqlite', env: { AUTH_FAILURE_LIMIT: 'none' } });
  });
  afterAll(() => server.close());

  it('no key ever sees another organization’s items, ids or counts', isolationProperty(60));
});

describe.skipIf(announceSkip('tenant isolation on PostgreSQL', pgSkip))(
  'tenant isolation on PostgreSQL',
  () => {
    beforeAll(async () => {
      server = await startTestServer({ engine: 'postgres', env: { AUTH_FAILURE_LIMIT: 'none' } });
    });
    afterAll(() => server.close());

    it('no key ever sees another organization’s items, ids or counts', isolationProperty(25));
  },
);
