import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Services } from '../../context.js';
import { HashedBody } from '../../http/representation.js';
import { foldCase } from '../../store/search.js';
import type { Item, ItemQuery, ItemStatus } from '../../store/types.js';
import { isoTime } from '../../time.js';
import type { AccessPolicy } from '../auth.js';
import {
  type CursorFilters,
  cursorMatches,
  type DecodedCursor,
  decodeCursor,
  encodeCursor,
  encodeSyncCursor,
} from '../cursor.js';
import { ApiError } from '../errors.js';
import { Gate } from '../gate.js';
import { DEFAULT_PAGE_SIZE, type ItemField, MAX_PAGE_SIZE, parseFields } from '../item-fields.js';
import { KeyViewOfItems } from '../key-view.js';
import { PARAMS } from '../params.js';
import type { QueryChecks } from '../query-checks.js';
import {
  type ParsedQuery,
  type QueryReading,
  quote,
  type RawQuery,
  routeQuery,
} from '../query-validator.js';
import { sendJson } from '../respond.js';
import { errorResponses, KEY_ERRORS, NOT_MODIFIED, SECURITY } from '../schemas.js';
import { itemJson } from '../serialize.js';
import {
  encodeSince,
  FOREIGN_TOKEN,
  looksLikeToken,
  MAX_FUTURE_MS,
  parseSince,
  type SincePoint,
  sinceSigned,
  startsOver,
} from '../sync.js';
import { installationSigner, type SyncSigner } from '../sync-signing.js';

/** The list's parameters as the handler uses them, read once by the querystring's validator. */
export interface ItemsQuery {
  organizationId?: string;
  /** The page size: the default, or `limit` up to the maximum. */
  limit: number;
  fields: ItemField[] | undefined;
  status?: ItemStatus;
  search?: string;
  sku?: string;
  barcode?: string;
  /** The `ids` filter, each id once. */
  ids?: string[];
  /** The `location` filter: a code, checked against the organization's locations. */
  location?: string;
  /** Where the page starts: the decoded `cursor`, bound to these filters. */
  cursor: DecodedCursor | null;
  /** The filters the next page's cursor is bound to. */
  filters: CursorFilters;
  /** With `updatedSince`: an incremental sync from this point. */
  sync: { since: SincePoint; includeDeleted: boolean } | null;
}

/** The filters a cursor is bound to, as the request states them. */
function cursorFilters(query: RawItemsQuery): CursorFilters {
  return {
    status: query.status,
    search: query.search,
    sku: query.sku,
    barcode: query.barcode,
    ids: query.ids,
    location: query.location,
    sync: query.updatedSince !== undefined,
    includeDeleted: query.includeDeleted === 'true',
  };
}

const EXACT_FILTERS = ['sku', 'barcode', 'ids'] as const;

const PARAMETERS = [
  'organizationId',
  'limit',
  'search',
  'status',
  'fields',
  'cursor',
  'sku',
  'barcode',
  'ids',
  'location',
  'updatedSince',
  'includeDeleted',
] as const;

/** The list's parameters as sent, each one that passed its own check. */
type RawItemsQuery = RawQuery<(typeof PARAMETERS)[number]>;

/**
 * Reads the list's parameters, with the problems that need several of them at once; each only
 * judges values that passed their own check.
 */
