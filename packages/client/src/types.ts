import type { components, paths } from './generated/openapi.js';

/**
 * Public types. They are derived from the generated OpenAPI declarations, so a change in the
 * server's schemas reaches the client's types through `npm run generate` alone.
 */

type Schemas = components['schemas'];
type JsonBody<R> = R extends { content: { 'application/json': infer B } } ? B : never;

/**
 * A full inventory item. The OpenAPI schema marks every field optional because `fields` may
 * select a subset; without `fields` the server sends them all, hence `Required`.
 */
export type InventoryItem = Required<Schemas['InventoryItem']>;
export type ItemField = keyof InventoryItem;
export type ItemStatus = InventoryItem['status'];
export type Organization = Schemas['Organization'];
/** A place where the organization keeps stock; `code` is what `stock` and `location` name. */
export type Location = Schemas['Location'];
/** One entry of an item's `stock`: its quantity at one location. */
export type StockEntry = InventoryItem['stock'][number];
export type HealthReport = Schemas['HealthResponse'];
export type KeyVerification = Schemas['VerifyResponse'];
/** The key `verifyKey()` describes. */
export type ApiKeyInfo = KeyVerification['key'];
/**
 * What a key may see (docs: "Key views"), as `verifyKey()` reports it in `key.view` (null for a
 * key that sees every item whole): items for which every `where` filter holds
 * (`status=A[,B…]`, `location=CODE`, `customFields.NAME=VALUE`), without the `hideFields` (item
 * fields, or `customFields.NAME`), every quantity served as at most `quantityCap`.
 */
export type KeyView = NonNullable<ApiKeyInfo['view']>;

/** Every code the server documents today; newer servers may send others. */
export type ErrorCode = Schemas['ErrorResponse']['error']['code'];

type ItemsOperation = paths['/api/v1/inventory/items']['get'];
type ItemOperation = paths['/api/v1/inventory/item']['get'];
/** The query parameters the server accepts, as the OpenAPI document names them. */
export type ItemsQuery = NonNullable<ItemsOperation['parameters']['query']>;
export type ItemQuery = ItemOperation['parameters']['query'];
type ItemsEnvelope = JsonBody<ItemsOperation['responses'][200]>;

/** What `fields` accepts: item field names, or nothing for whole items. */
export type Fields = readonly ItemField[] | undefined;

/**
 * The item type a `fields` selection yields:
 * - no `fields`: the full item;
 * - a literal list (`['name', 'sku']`, or a variable declared `as const`): exactly those
 *   properties, all present;
 * - a list only known at run time (`ItemField[]`): any subset of its fields, each optional;
 * - a list that may be absent (`ItemField[] | undefined`, as in a `ListItemsParams` variable):
 *   any subset of the item, each field optional.
 */
export type SelectedItem<F extends Fields> = [F] extends [readonly ItemField[]]
  ? number extends F['length']
    ? { [K in F[number]]?: InventoryItem[K] }
    : { [K in F[number]]: InventoryItem[K] }
  : [F] extends [undefined]
    ? InventoryItem
    : Partial<InventoryItem>;

/**
 * Makes `fields: []` a type error: the API answers an empty selection with 400. The property
 * name is the message the compiler shows. Lists of run-time length are checked when called.
 */
export type NonEmptyFields<F> = F extends readonly []
  ? { 'fields must name at least one field': never }
  : unknown;

/**
 * One page of `inventory.list`: the server's envelope with items narrowed by `fields`.
 * `nextSince` is there only with `updatedSince`, and `deleted` only with `includeDeleted: true`.
 */
export type ItemPage<T> = Omit<ItemsEnvelope, 'data'> & { data: T[] };

/** A deleted item, as an incremental sync with `includeDeleted` lists it. */
export type DeletedItem = NonNullable<ItemsEnvelope['deleted']>[number];

