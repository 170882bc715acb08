import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cursorMatches, decodeCursor } from '../packages/server/src/api/cursor.js';
import { ITEM_FIELDS, type ItemField } from '../packages/server/src/api/item-fields.js';
import { serializeItem } from '../packages/server/src/api/serialize.js';
import { parseView } from '../packages/server/src/domain/view.js';
import { cliActor } from '../packages/server/src/operations/audit.js';
import { updateKeyView } from '../packages/server/src/operations/keys.js';
import { createLocation } from '../packages/server/src/operations/locations.js';
import { stockText } from '../packages/server/src/store/items/stock.js';
import { foldCase } from '../packages/server/src/store/search.js';
import type {
  ApiKeyRecord,
  Item,
  ItemFields,
  ItemStatus,
  Organization,
} from '../packages/server/src/store/types.js';
import { startTestServer, type TestServer } from '../packages/server/src/testing/harness.js';
import { announceSkip, postgresUnavailable } from '../packages/server/src/testing/services.js';

/**
 * Key views (issue 32) as a property, the sibling of tenant-isolation.test.ts: "a key never
 * reads a row or a field outside its view, whatever the parameters". Each run builds one
 * organization with random items (statuses, stock at two locations, custom fields of several
 * types), keys with random views (status lists, custom field equality, locations, hidden
 * fields and custom fields, a quantity cap), then changes items, deletes some and changes some
 * views. Random requests of those keys (lists with every filter, cursor walks with small
 * limits, detail, incremental syncs with and without deletions, from an instant or from a
 * token, some with the key's view changed between two pages, the MCP tools), with
 * parameters taken from rows and fields the key must not see, are compared whole with an
 * in-test model of the view: status codes, items in order, fields present, values capped,
 * cursors, and no hidden text anywhere in the body.
 *
 * The model's ground truth is the store read without a scope (every item, the unscoped change
 * feed); what a view lets through is computed here, not by domain/view.ts or api/key-view.ts.
 * Every organization holds far fewer items than the scan budget of 1–2 character searches
 * (10,000, store/search.ts), so here every page but the last is full, whatever the needle.
 *
 * In the everyday tier (`npm test`): SQLite always, PostgreSQL when it is reachable (announced
 * as skipped otherwise), like tenant-isolation.test.ts; about 10 s on each engine.
 */
const pgSkip = await postgresUnavailable();
const STATUSES: ItemStatus[] = ['Draft', 'Active', 'Inactive', 'Discontinued'];
const LOCATIONS = ['WH', 'SHOP'] as const;
const WORDS = ['Tent', 'rope', 'LAMP', 'Stöve', 'straße', 'ΣΊΓΜΑ'];
/** Values of the custom field `tag`: strings a view may ask for, and a number that must not match "1". */
const TAGS = ['a', 'b', 'A', '1', 1, null] as const;
const HIDEABLE = [
  'description',
  'sku',
  'barcode',
  'status',
  'quantity',
  'stock',
  'customFields',
  'createdAt',
  'updatedAt',
  'customFields.tag',
  'customFields.secret',
  'customFields.n',
] as const;

// ---------------------------------------------------------------------------------------------
// Worlds

/** A value `percent` of the time, else null (fc.option's freq only sets how often it is null). */
const sometimes = <T>(arbitrary: fc.Arbitrary<T>, percent: number): fc.Arbitrary<T | null> =>
  fc.oneof({ arbitrary: fc.constant(null), weight: 100 - percent }, { arbitrary, weight: percent });

const itemSpec = fc.record({
  name: fc.nat(WORDS.length * WORDS.length - 1),
  description: fc.boolean(),
  sku: fc.constantFrom(true, true, true, false),
  barcode: fc.boolean(),
  status: fc.nat(3),
  stock: fc.option(
    fc.record({
      WH: fc.option(fc.constantFrom(0, 1, 3, 12, 40, 2.5)),
      SHOP: fc.option(fc.constantFrom(0, 1, 7, 30)),
    }),
  ),
  quantity: fc.constantFrom(0, 1, 5, 9.5, 50),
  tag: fc.nat(TAGS.length - 1),
  secret: fc.boolean(),
});

const viewSpec = fc.record({
  /** One or two status filters (a view may state several: all must hold). */
  statuses: sometimes(
    fc.array(fc.subarray(STATUSES, { minLength: 1 }), { minLength: 1, maxLength: 2 }),
    40,
  ),
  tag: sometimes(fc.constantFrom('a', 'b', 'A', '1'), 30),
  location: sometimes(fc.subarray([...LOCATIONS], { minLength: 1 }), 25),
  hide: fc.subarray([...HIDEABLE], { maxLength: 4 }),
  cap: sometimes(fc.constantFrom(0, 2, 5, 10, 25), 40),
});
type ViewSpec = typeof viewSpec extends fc.Arbitrary<infer T> ? T : never;

const mutationSpec = fc.record({
  kind: fc.constantFrom('update', 'update', 'update', 'delete', 'view'),
  pick: fc.nat(),
  status: fc.option(fc.nat(3)),
  tag: fc.option(fc.nat(TAGS.length - 1)),
  stockWH: fc.option(fc.constantFrom(0, 4, 60)),
  view: sometimes(viewSpec, 80),
});

const worldSpec = fc.record({
  items: fc.array(itemSpec, { maxLength: 14 }),
  views: fc.array(sometimes(viewSpec, 85), { minLength: 1, maxLength: 3 }),
  mutations: fc.array(mutationSpec, { maxLength: 6 }),
});
type WorldSpec = typeof worldSpec extends fc.Arbitrary<infer T> ? T : never;