function readItemsQuery(
  query: RawItemsQuery,
  usable: (name: keyof RawItemsQuery) => boolean,
): QueryReading<ItemsQuery> {
  const present = (name: keyof RawItemsQuery) => query[name] !== undefined;
  const exact = EXACT_FILTERS.filter(present);
  if (present('search') && exact.length > 0) {
    return problem(
      'search',
      `search cannot be combined with ${exact.join(' or ')}: an exact filter already names the items; drop one of them.`,
    );
  }
  let sync: ItemsQuery['sync'] = null;
  if (query.updatedSince !== undefined) {
    const other = [...(present('search') ? ['search'] : []), ...exact];
    if (other.length > 0) {
      return problem(
        'updatedSince',
        `updatedSince cannot be combined with ${other.join(' or ')}: a sync lists every change (status and fields may narrow it); drop ${other.length > 1 ? 'them' : 'it'}.`,
      );
    }
    const since = parseSince(query.updatedSince);
    if (!since) {
      return problem(
        'updatedSince',
        looksLikeToken(query.updatedSince)
          ? `Invalid updatedSince ${quote(query.updatedSince)}: ${FOREIGN_TOKEN}.`
          : `Invalid updatedSince ${quote(query.updatedSince)}: ${PARAMS.updatedSince.invalid}.`,
      );
    }
    if (since.kind === 'instant' && since.at > Date.now() + MAX_FUTURE_MS) {
      return problem(
        'updatedSince',
        `Invalid updatedSince ${quote(query.updatedSince)}: it lies in the future; pass the time of your last sync, or the nextSince it returned.`,
      );
    }
    sync = { since, includeDeleted: query.includeDeleted === 'true' };
  } else if (query.includeDeleted !== undefined) {
    return problem(
      'includeDeleted',
      'includeDeleted needs updatedSince: deletions are listed by an incremental sync only; add updatedSince or drop includeDeleted.',
    );
  }
  const filters = cursorFilters(query);
  let cursor: DecodedCursor | null = null;
  // A cursor that is repeated or fails its own pattern is already reported.
  if (query.cursor !== undefined) {
    cursor = decodeCursor(query.cursor);
    if (!cursor) {
      return problem(
        'cursor',
        `Invalid cursor: ${PARAMS.cursor.invalid}; to start over, omit cursor.`,
      );
    }
    // Which filters a cursor belongs to can only be judged against filters that are valid.
    const bound = [
      'status',
      'search',
      'location',
      'includeDeleted',
      'updatedSince',
      ...EXACT_FILTERS,
    ] as const;
    if (bound.every(usable) && !cursorMatches(cursor, filters)) {
      return problem(
        'cursor',
        `Invalid cursor: it was made for other filters; ${PARAMS.cursor.invalid}, or omit cursor to start over.`,
      );
    }
  }
  const { organizationId, status, search, sku, barcode, ids, location } = query;
  return {
    value: {
      ...(organizationId === undefined ? {} : { organizationId }),
      limit: Math.min(
        query.limit === undefined ? DEFAULT_PAGE_SIZE : Number(query.limit),
        MAX_PAGE_SIZE,
      ),
      fields: parseFields(query.fields),
      ...(status === undefined ? {} : { status }),
      ...(search === undefined ? {} : { search }),
      ...(sku === undefined ? {} : { sku }),
      ...(barcode === undefined ? {} : { barcode }),
      ...(ids === undefined ? {} : { ids: [...new Set(ids.split(','))] }),
      ...(location === undefined ? {} : { location }),
      cursor,
      filters,
      sync,
    },
  };
}

function problem(param: string, message: string): QueryReading<never> {
  return { problem: { param, message } };
}

/** The list's querystring: its schema and check, shared with the MCP tool (mcp/tools/search-items.ts). */
export const itemsQuery = routeQuery({ optional: PARAMETERS, read: readItemsQuery });

/**
 * The list's checks that need the key or the organization (shared with search_items): what the
 * key's view hides, and whether `location` names one of the organization's locations.
 */
export const itemsChecks: QueryChecks<ItemsQuery> = {
  byKey: (key, query) => KeyViewOfItems.of(key)?.check(query),
  byData: (services, organizationId, { location, sync }) => {
    // The token first: like the other checks of the query alone, it is judged before the data.
    const token = sync === null ? undefined : signedSince(services, sync.since);
    if (location === undefined) return token;
    if (token === undefined) return knownLocation(services, organizationId, location);
    return token.then(() => knownLocation(services, organizationId, location));
  },
};

/**
 * Refuses a token this installation did not sign (edited, or another installation's): at once
 * when the process knows its key, else once it has read it.
 */
function signedSince(services: Services, since: SincePoint): Promise<void> | undefined {
  if (since.signed === null) return undefined;
  const signer = installationSigner(services.store);
  if (signer instanceof Promise) return signer.then((known) => refuseUnsigned(since, known));
  refuseUnsigned(since, signer);
  return undefined;
}

function refuseUnsigned(since: SincePoint, signer: SyncSigner): void {
  if (sinceSigned(since, signer)) return;
  throw new ApiError('INVALID_PARAMETER', `Invalid updatedSince: ${FOREIGN_TOKEN}.`, {
    param: 'updatedSince',
  });
}

