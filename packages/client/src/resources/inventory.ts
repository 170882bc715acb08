import { ApiPromise, type WithResponse } from '../api-promise.js';
import { StockroomError } from '../errors.js';
import { NOT_MODIFIED, type NotModified } from '../response.js';
import type { Transport } from '../transport.js';
import type {
  ConditionalRequestOptions,
  Fields,
  GetItemParams,
  ItemPage,
  ListItemsParams,
  RequestOptions,
  SelectedItem,
  SyncPage,
  SyncParams,
} from '../types.js';

/** The most `_id`s one `ids` filter may name (the server answers more with 400). */
const MAX_IDS = 100;

/**
 * The types reject `fields: []`, but a list built at run time can still be empty, and the API
 * would answer 400 with a message about the query string: say what to do instead.
 */
function emptyFields(fields: unknown): TypeError | null {
  return Array.isArray(fields) && fields.length === 0
    ? new TypeError(
        'Stockroom: fields must name at least one field. Leave fields out to get whole items.',
      )
    : null;
}

/** A list of ids the API would refuse, told in the terms of the call rather than of its URL. */
function invalidIds(ids: unknown): TypeError | null {
  if (ids === undefined) return null;
  if (!Array.isArray(ids)) {
    return new TypeError('Stockroom: ids must be an array of item _ids.');
  }
  if (ids.length === 0 || ids.length > MAX_IDS) {
    return new TypeError(
      `Stockroom: ids must name 1 to ${MAX_IDS} item _ids, got ${ids.length}. ${
        ids.length === 0
          ? 'Leave ids out to list every item.'
          : `Split the list into calls of at most ${MAX_IDS} ids.`
      }`,
    );
  }
  return null;
}

/** A `Date` becomes its ISO 8601 instant (UTC, with a zone, as the API requires). */
function instant(name: string, value: string | Date | undefined): string | undefined | TypeError {
  if (!(value instanceof Date)) return value;
  if (Number.isNaN(value.getTime())) return new TypeError(`Stockroom: ${name} is an invalid Date.`);
  return value.toISOString();
}

/** An `ifNoneMatch` that could not be sent as a header would fail as a (retried) network error. */
function invalidTag(tag: unknown): TypeError | null {
  if (tag === undefined) return null;
  return typeof tag === 'string' && /^[\x20-\x7e\t]*[\x21-\x7e][\x20-\x7e\t]*$/.test(tag)
    ? null
    : new TypeError(
        'Stockroom: ifNoneMatch must be an etag from an earlier response (response.etag), such as "\\"5d8c72a5\\"".',
      );
}