/** What the model knows of a view: built from the spec, never from the server's reading of it. */
interface ViewModel {
  statuses: ItemStatus[][];
  tag: string | null;
  locations: string[];
  hidden: Set<string>;
  hiddenCustom: string[];
  cap: number | null;
}

interface KeyModel {
  key: string;
  record: ApiKeyRecord;
  view: ViewModel | null;
  /** The nextSince of a whole sync of this key taken before the mutations. */
  token: string;
}

interface World {
  org: Organization;
  start: string;
  items: Item[];
  /** Every item ever created, deleted ones too (their texts must never show either). */
  everything: Item[];
  keys: KeyModel[];
  /** A key without a view: it makes cursors the view keys then replay. */
  full: string;
  /**
   * Every state of every item in change order (null once deleted), read from the unscoped
   * change feed after each write: what a key could have seen since a sync point.
   */
  history: Map<string, Array<{ seq: number; state: Item | null }>>;
  /** How far `history` has read the change feed. */
  feedSeq: number;
}

let server: TestServer;
let slug = 0;

/**
 * Unique markers per item and field, so hidden text can be looked for in every body. A
 * marker's first two characters (n0, d0, SK, bc, se) are in no other field of any item, so a
 * search for them can only match that field.
 */
const mark = (k: number, field: string) => `${field}${String(k).padStart(3, '0')}~`;
const itemNumber = (item: Item) => Number(/n(\d{3})~/.exec(item.name)?.[1]);

type ViewInput = Parameters<typeof parseView>[0];

function toView(spec: ViewSpec | null): { model: ViewModel | null; input: ViewInput | null } {
  if (spec === null) return { model: null, input: null };
  const where = [
    ...(spec.statuses ?? []).map((list) => `status=${list.join(',')}`),
    ...(spec.tag === null ? [] : [`customFields.tag=${spec.tag}`]),
    ...(spec.location ?? []).map((code) => `location=${code}`),
  ];
  const hidden = new Set<string>(spec.hide.filter((name) => !name.startsWith('customFields.')));
  const model: ViewModel = {
    statuses: spec.statuses ?? [],
    tag: spec.tag,
    locations: spec.location ?? [],
    hidden,
    hiddenCustom: spec.hide
      .filter((name) => name.startsWith('customFields.'))
      .map((name) => name.slice('customFields.'.length)),
    cap: spec.cap,
  };
  return { model, input: { where, hideFields: spec.hide, quantityCap: spec.cap } };
}

function itemRow(spec: WorldSpec['items'][number], k: number): ItemFields {
  const word = (n: number) =>
    `${WORDS[n % WORDS.length]} ${WORDS[Math.floor(n / WORDS.length) % WORDS.length]}`;
  const custom: Record<string, unknown> = { n: 1000 + k };
  const tag = TAGS[spec.tag];
  if (tag !== null && tag !== undefined) custom.tag = tag;
  if (spec.secret) custom.secret = `${mark(k, 'sec')} ${word(spec.name + 1)}`;
  // A nested tag never satisfies a view on the top-level one.
  if (k % 3 === 0) custom.nested = { tag: 'a' };
  const stock: Record<string, number> = {};
  for (const code of LOCATIONS) {
    const quantity = spec.stock?.[code];
    if (quantity !== null && quantity !== undefined) stock[code] = quantity;
  }
  return {
    name: `${word(spec.name)} ${mark(k, 'n')}`,
    description: spec.description ? `About ${word(spec.name + 7)} ${mark(k, 'd')}` : null,
    sku: spec.sku ? mark(k, 'SKU-') : null,
    barcode: spec.barcode ? mark(k, 'bc') : null,
    status: STATUSES[spec.status] as ItemStatus,
    ...(Object.keys(stock).length > 0 ? { stock: stockText(stock) } : { quantity: spec.quantity }),
    customFields: JSON.stringify(custom),
  };
}

async function allItems(org: Organization): Promise<Item[]> {
  return server.store.listItems(org.id, { limit: 1000 });
}