async function knownLocation(services: Services, organizationId: string, code: string) {
  if (await services.store.findLocation(organizationId, code)) return;
  throw new ApiError(
    'INVALID_PARAMETER',
    `Unknown location ${quote(code)}: this organization has no location with that code (codes are case-sensitive); list them with GET /api/v1/inventory/locations.`,
    { param: 'location' },
  );
}

const access: AccessPolicy = {
  keyed: true,
  organizationOverride: true,
  feature: 'inventory',
  permission: 'inventory:view',
  chargesQuota: true,
  checks: itemsChecks,
};

/** The list's 200 body (the items by reference to the shared InventoryItem schema). */
export const ItemsPage = Type.Object({
  data: Type.Array(Type.Ref('InventoryItem')),
  organizationId: Type.String(),
  count: Type.Integer({ description: 'Number of items in `data`.' }),
  nextCursor: Type.Union([Type.String(), Type.Null()], {
    description:
      'Pass as `cursor` for the next page; null on the last page. A `search` of 3+ characters always returns full pages. One of 1–2 characters examines at most 10,000 items after the cursor (with the `status` filter) per request: when they hold fewer than `limit` matches the page is short (even empty) and `nextCursor` continues after the last item examined, so follow it until it is null. Likewise a sync (`updatedSince`) with `status`, `location` or a key view that filters items examines at most 10,000 changes per request: its page may be short (even empty) with a `nextCursor` all the same.',
  }),
  nextSince: Type.Optional(
    Type.String({
      description:
        'Only with `updatedSince`: where this sync ended. Keep it and pass it as `updatedSince` next time to get only what changed since (on the last page it covers every change so far; on any other page, the changes up to the last one it examined).',
    }),
  ),
  deleted: Type.Optional(
    Type.Array(
      Type.Object({
        _id: Type.String({ pattern: '^[0-9a-f]{24}$' }),
        deletedAt: Type.String({ format: 'date-time' }),
      }),
      {
        description:
          'Only with `updatedSince` and `includeDeleted=true`: items deleted since then, in change order. They count toward `limit` but not toward `count`.',
      },
    ),
  ),
});

/** Large pages (limit above the default) built at once, per process. */
const LARGE_PAGE_CONCURRENCY = 2;

export default function inventoryItemsRoute(app: FastifyInstance, services: Services) {
  const largePages = new Gate(LARGE_PAGE_CONCURRENCY);
  app.get<{ Querystring: ParsedQuery<typeof itemsQuery> }>(
    '/api/v1/inventory/items',
    {
      config: { access },
      validatorCompiler: itemsQuery.validatorCompiler,
      schema: {
        summary: 'List inventory items',
        description:
          'Items of the key’s organization in creation order (`_id` ascending), filtered by `search`, `status`, `location` or the exact `sku`, `barcode` and `ids`, narrowed by `fields`, one page at a time: pass `nextCursor` back as `cursor` until it is null. With `updatedSince`, an incremental sync instead: the items changed since then in change order, deletions too with `includeDeleted=true`, and `nextSince` to continue from next time. Every page carries a strong `ETag` (one per content encoding; `If-None-Match` answers 304) and is compressed with brotli or gzip when `Accept-Encoding` allows. Needs `inventory:view` and the `inventory` feature.',
        tags: ['Inventory'],
        security: SECURITY,
        querystring: itemsQuery.schema,
        response: {
          200: ItemsPage,
          ...NOT_MODIFIED,
          ...errorResponses([
            ...KEY_ERRORS,
            'ORGANIZATION_NOT_FOUND',
            'FEATURE_DISABLED',
            'INSUFFICIENT_PERMISSIONS',
            'SYNC_EXPIRED',
          ]),
        },
      },
    },
    async (request, reply) => {
      const organization = request.organization;
      const key = request.principal?.key;
      if (!organization || !key) throw new Error('authorize did not run');
      const query = request.query;
      const view = KeyViewOfItems.of(key);
      const build = () => itemsPage(services, organization.id, query, view);
      // Large pages are built a few at a time (see gate.ts); the default page size is not held.
      const page = query.limit > DEFAULT_PAGE_SIZE ? await largePages.run(build) : await build();
      return sendJson(request, reply, page.body, { etag: page.etag });
    },
  );
}