export class InventoryResource {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /** One page, with only the parameters the API knows: a stray property would be a 400. */
  #page<F extends Fields>(
    params: ListItemsParams<F>,
    options: RequestOptions | undefined,
    ifNoneMatch?: string,
    sinceName = 'updatedSince',
  ): Promise<WithResponse<ItemPage<SelectedItem<F>>>> {
    const { limit, search, status, fields, cursor, organizationId } = params;
    const { sku, barcode, ids, includeDeleted, location } = params;
    const updatedSince = instant(sinceName, params.updatedSince);
    const invalid =
      emptyFields(fields) ??
      invalidIds(ids) ??
      invalidTag(ifNoneMatch) ??
      (updatedSince instanceof TypeError ? updatedSince : null);
    if (invalid) return Promise.reject(invalid);
    return this.#transport.send<ItemPage<SelectedItem<F>>>(
      {
        path: '/api/v1/inventory/items',
        query: {
          organizationId,
          limit,
          search,
          status,
          fields,
          cursor,
          sku,
          barcode,
          ids,
          location,
          updatedSince: updatedSince as string | undefined,
          includeDeleted,
        },
        ...(ifNoneMatch === undefined ? {} : { ifNoneMatch }),
      },
      options,
    );
  }

  /**
   * One page of items in creation order (in change order with `updatedSince`). Pass
   * `nextCursor` back as `cursor` for the next one, or let `all()` do it.
   *
   * With `ifNoneMatch` (an earlier `response.etag`), it resolves to `NOT_MODIFIED` when the page
   * is unchanged (a 304).
   */
  list<const F extends Fields = undefined>(
    params?: ListItemsParams<F>,
    options?: RequestOptions & { ifNoneMatch?: undefined },
  ): ApiPromise<ItemPage<SelectedItem<F>>>;
  list<const F extends Fields = undefined>(
    params: ListItemsParams<F>,
    options: ConditionalRequestOptions,
  ): ApiPromise<ItemPage<SelectedItem<F>> | NotModified>;
  list<const F extends Fields = undefined>(
    params: ListItemsParams<F> = {},
    options?: ConditionalRequestOptions,
  ): ApiPromise<ItemPage<SelectedItem<F>> | NotModified> {
    return new ApiPromise(this.#page(params, options, options?.ifNoneMatch));
  }

  /**
   * One item by `_id`; `NotFoundError` when it does not exist or belongs to another organization.
   *
   * With `ifNoneMatch` (an earlier `response.etag`), it resolves to `NOT_MODIFIED` when the item
   * is unchanged (a 304).
   */
  get<const F extends Fields = undefined>(
    itemId: string,
    params?: GetItemParams<F>,
    options?: RequestOptions & { ifNoneMatch?: undefined },
  ): ApiPromise<SelectedItem<F>>;
  get<const F extends Fields = undefined>(
    itemId: string,
    params: GetItemParams<F>,
    options: ConditionalRequestOptions,
  ): ApiPromise<SelectedItem<F> | NotModified>;
  get<const F extends Fields = undefined>(
    itemId: string,
    params: GetItemParams<F> = {},
    options?: ConditionalRequestOptions,
  ): ApiPromise<SelectedItem<F> | NotModified> {
    const ifNoneMatch = options?.ifNoneMatch;
    const invalid = emptyFields(params.fields) ?? invalidTag(ifNoneMatch);
    if (invalid) return new ApiPromise(Promise.reject(invalid));
    const sent = this.#transport.send<{ data: SelectedItem<F> } | NotModified>(
      {
        path: '/api/v1/inventory/item',
        query: { itemId, organizationId: params.organizationId, fields: params.fields },
        ...(ifNoneMatch === undefined ? {} : { ifNoneMatch }),
      },
      options,
    );
    return new ApiPromise(
      sent.then(({ data, response }) => ({
        data: data === NOT_MODIFIED ? data : data.data,
        response,
      })),
    );
  }

  /**
   * Every item matching the filters, fetched page by page (`limit` is the page size) as the loop
   * asks for them. Breaking out of the loop stops fetching; aborting `options.signal` makes the
   * next step throw the signal's reason, even within a page already fetched. It follows
   * `nextCursor` to the end rather than stopping at a short page: a search page may hold fewer
   * than `limit` items, even none, and still have a next one.
   *
   * With `updatedSince` it yields the changed items only: `sync()` also gives the deletions and
   * the `nextSince` to continue from.
   */
  async *all<const F extends Fields = undefined>(
    params: ListItemsParams<F> = {},
    options?: RequestOptions,
  ): AsyncGenerator<SelectedItem<F>, void, undefined> {
    let cursor = params.cursor;
    do {
      const { data: page } = await this.#page({ ...params, cursor }, options);
      for (const item of page.data) {
        // A page arrives whole: an abort while the loop works through it must still stop the
        // walk at once, not after the items already fetched.
        options?.signal?.throwIfAborted();
        yield item;
      }
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
  }

  /**
   * An incremental sync: the pages of what changed after `since`, in change order, following
   * `nextCursor` to the end. Each page holds the changed items (`data`), the deleted ones
   * (`deleted`, with `includeDeleted: true`; otherwise empty) and `nextSince`. Keep the
   * `nextSince` of the last page (or of each page once applied: it continues right after that
   * page) and pass it as `since` next time.
   *
   * ```ts
   * for await (const page of stockroom.inventory.sync({ since, includeDeleted: true })) {
   *   for (const item of page.data) mirror.set(item._id, item);
   *   for (const { _id } of page.deleted) mirror.delete(_id);
   *   since = page.nextSince;
   * }
   * ```
   *
   * With `includeDeleted`, a `since` older than the server keeps deletions for (30 days by
   * default) throws `SyncExpiredError`: start over from `new Date(0)` without `includeDeleted`.
   */
  async *sync<const F extends Fields = undefined>(
    params: SyncParams<F>,
    options?: RequestOptions,
  ): AsyncGenerator<SyncPage<SelectedItem<F>>, void, undefined> {
    // A JavaScript caller may pass nothing: say what is missing rather than fail to destructure.
    const { since, includeDeleted, status, fields, limit, organizationId, location } =
      params ?? ({} as Partial<SyncParams<F>>);
    if (since === undefined || since === null || since === '') {
      throw new TypeError(
        'Stockroom: sync needs `since`: the nextSince of the previous sync, or new Date(0) to read every item.',
      );
    }
    const filters: ListItemsParams<F> = {
      updatedSince: since,
      // Sent only when asked for: `false` is the server's default.
      ...(includeDeleted === true ? { includeDeleted } : {}),
      status,
      fields,
      limit,
      organizationId,
      location,
    };
    let cursor: string | undefined;
    do {
      const { data: page, response } = await this.#page(
        { ...filters, cursor },
        options,
        undefined,
        'since',
      );
      const { nextSince } = page;
      if (typeof nextSince !== 'string') {
        throw new StockroomError({
          code: 'INVALID_RESPONSE',
          status: response.status,
          headers: response.headers,
          requestId: response.requestId,
          message:
            'The API answered a sync without nextSince: this Stockroom server does not support incremental sync (updatedSince).',
        });
      }
      options?.signal?.throwIfAborted();
      yield { ...page, nextSince, deleted: page.deleted ?? [] };
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
  }
}