async function buildWorld(spec: WorldSpec): Promise<World> {
  slug += 1;
  const start = new Date(Date.now() - 1).toISOString();
  const org = await server.createOrganization({
    name: `Views ${slug}`,
    slug: `views-${process.pid}-${slug}`,
    features: ['inventory'],
  });
  for (const code of LOCATIONS) {
    await createLocation(server.store, cliActor(), org, { code, name: code });
  }
  const rows = spec.items.map(itemRow);
  if (rows.length > 0) await server.createItems(org.id, rows);
  const created = await allItems(org);
  expect(created).toHaveLength(rows.length);
  const full = (await server.createKey({ organizationId: org.id, rateLimit: null })).key;
  const keys: KeyModel[] = [];
  for (const viewSpecOrNull of spec.views) {
    const { model, input } = toView(viewSpecOrNull);
    const { key, record } = await server.createKey({
      organizationId: org.id,
      rateLimit: null,
      view: input === null ? null : parseView(input),
    });
    keys.push({ key, record, view: model, token: '' });
  }
  const world: World = {
    org,
    start,
    items: created,
    everything: created,
    keys,
    full,
    history: new Map(),
    feedSeq: 0,
  };
  await readHistory(world);
  // A whole sync of each key before anything changes: checked, and its nextSince kept.
  for (const key of keys) {
    key.token = await checkSyncWalk(world, key, { since: start, includeDeleted: true, limit: 4 });
  }
  // Changes: updates (by sku), deletions, and view changes (a sync from before them starts over).
  for (const mutation of spec.mutations) {
    const current = await allItems(org);
    if (mutation.kind === 'view') {
      const key = keys[mutation.pick % keys.length] as KeyModel;
      const { model, input } = toView(mutation.view);
      const view = input === null ? null : parseView(input);
      if (JSON.stringify(view) === JSON.stringify(key.record.view)) continue;
      key.record = await updateKeyView(server.store, cliActor(), org, key.record, view);
      key.view = model;
      continue;
    }
    const withSku = current.filter((item) => item.sku !== null);
    const target = withSku[mutation.pick % Math.max(1, withSku.length)];
    if (!target) continue;
    if (mutation.kind === 'delete') {
      expect(await server.store.deleteItem(org.id, { id: target.id })).toBe(true);
      continue;
    }
    const custom = JSON.parse(target.customFields) as Record<string, unknown>;
    if (mutation.tag !== null) {
      const tag = TAGS[mutation.tag];
      if (tag === null || tag === undefined) delete custom.tag;
      else custom.tag = tag;
    }
    const stock = Object.fromEntries(
      (JSON.parse(target.stock) as Array<{ location: string; quantity: number }>).map((row) => [
        row.location,
        row.quantity,
      ]),
    );
    if (mutation.stockWH !== null) stock.WH = mutation.stockWH;
    const outcomes = await server.store.writeItems(org.id, [
      {
        sku: target.sku,
        ...(mutation.status === null ? {} : { status: STATUSES[mutation.status] as ItemStatus }),
        customFields: JSON.stringify(custom),
        ...(mutation.stockWH === null ? {} : { stock: stockText(stock) }),
      },
    ]);
    expect(['updated', 'unchanged']).toContain(outcomes[0]);
    await readHistory(world);
  }
  world.items = await allItems(org);
  return world;
}

/** Appends the changes made since it last read the feed to the world's history. */
async function readHistory(world: World): Promise<void> {
  const feed = await server.store.listChanges(world.org.id, {
    afterSeq: world.feedSeq,
    limit: 10_000,
    includeDeleted: true,
  });
  expect(feed.more).toBe(false);
  const events = [
    ...feed.items.map((item) => ({ seq: item.changeSeq, id: item.id, state: item as Item | null })),
    ...feed.deleted.map((tombstone) => ({ seq: tombstone.seq, id: tombstone.id, state: null })),
  ].sort((a, b) => a.seq - b.seq);
  for (const { seq, id, state } of events) {
    const states = world.history.get(id) ?? [];
    states.push({ seq, state });
    world.history.set(id, states);
  }
  world.feedSeq = feed.throughSeq;
}

/**
 * Whether the view let the key see the item at the position `after` or at any change since:
 * a sync from there names only such items as deleted (issue 41).
 */
function seenSince(world: World, id: string, after: number, view: ViewModel | null): boolean {
  let atPoint: Item | null = null;
  const since: Array<Item | null> = [];
  for (const { seq, state } of world.history.get(id) ?? []) {
    if (seq <= after) atPoint = state;
    else since.push(state);
  }
  return [atPoint, ...since].some((state) => state !== null && inView(state, view));
}

// ---------------------------------------------------------------------------------------------
// The model

const customOf = (item: Item) => JSON.parse(item.customFields) as Record<string, unknown>;
const stockOf = (item: Item) =>
  JSON.parse(item.stock) as Array<{ location: string; quantity: number }>;
const stockedAt = (item: Item, code: string) =>
  stockOf(item).some((row) => row.location === code && row.quantity > 0);

function inView(item: Item, view: ViewModel | null): boolean {
  if (view === null) return true;
  if (view.statuses.some((list) => !list.includes(item.status))) return false;
  if (view.tag !== null && customOf(item).tag !== view.tag) return false;
  return view.locations.every((code) => stockedAt(item, code));
}

const hiddenField = (view: ViewModel | null, field: string) =>
  view !== null && (view.hidden.has(field) || (field === 'location' && view.hidden.has('stock')));

/** The fields the key is shown when it names none. */
const shownFields = (view: ViewModel | null): ItemField[] =>
  ITEM_FIELDS.filter((field) => !hiddenField(view, field));

/** The item as the key must see it, as JSON (the reference serializer, then the view). */
function seen(item: Item, view: ViewModel | null, fields: ItemField[] | undefined) {
  const whole = serializeItem(item) as Record<string, unknown>;
  if (view?.cap !== null && view?.cap !== undefined) {
    const cap = view.cap;
    whole.quantity = Math.min(item.quantity, cap);
    whole.stock = stockOf(item).map((row) => ({ ...row, quantity: Math.min(row.quantity, cap) }));
  }
  const custom = { ...customOf(item) };
  for (const name of view?.hiddenCustom ?? []) delete custom[name];
  whole.customFields = custom;
  const out: Record<string, unknown> = {};
  for (const field of fields ?? shownFields(view)) out[field] = whole[field];
  return out;
}

/** Whether the needle is in a field of the item the key may see (search never looks elsewhere). */
function searchMatches(item: Item, needle: string, view: ViewModel | null): boolean {
  const folded = foldCase(needle);
  const texts = [
    item.name,
    hiddenField(view, 'description') ? null : item.description,
    hiddenField(view, 'sku') ? null : item.sku,
    hiddenField(view, 'barcode') ? null : item.barcode,
  ];
  return texts.some((text) => text !== null && foldCase(text).includes(folded));
}