export interface ListItemsParams<F extends Fields = Fields> {
  /** Page size, 1–1000 (the server serves larger values as 1000). Default 100. */
  limit?: number;
  /**
   * Case-insensitive substring match on name, description, sku and barcode. Cannot be combined
   * with `sku`, `barcode`, `ids` or `updatedSince`.
   */
  search?: string;
  status?: ItemStatus;
  /** Return only these fields of each item (at least one); the result type narrows to match. */
  fields?: F & NonEmptyFields<F>;
  /** `nextCursor` of the previous page. Send the same filters with it. */
  cursor?: string;
  /** Legacy override; by default the key's organization is used. */
  organizationId?: string;
  /** Only the item with exactly this SKU (case-sensitive, as stored). */
  sku?: string;
  /** Only the items with exactly this barcode (case-sensitive, as stored). */
  barcode?: string;
  /**
   * Only the items with these `_id`s (1 to 100; sent comma-separated), in `_id` order. Unknown
   * ids, and other organizations' items, are simply absent.
   */
  ids?: readonly string[];
  /**
   * Incremental sync: only items changed after this point, in change order, and the page
   * carries `nextSince`. A `Date` (sent as its ISO 8601 instant), an ISO 8601 string with a time
   * zone or a date (`2026-11-24`), or the `nextSince` of an earlier page. `inventory.sync()`
   * walks such a sync for you.
   */
  updatedSince?: string | Date;
  /** With `updatedSince`: also list the items deleted since then, in `deleted`. */
  includeDeleted?: boolean;
  /**
   * Only items with more than 0 at the location of this code (case-sensitive; see
   * `locations.list()`). Combines with every other parameter; an unknown code is a 400.
   */
  location?: string;
}

/** What `inventory.sync()` takes: the parameters of an incremental sync. */
export interface SyncParams<F extends Fields = Fields> {
  /**
   * Where the sync starts: the `nextSince` kept from the previous sync, or a `Date` (or ISO 8601
   * string). `new Date(0)` reads every item.
   */
  since: string | Date;
  /**
   * Also list the items deleted since `since`, in each page's `deleted`. Deletions are
   * remembered for a limited time (30 days by default): from an older point the sync throws
   * `SyncExpiredError`.
   */
  includeDeleted?: boolean;
  /** Only items whose current status is this one. A mirror should sync without it. */
  status?: ItemStatus;
  /** Only items with more than 0 now at the location of this code. */
  location?: string;
  /** Return only these fields of each item (at least one); the result type narrows to match. */
  fields?: F & NonEmptyFields<F>;
  /** Page size, 1–1000 (items and deletions together). Default 100. */
  limit?: number;
  /** Legacy override; by default the key's organization is used. */
  organizationId?: string;
}

/**
 * One page of `inventory.sync()`: changed items in change order, the deletions (an empty list
 * without `includeDeleted`) and `nextSince`, where this page ends: pass it as `since` next time.
 */
export type SyncPage<T> = Omit<ItemsEnvelope, 'data' | 'nextSince' | 'deleted'> & {
  data: T[];
  nextSince: string;
  deleted: DeletedItem[];
};

export interface GetItemParams<F extends Fields = Fields> {
  /** Return only these fields of the item (at least one); the result type narrows to match. */
  fields?: F & NonEmptyFields<F>;
  /** Legacy override; by default the key's organization is used. */
  organizationId?: string;
}

export interface OrganizationParams {
  /** Legacy override; by default the key's organization is used. */
  organizationId?: string;
}

/** Per-call options, accepted as the last argument of every method. */
export interface RequestOptions {
  /** Cancels the call, including any wait between retries; it rejects with `signal.reason`. */
  signal?: AbortSignal;
  /** Overrides the client's `timeoutMs` for this call (each attempt). */
  timeoutMs?: number;
  /** Overrides the client's `maxRetries` for this call. */
  maxRetries?: number;
}

/**
 * Per-call options of `inventory.list` and `inventory.get`, which also answer conditional
 * requests.
 */
export interface ConditionalRequestOptions extends RequestOptions {
  /**
   * An `etag` from an earlier response (`withResponse()`'s `response.etag`). When the result is
   * still the same, the server answers 304 Not Modified and the call resolves to `NOT_MODIFIED`
   * instead of the result. `undefined` sends an ordinary request.
   */
  ifNoneMatch?: string | undefined;
}

/** What `locations.list()` resolves to: the organization's locations, ordered by code. */
export interface LocationList {
  data: Location[];
  organizationId: string;
  count: number;
}
