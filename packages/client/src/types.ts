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
export type HealthReport = Schemas['HealthResponse'];
export type KeyVerification = Schemas['VerifyResponse'];
export type ApiKeyInfo = KeyVerification['key'];

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

/** One page of `inventory.list`: the server's envelope with items narrowed by `fields`. */
export type ItemPage<T> = Omit<ItemsEnvelope, 'data'> & { data: T[] };

export interface ListItemsParams<F extends Fields = Fields> {
  /** Page size, 1–1000 (the server serves larger values as 1000). Default 100. */
  limit?: number;
  /** Case-insensitive substring match on name, description, sku and barcode. */
  search?: string;
  status?: ItemStatus;
  /** Return only these fields of each item (at least one); the result type narrows to match. */
  fields?: F & NonEmptyFields<F>;
  /** `nextCursor` of the previous page. Send the same `search` and `status` with it. */
  cursor?: string;
  /** Legacy override; by default the key's organization is used. */
  organizationId?: string;
}

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