interface Expected {
  status: number;
  code?: string;
  param?: string;
  /** The whole body, when it is known. */
  body?: Record<string, unknown>;
}

const refused = (param: string): Expected => ({
  status: 400,
  code: 'INVALID_PARAMETER',
  param,
});

/** The 400 a view gives a request naming what it hides (api/key-view.ts's order), or null. */
function viewRefusal(
  view: ViewModel | null,
  query: {
    fields?: ItemField[];
    sku?: string;
    barcode?: string;
    status?: string;
    location?: string;
    /** An incremental sync from this point. */
    since?: string;
  },
): Expected | null {
  if (query.fields?.some((field) => hiddenField(view, field))) return refused('fields');
  for (const param of ['sku', 'barcode', 'status', 'location'] as const) {
    if (query[param] !== undefined && hiddenField(view, param)) return refused(param);
  }
  // A sync would tell when each item changed: refused when the view hides updatedAt.
  if (query.since !== undefined && hiddenField(view, 'updatedAt')) return refused('updatedSince');
  return null;
}

interface ListQuery {
  limit?: number;
  search?: string;
  status?: ItemStatus;
  sku?: string;
  barcode?: string;
  ids?: string[];
  location?: string;
  fields?: ItemField[];
  cursor?: string;
}

function listParams(query: ListQuery): URLSearchParams {
  const params = new URLSearchParams();
  if (query.limit !== undefined) params.set('limit', String(query.limit));
  if (query.search !== undefined) params.set('search', query.search);
  if (query.status !== undefined) params.set('status', query.status);
  if (query.sku !== undefined) params.set('sku', query.sku);
  if (query.barcode !== undefined) params.set('barcode', query.barcode);
  if (query.ids !== undefined) params.set('ids', query.ids.join(','));
  if (query.location !== undefined) params.set('location', query.location);
  if (query.fields !== undefined) params.set('fields', query.fields.join(','));
  if (query.cursor !== undefined) params.set('cursor', query.cursor);
  return params;
}

const cursorFiltersOf = (query: ListQuery) => ({
  status: query.status,
  search: query.search,
  sku: query.sku,
  barcode: query.barcode,
  ids: query.ids?.join(','),
  location: query.location,
  sync: false,
  includeDeleted: false,
});

/** The items of a list, all pages together, that the key must get; or the 400 it must get. */
function listModel(world: World, key: KeyModel, query: ListQuery): Expected | Item[] {
  if (query.cursor !== undefined) {
    const decoded = decodeCursor(query.cursor);
    if (decoded === null || !cursorMatches(decoded, cursorFiltersOf(query))) {
      return refused('cursor');
    }
  }
  const refusal = viewRefusal(key.view, query);
  if (refusal) return refusal;
  if (query.location !== undefined && !(LOCATIONS as readonly string[]).includes(query.location)) {
    return refused('location');
  }
  const afterId = query.cursor === undefined ? undefined : decodeCursor(query.cursor)?.afterId;
  return world.items.filter(
    (item) =>
      inView(item, key.view) &&
      (afterId === undefined || item.id > afterId) &&
      (query.status === undefined || item.status === query.status) &&
      (query.search === undefined || searchMatches(item, query.search, key.view)) &&
      (query.sku === undefined || item.sku === query.sku) &&
      (query.barcode === undefined || item.barcode === query.barcode) &&
      (query.ids === undefined || query.ids.includes(item.id)) &&
      (query.location === undefined || stockedAt(item, query.location)),
  );
}

// ---------------------------------------------------------------------------------------------
// Checks of answers

/**
 * Texts the key must never read: every text of an item outside its view (its id too, outside
 * `deleted` and unless the request named it), and the hidden fields' texts of the others.
 */
function forbidden(world: World, key: KeyModel): { ids: string[]; texts: string[] } {
  const ids: string[] = [];
  const texts: string[] = [];
  const visible = new Set(world.items.filter((i) => inView(i, key.view)).map((i) => i.id));
  for (const item of world.everything) {
    const k = itemNumber(item);
    const marks = {
      name: mark(k, 'n'),
      description: mark(k, 'd'),
      sku: mark(k, 'SKU-'),
      barcode: mark(k, 'bc'),
      secret: mark(k, 'sec'),
    };
    if (!visible.has(item.id)) {
      ids.push(item.id);
      texts.push(...Object.values(marks));
      continue;
    }
    for (const field of ['description', 'sku', 'barcode'] as const) {
      if (hiddenField(key.view, field)) texts.push(marks[field]);
    }
    if (hiddenField(key.view, 'customFields') || key.view?.hiddenCustom.includes('secret')) {
      texts.push(marks.secret);
    }
  }
  return { ids, texts };
}

function expectClean(world: World, key: KeyModel, path: string, text: string, label: string) {
  const { ids, texts } = forbidden(world, key);
  for (const marker of texts) expect(text, `${label}: shows ${marker}`).not.toContain(marker);
  // Ids of items outside the view may only show as sync deletions (api docs: a reader drops
  // ids it does not hold) or when the request itself named them.
  const withoutDeleted = text.replace(/"deleted":\[[^\]]*\]/, '');
  for (const id of ids) {
    if (!path.includes(id)) expect(withoutDeleted, `${label}: shows ${id}`).not.toContain(id);
  }
}