/** A page's bytes and their strong ETag, hashed slice by slice as the page was made. */
export type PageBytes = ReturnType<HashedBody['finish']>;

/**
 * The page a read list query answers with, as the bytes of its JSON body: the route sends
 * them, the MCP tool search_items parses them (the same body for the same parameters). `view`
 * is the key's view (null: it sees everything). The query has passed `itemsChecks`; the view's
 * check is repeated (it costs nothing) so that no caller can page through what the view hides.
 */
export async function itemsPage(
  services: Services,
  organizationId: string,
  query: ItemsQuery,
  view: KeyViewOfItems | null,
): Promise<PageBytes> {
  view?.check(query);
  const sync = query.sync;
  return sync === null
    ? buildPage(services, organizationId, query, view)
    : buildSyncPage(services, organizationId, query, sync, view);
}

function envelopeEnd(organizationId: string, count: number, next: string | null): string {
  return `],"organizationId":"${organizationId}","count":${count},"nextCursor":${next === null ? 'null' : `"${next}"`}`;
}

/** A page in `_id` order: every filter but updatedSince. */
async function buildPage(
  services: Services,
  organizationId: string,
  query: ItemsQuery,
  view: KeyViewOfItems | null,
): Promise<PageBytes> {
  const { limit, cursor, filters } = query;
  const write = itemWriter(query.fields, view);
  // A store that bounds the work of a search page may stop early; it then says where.
  let resumeAfter: string | undefined;
  const itemQuery: ItemQuery = {
    // One extra row tells whether another page follows without a count query.
    limit: limit + 1,
    ...(cursor?.afterId === undefined ? {} : { afterId: cursor.afterId }),
    ...(query.status === undefined ? {} : { status: query.status }),
    ...(query.search === undefined ? {} : { search: foldCase(query.search) }),
    ...(query.sku === undefined ? {} : { sku: query.sku }),
    ...(query.barcode === undefined ? {} : { barcode: query.barcode }),
    ...(query.ids === undefined ? {} : { ids: query.ids }),
    ...(query.location === undefined ? {} : { location: query.location }),
    ...(view === null ? {} : { scope: view.scope }),
    onPartialPage: (id) => {
      resumeAfter = id;
    },
  };
  const slices = services.store.listItemSlices(organizationId, itemQuery);
  // The item fast path (serialize.ts): the same bytes the response schema describes.
  // Each item becomes bytes in the body's pooled chunks at once, so nothing of a slice but
  // those bytes outlives it: large pages leave little for the collector, and no turn of the
  // event loop hashes a whole page.
  const body = new HashedBody();
  body.add('{"data":[');
  let count = 0;
  let lastId: string | undefined;
  let more = false;
  for await (const slice of slices) {
    for (const item of slice) {
      if (count === limit) {
        more = true;
        break;
      }
      body.add(count > 0 ? `,${write(item)}` : write(item));
      count++;
      lastId = item.id;
    }
    if (more) break;
  }
  let next: string | null = null;
  if (more && lastId !== undefined) next = encodeCursor(lastId, filters);
  else if (resumeAfter !== undefined) next = encodeCursor(resumeAfter, filters);
  body.add(`${envelopeEnd(organizationId, count, next)}}`);
  return body.finish();
}