function expectAnswer(
  response: { status: number; body: Record<string, unknown> },
  expected: Expected,
  label: string,
) {
  expect(response.status, label).toBe(expected.status);
  if (expected.code) {
    const error = response.body.error as { code: string; param?: string };
    expect(error.code, label).toBe(expected.code);
    if (expected.param) expect(error.param, label).toBe(expected.param);
  }
  if (expected.body) expect(response.body, label).toEqual(expected.body);
}

/** Every item of a 200 list or detail carries exactly the fields expected, in item order. */
function expectFieldOrder(items: unknown[], fields: ItemField[], label: string) {
  for (const item of items) expect(Object.keys(item as object), label).toEqual(fields);
}

const ITEMS = '/api/v1/inventory/items';

/**
 * One list request, or a walk of every page from it following nextCursor: each page exactly
 * the model's next `limit` items (full unless last), each cursor naming the page's last item.
 */
async function checkList(world: World, key: KeyModel, query: ListQuery, walk: boolean) {
  const model = listModel(world, key, query);
  const limit = query.limit ?? 100;
  let cursor = query.cursor;
  let offset = 0;
  for (let pageNo = 0; ; pageNo++) {
    const q = { ...query, ...(cursor === undefined ? {} : { cursor }) };
    const path = `${ITEMS}?${listParams(q)}`;
    const response = await server.request(path, { key: key.key });
    const label = `${path} [view ${JSON.stringify(key.record.view)}] → ${response.text.slice(0, 400)}`;
    expectClean(world, key, path, response.text, label);
    if (!Array.isArray(model)) {
      expectAnswer(response, model, label);
      return;
    }
    const page = model.slice(offset, offset + limit);
    const more = model.length > offset + limit;
    expectAnswer(
      response,
      {
        status: 200,
        body: {
          data: page.map((item) => seen(item, key.view, query.fields)),
          organizationId: world.org.id,
          count: page.length,
          nextCursor: more ? expect.any(String) : null,
        },
      },
      label,
    );
    expectFieldOrder(response.body.data, query.fields ?? shownFields(key.view), label);
    if (!more) return;
    const next = decodeCursor(response.body.nextCursor);
    // The cursor continues after the page's last item (one the key sees), for these filters.
    expect(next?.afterId, label).toBe(page[page.length - 1]?.id);
    expect(next && cursorMatches(next, cursorFiltersOf(query)), label).toBe(true);
    if (!walk) return;
    cursor = response.body.nextCursor;
    offset += limit;
    expect(pageNo, label).toBeLessThan(40);
  }
}

/** The MCP tools answer the routes' bodies: search_items (limit 20 by default) and get_item. */
async function mcp(key: KeyModel, name: string, args: Record<string, unknown>) {
  return server.request('/mcp', {
    key: key.key,
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name, arguments: args },
    }),
  });
}

async function checkMcpList(world: World, key: KeyModel, query: ListQuery) {
  const args: Record<string, unknown> = {};
  for (const [name, value] of listParams(query))
    args[name] = name === 'limit' ? Number(value) : value;
  const response = await mcp(key, 'search_items', args);
  const label = `search_items ${JSON.stringify(args)} [view ${JSON.stringify(key.record.view)}] → ${response.text.slice(0, 400)}`;
  expect(response.status, label).toBe(200);
  expectClean(world, key, JSON.stringify(args), response.text, label);
  const model = listModel(world, key, query);
  const result = response.body.result;
  if (!Array.isArray(model)) {
    expect(result.isError, label).toBe(true);
    expect(result.content[0].text, label).toContain(model.code);
    return;
  }
  const limit = query.limit ?? 20;
  const page = model.slice(0, limit);
  expect(result.isError ?? false, label).toBe(false);
  expect(result.structuredContent, label).toEqual({
    data: page.map((item) => seen(item, key.view, query.fields)),
    organizationId: world.org.id,
    count: page.length,
    nextCursor: model.length > limit ? expect.any(String) : null,
  });
}

async function checkDetail(
  world: World,
  key: KeyModel,
  itemId: string,
  fields: ItemField[] | undefined,
  viaMcp: boolean,
) {
  const item = world.items.find((i) => i.id === itemId);
  const expected: Expected =
    viewRefusal(key.view, fields === undefined ? {} : { fields }) ??
    (item && inView(item, key.view)
      ? { status: 200, body: { data: seen(item, key.view, fields) } }
      : { status: 404, code: 'ITEM_NOT_FOUND', param: 'itemId' });
  if (viaMcp) {
    const args = { itemId, ...(fields === undefined ? {} : { fields: fields.join(',') }) };
    const response = await mcp(key, 'get_item', args);
    const label = `get_item ${JSON.stringify(args)} [view ${JSON.stringify(key.record.view)}] → ${response.text.slice(0, 400)}`;
    expectClean(world, key, itemId, response.text, label);
    const result = response.body.result;
    if (expected.status === 200) expect(result.structuredContent, label).toEqual(expected.body);
    else expect(result.content[0].text, label).toContain(expected.code);
    return;
  }
  const params = new URLSearchParams({ itemId });
  if (fields) params.set('fields', fields.join(','));
  const path = `/api/v1/inventory/item?${params}`;
  const response = await server.request(path, { key: key.key });
  const label = `${path} [view ${JSON.stringify(key.record.view)}] → ${response.text.slice(0, 400)}`;
  expectClean(world, key, path, response.text, label);
  expectAnswer(response, expected, label);
  if (response.status === 200)
    expectFieldOrder([response.body.data], fields ?? shownFields(key.view), label);
}

interface SyncQuery {
  since: string;
  includeDeleted: boolean;
  limit: number;
  status?: ItemStatus;
  location?: string;
  fields?: ItemField[];
}

/**
 * The position each nextSince token of a whole walk stands for (the feed's position when the
 * walk ended) and the version of its key's view (viewUpdatedAt, 0 for none) that held when the
 * walk began, whatever changed in its middle. Tokens are signed (opaque to clients): the model
 * keeps what it knows of each instead of reading it.
 */
const TOKEN_POSITIONS = new Map<string, { seq: number; version: number }>();

/**
 * Where a sync from `since` starts for this key (api/sync.ts), as a change number, and the
 * client's own point when the sync does not start over (null when it does: the view changed).
 */
function syncStart(key: KeyModel, since: string): { afterSeq: number; point: number | null } {
  const viewVersion = key.record.viewUpdatedAt;
  if (since.startsWith('s')) {
    // The position is the token's; whether the view changed since is the model's to say.
    const position = TOKEN_POSITIONS.get(since);
    expect(position, 'a token of a walk this test made').toBeDefined();
    const { seq, version } = position as { seq: number; version: number };
    if (viewVersion !== null && version < viewVersion) return { afterSeq: 0, point: null };
    return { afterSeq: seq, point: seq };
  }
  const at = Date.parse(since);
  if (viewVersion !== null && at <= viewVersion) return { afterSeq: 0, point: null };
  return { afterSeq: at * 1000 + 999, point: at * 1000 + 999 };
}

type SyncEntry = { seq: number } & (
  | { item: Item }
  | { deleted: { _id: string; deletedAt: string } }
);

/**
 * A sync's entries in change order, from the unscoped change feed, as the key must see them:
 * from where `since` starts, or from a page's cursor (`afterSeq`).
 */
async function syncModel(
  world: World,
  key: KeyModel,
  query: SyncQuery,
  start = syncStart(key, query.since),
  afterSeq = start.afterSeq,
): Promise<SyncEntry[]> {
  const feed = await server.store.listChanges(world.org.id, {
    afterSeq,
    limit: 10_000,
    includeDeleted: true,
  });
  expect(feed.more).toBe(false);
  const events = [
    ...feed.items.map((item) => ({ seq: item.changeSeq, item })),
    ...feed.deleted.map((tombstone) => ({ seq: tombstone.seq, tombstone })),
  ].sort((a, b) => a.seq - b.seq);
  const view = key.view;
  const filtersRows =
    view !== null && (view.statuses.length > 0 || view.tag !== null || view.locations.length > 0);
  const entries: SyncEntry[] = [];
  for (const event of events) {
    // From its own point, the key is told only of items it could have seen since (issue 41).
    const seen = (id: string) =>
      !filtersRows || start.point === null || seenSince(world, id, start.point, view);
    if ('tombstone' in event) {
      const { id, deletedAt } = event.tombstone;
      if (query.includeDeleted && seen(id)) {
        entries.push({
          seq: event.seq,
          deleted: { _id: id, deletedAt: new Date(deletedAt).toISOString() },
        });
      }
      continue;
    }
    const { item } = event;
    if (query.status !== undefined && item.status !== query.status) continue;
    if (query.location !== undefined && !stockedAt(item, query.location)) continue;
    if (inView(item, view)) entries.push({ seq: event.seq, item });
    else if (query.includeDeleted && filtersRows && seen(item.id)) {
      // An item changed outside the view is the key's deletion, dated by it or by the view.
      const at = Math.max(item.updatedAt, key.record.viewUpdatedAt ?? 0);
      entries.push({
        seq: event.seq,
        deleted: { _id: item.id, deletedAt: new Date(at).toISOString() },
      });
    }
  }
  return entries;
}

/**
 * A whole sync of the key, page by page; returns the last page's nextSince. `between`, when
 * given, runs after the first page when more follow (a change of the key's view in the middle
 * of a walk): the next pages continue from the cursor under the view as it is then.
 */