/** A page of an incremental sync: changes in change order, deletions too if asked. */
async function buildSyncPage(
  services: Services,
  organizationId: string,
  query: ItemsQuery,
  { since, includeDeleted }: NonNullable<ItemsQuery['sync']>,
  view: KeyViewOfItems | null,
): Promise<PageBytes> {
  const { limit, cursor, filters } = query;
  const write = itemWriter(query.fields, view);
  // Checked before the quota (itemsChecks); again here, where the token is used.
  const signer = await installationSigner(services.store);
  refuseUnsigned(since, signer);
  const now = Date.now();
  if (includeDeleted && since.kind === 'legacy-token') {
    throw new ApiError(
      'SYNC_EXPIRED',
      'This nextSince was issued by an earlier Stockroom release, before sync tokens were signed, so the deletions since then cannot be vouched for. Do a full resync: read every item without updatedSince (or with updatedSince=1970-01-01 and without includeDeleted), then continue from its nextSince.',
      { param: 'updatedSince' },
    );
  }
  if (includeDeleted && since.at < now - services.config.syncRetentionMs) {
    throw new ApiError(
      'SYNC_EXPIRED',
      `This sync point (${isoTime(since.at)}) is older than the ${retentionText(services.config.syncRetentionMs)} for which deleted items are remembered, so deletions since then may be missing. Do a full resync: read every item without updatedSince (or with updatedSince=1970-01-01 and without includeDeleted), then continue from its nextSince.`,
      { param: 'updatedSince' },
    );
  }
  // As in buildPage, each item becomes bytes as soon as the store has read it (onItem), so its
  // strings die young. Held whole until the last fetch, a PostgreSQL page of 1,000 items was
  // promoted to the old generation, which only a full collection frees: old space peaked at
  // 40-54 MB under 32 connections of such pages, 36-39 MB since.
  const body = new HashedBody();
  body.add('{"data":[');
  let count = 0;
  // A sync from a point reached under another version of the key's view starts over from the
  // first change: what the key sees may differ from what it synced, item by item (api/sync.ts).
  // The walk's pages and its nextSince carry the version it applied.
  const viewVersion = view?.since ?? 0;
  const walkVersion = cursor === null ? viewVersion : (cursor.viewVersion ?? 0);
  const over = cursor === null && view !== null && startsOver(since, viewVersion);
  // A walk under the view the client's copy was made with names only the items the key could
  // have seen since the copy's point; one that started over, or whose view changed since it
  // began, names every item outside the view (the copy may hold what another view showed).
  const seenAfter =
    view !== null && !startsOver(since, walkVersion) && walkVersion === viewVersion
      ? since.seenAfter
      : null;
  const seenAfterSeq = seenAfter === null ? {} : { seenAfterSeq: seenAfter };
  const page = await services.store.listChanges(organizationId, {
    afterSeq: cursor?.afterSeq ?? (over ? 0 : since.afterSeq),
    limit,
    ...(query.status === undefined ? {} : { status: query.status }),
    ...(query.location === undefined ? {} : { location: query.location }),
    includeDeleted,
    ...(view === null ? {} : { scope: view.scope, scopeSince: view.since, ...seenAfterSeq }),
    onItem: (item) => {
      body.add(count > 0 ? `,${write(item)}` : write(item));
      count++;
    },
  });
  const next = page.more ? encodeSyncCursor(page.throughSeq, filters, walkVersion) : null;
  // A caught-up page covers every change until now; a full one only up to its last change, so
  // its token is dated by that change: a deletion it still has to report may be that old.
  const coveredUntil = page.more ? Math.min(now, Math.floor(page.throughSeq / 1000)) : now;
  let text = `${envelopeEnd(organizationId, count, next)},"nextSince":"${encodeSince(signer, page.throughSeq, coveredUntil, walkVersion, page.more ? seenAfter : page.throughSeq)}"`;
  if (includeDeleted) {
    const deleted = page.deleted.map(
      (tombstone) => `{"_id":"${tombstone.id}","deletedAt":"${isoTime(tombstone.deletedAt)}"}`,
    );
    text += `,"deleted":[${deleted.join(',')}]`;
  }
  body.add(`${text}}`);
  return body.finish();
}

/** Each item as JSON text, as the key sees it: the fast path when the key has no view. */
function itemWriter(
  fields: ItemField[] | undefined,
  view: KeyViewOfItems | null,
): (item: Item) => string {
  if (view === null) return (item) => itemJson(item, fields);
  const shown = view.fields(fields);
  return (item) => itemJson(view.item(item), shown);
}

function retentionText(ms: number): string {
  const days = ms / 86_400_000;
  if (Number.isInteger(days)) return `${days} day${days === 1 ? '' : 's'}`;
  const hours = ms / 3_600_000;
  if (Number.isInteger(hours)) return `${hours} hour${hours === 1 ? '' : 's'}`;
  return `${Math.round(ms / 60_000)} minutes`;
}