async function checkSyncWalk(
  world: World,
  key: KeyModel,
  query: SyncQuery,
  between?: () => Promise<void>,
): Promise<string> {
  const walkVersion = key.record.viewUpdatedAt ?? 0;
  const start = syncStart(key, query.since);
  let refusal = viewRefusal(key.view, query);
  let entries = refusal ? [] : await syncModel(world, key, query, start);
  let cursor: string | null = null;
  for (let offset = 0; ; offset += query.limit) {
    const params = new URLSearchParams({
      updatedSince: query.since,
      includeDeleted: String(query.includeDeleted),
      limit: String(query.limit),
    });
    if (query.status) params.set('status', query.status);
    if (query.location) params.set('location', query.location);
    if (query.fields) params.set('fields', query.fields.join(','));
    if (cursor !== null) params.set('cursor', cursor);
    const path = `${ITEMS}?${params}`;
    const response = await server.request(path, { key: key.key });
    const label = `${path} [view ${JSON.stringify(key.record.view)}] → ${response.text.slice(0, 400)}`;
    expectClean(world, key, path, response.text, label);
    if (refusal) {
      expectAnswer(response, refusal, label);
      return '';
    }
    const page = entries.slice(offset, offset + query.limit);
    const more = entries.length > offset + query.limit;
    const data = page.flatMap((entry) => ('item' in entry ? [entry.item] : []));
    expectAnswer(
      response,
      {
        status: 200,
        body: {
          data: data.map((item) => seen(item, key.view, query.fields)),
          organizationId: world.org.id,
          count: data.length,
          nextCursor: more ? expect.any(String) : null,
          nextSince: expect.any(String),
          ...(query.includeDeleted
            ? { deleted: page.flatMap((entry) => ('deleted' in entry ? [entry.deleted] : [])) }
            : {}),
        },
      },
      label,
    );
    expectFieldOrder(response.body.data, query.fields ?? shownFields(key.view), label);
    if (!more) {
      TOKEN_POSITIONS.set(response.body.nextSince, {
        // A caught-up page ends at the feed's position, and nothing writes while a walk runs.
        seq: (
          await server.store.listChanges(world.org.id, {
            afterSeq: world.feedSeq,
            limit: 10_000,
            includeDeleted: true,
          })
        ).throughSeq,
        version: walkVersion,
      });
      return response.body.nextSince;
    }
    cursor = response.body.nextCursor;
    if (between && offset === 0) {
      await between();
      // The cursor continues after the page's last change, whatever the view is now.
      refusal = viewRefusal(key.view, query);
      const after = page[page.length - 1]?.seq as number;
      entries = [
        ...entries.slice(0, query.limit),
        // Under a view changed since the walk began, every item outside it is named: the
        // client's copy was made under the other one.
        ...(refusal
          ? []
          : await syncModel(
              world,
              key,
              query,
              (key.record.viewUpdatedAt ?? 0) === walkVersion ? start : { ...start, point: null },
              after,
            )),
      ];
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Requests

const requestSpec = fc.record({
  key: fc.nat(),
  kind: fc.constantFrom(
    'list',
    'list',
    'list',
    'walk',
    'walk',
    'detail',
    'detail',
    'sync',
    'sync',
    'mcpList',
    'mcpItem',
  ),
  limit: sometimes(fc.integer({ min: 1, max: 5 }), 75),
  search: sometimes(
    fc.record({
      from: fc.constantFrom('visible', 'hidden', 'hiddenMark', 'invisible', 'word'),
      pick: fc.nat(),
      start: fc.nat(),
      length: fc.integer({ min: 1, max: 6 }),
    }),
    40,
  ),
  status: sometimes(fc.nat(3), 25),
  exact: sometimes(
    fc.record({
      kind: fc.constantFrom('sku', 'barcode', 'ids'),
      from: fc.constantFrom('visible', 'invisible', 'any'),
      pick: fc.nat(),
      count: fc.integer({ min: 1, max: 4 }),
    }),
    25,
  ),
  location: sometimes(fc.constantFrom('WH', 'SHOP', 'NOPE'), 20),
  fields: sometimes(fc.subarray([...ITEM_FIELDS], { minLength: 1, maxLength: 5 }), 35),
  /** Whether `fields` keeps to what the view shows (else it may name hidden fields: a 400). */
  fieldsShown: fc.constantFrom(true, true, true, false),
  /** A cursor from a walk of the key without a view, with the same filters. */
  cursor: fc.constantFrom(false, false, false, true),
  itemFrom: fc.constantFrom('visible', 'invisible', 'any'),
  pick: fc.nat(),
  since: fc.constantFrom('start', 'token'),
  /** A change of the key's view between the first and second pages of a sync. */
  midWalkView: sometimes(fc.record({ to: sometimes(viewSpec, 80) }), 15),
  includeDeleted: fc.boolean(),
});
type RequestSpec = typeof requestSpec extends fc.Arbitrary<infer T> ? T : never;

/** Items the key sees, does not see, or all of them (deleted ones among the latter). */
function source(world: World, key: KeyModel, from: string): Item[] {
  if (from === 'visible') return world.items.filter((item) => inView(item, key.view));
  const gone = world.everything.filter((item) => !world.items.some((i) => i.id === item.id));
  if (from === 'invisible') {
    return [...world.items.filter((item) => !inView(item, key.view)), ...gone];
  }
  return world.everything;
}

function hiddenTexts(world: World, key: KeyModel): string[] {
  const texts: string[] = [];
  for (const item of world.everything) {
    for (const field of ['description', 'sku', 'barcode'] as const) {
      const value = item[field];
      if (value !== null && (hiddenField(key.view, field) || !inView(item, key.view))) {
        texts.push(value);
      }
    }
    const secret = customOf(item).secret;
    if (typeof secret === 'string') texts.push(secret);
  }
  return texts;
}

/**
 * The markers of the hidden description, sku and barcode of items the key sees: text that is
 * there, in a field search must not look at.
 */
function hiddenMarks(world: World, key: KeyModel): string[] {
  const marks: string[] = [];
  for (const item of world.items) {
    if (!inView(item, key.view)) continue;
    const k = itemNumber(item);
    if (item.description !== null && hiddenField(key.view, 'description')) marks.push(mark(k, 'd'));
    if (item.sku !== null && hiddenField(key.view, 'sku')) marks.push(mark(k, 'SKU-'));
    if (item.barcode !== null && hiddenField(key.view, 'barcode')) marks.push(mark(k, 'bc'));
  }
  return marks;
}

async function runRequest(world: World, spec: RequestSpec) {
  const key = world.keys[spec.key % world.keys.length] as KeyModel;
  const fields =
    spec.fields === null
      ? undefined
      : spec.fieldsShown
        ? ((kept) => (kept.length > 0 ? kept : (['_id'] as ItemField[])))(
            spec.fields.filter((field) => !hiddenField(key.view, field)),
          )
        : spec.fields;
  if (spec.kind === 'detail' || spec.kind === 'mcpItem') {
    const items = source(world, key, spec.itemFrom);
    const itemId = items[spec.pick % Math.max(1, items.length)]?.id ?? '0'.repeat(24);
    await checkDetail(world, key, itemId, fields, spec.kind === 'mcpItem');
    return;
  }
  const status = spec.status === null ? undefined : STATUSES[spec.status];
  const location = spec.location ?? undefined;
  if (spec.kind === 'sync') {
    const change = spec.midWalkView;
    const between =
      change === null
        ? undefined
        : async () => {
            const { model, input } = toView(change.to);
            const view = input === null ? null : parseView(input);
            if (JSON.stringify(view) === JSON.stringify(key.record.view)) return;
            key.record = await updateKeyView(server.store, cliActor(), world.org, key.record, view);
            key.view = model;
          };
    const sync: SyncQuery = {
      since: spec.since === 'token' && key.token !== '' ? key.token : world.start,
      includeDeleted: spec.includeDeleted,
      limit: spec.limit ?? 100,
      ...(status === undefined ? {} : { status }),
      ...(location === undefined || location === 'NOPE' ? {} : { location }),
      ...(fields === undefined ? {} : { fields }),
    };
    const next = await checkSyncWalk(world, key, sync, between);
    // After a view change in its middle, that walk's nextSince starts the next sync over
    // (syncStart: the token carries the version the walk began under).
    if (between && next !== '') await checkSyncWalk(world, key, { ...sync, since: next });
    return;
  }
  const query: ListQuery = {
    ...(spec.limit === null ? {} : { limit: spec.limit }),
    ...(status === undefined ? {} : { status }),
    ...(location === undefined ? {} : { location }),
    ...(fields === undefined ? {} : { fields }),
  };
  if (spec.exact) {
    const items = source(world, key, spec.exact.from);
    const { kind, pick, count } = spec.exact;
    if (kind === 'ids') {
      query.ids = Array.from(
        { length: count },
        (_, i) => items[(pick + i) % Math.max(1, items.length)]?.id ?? 'f'.repeat(24),
      );
    } else {
      const values = items.map((item) => item[kind]).filter((v): v is string => v !== null);
      query[kind] = values[pick % Math.max(1, values.length)] ?? mark(999, 'bc');
    }
  } else if (spec.search) {
    const { from, pick, start, length } = spec.search;
    const texts =
      from === 'word'
        ? WORDS
        : from === 'hidden'
          ? hiddenTexts(world, key)
          : from === 'hiddenMark'
            ? hiddenMarks(world, key)
            : source(world, key, from).flatMap((item) =>
                [item.name, item.description, item.sku, item.barcode].filter(
                  (t): t is string => t !== null,
                ),
              );
    const text = texts[pick % Math.max(1, texts.length)] ?? 'tent';
    // A marker's start (its field's letters) is in no other field: it matches there or nowhere.
    const at = from === 'hiddenMark' ? 0 : start % text.length;
    query.search = text.slice(at, at + Math.max(length, from === 'hiddenMark' ? 2 : 1)) || text;
  }
  if (spec.cursor) {
    // A real cursor, made for the same filters by a key that sees everything: it may point
    // after an item this key does not see.
    const { fields: _ignored, cursor: _none, ...filters } = query;
    const response = await server.request(`${ITEMS}?${listParams({ ...filters, limit: 1 })}`, {
      key: world.full,
    });
    if (response.status === 200 && response.body.nextCursor !== null) {
      query.cursor = response.body.nextCursor;
    }
  }
  if (spec.kind === 'mcpList') {
    // search_items takes no ids.
    const { ids: _ids, ...rest } = query;
    await checkMcpList(world, key, rest);
  } else await checkList(world, key, query, spec.kind === 'walk');
}

/** Room for fast-check to shrink a failure to its smallest case. */
const SHRINK_TIMEOUT = 300_000;

function viewProperty(runs: number) {
  return async () => {
    await fc.assert(
      fc.asyncProperty(
        worldSpec,
        fc.array(requestSpec, { minLength: 20, maxLength: 20 }),
        async (spec, requests) => {
          const world = await buildWorld(spec);
          for (const request of requests) await runRequest(world, request);
        },
      ),
      { numRuns: runs },
    );
  };
}

describe('key view isolation on SQLite', () => {
  beforeAll(async () => {
    // The key cache off: a view change applies to the next request (its bound is another test's).
    server = await startTestServer({
      engine: 'sqlite',
      keyCacheTtlMs: 0,
      env: { AUTH_FAILURE_LIMIT: 'none' },
    });
  });
  afterAll(() => server.close());

  it(
    'a key never reads a row or field outside its view, whatever the parameters',
    viewProperty(150),
    // Passing runs take seconds; a failure's shrinking may take minutes, and should end.
    SHRINK_TIMEOUT,
  );
});

describe.skipIf(announceSkip('key view isolation on PostgreSQL', pgSkip))(
  'key view isolation on PostgreSQL',
  () => {
    beforeAll(async () => {
      server = await startTestServer({
        engine: 'postgres',
        keyCacheTtlMs: 0,
        env: { AUTH_FAILURE_LIMIT: 'none' },
      });
    });
    afterAll(() => server.close());

    it(
      'a key never reads a row or field outside its view, whatever the parameters',
      viewProperty(50),
      // Passing runs take seconds; a failure's shrinking may take minutes, and should end.
      SHRINK_TIMEOUT,
    );
  },
);
