import { ApiPromise } from '../api-promise.js';
import type { Transport } from '../transport.js';
import type {
  Fields,
  GetItemParams,
  ItemPage,
  ListItemsParams,
  RequestOptions,
  SelectedItem,
} from '../types.js';

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

export class InventoryResource {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /**
   * One page of items in creation order. Pass `nextCursor` back as `cursor` for the next one,
   * or let `all()` do it.
   */
  list<const F extends Fields = undefined>(
    params: ListItemsParams<F> = {},
    options?: RequestOptions,
  ): ApiPromise<ItemPage<SelectedItem<F>>> {
    // Only the parameters the API knows are sent: a stray property would be a 400.
    const { limit, search, status, fields, cursor, organizationId } = params;
    const invalid = emptyFields(fields);
    if (invalid) return new ApiPromise(Promise.reject(invalid));
    return new ApiPromise(
      this.#transport.send<ItemPage<SelectedItem<F>>>(
        {
          path: '/api/v1/inventory/items',
          query: { organizationId, limit, search, status, fields, cursor },
        },
        options,
      ),
    );
  }

  /** One item by `_id`; `NotFoundError` when it does not exist or belongs to another organization. */
  get<const F extends Fields = undefined>(
    itemId: string,
    params: GetItemParams<F> = {},
    options?: RequestOptions,
  ): ApiPromise<SelectedItem<F>> {
    const invalid = emptyFields(params.fields);
    if (invalid) return new ApiPromise(Promise.reject(invalid));
    const sent = this.#transport.send<{ data: SelectedItem<F> }>(
      {
        path: '/api/v1/inventory/item',
        query: { itemId, organizationId: params.organizationId, fields: params.fields },
      },
      options,
    );
    return new ApiPromise(sent.then(({ data, response }) => ({ data: data.data, response })));
  }

  /**
   * Every item matching the filters, fetched page by page (`limit` is the page size) as the loop
   * asks for them. Breaking out of the loop stops fetching; aborting `options.signal` makes the
   * next step throw the signal's reason, even within a page already fetched. It follows
   * `nextCursor` to the end rather than stopping at a short page: a search page may hold fewer
   * than `limit` items, even none, and still have a next one.
   */
  async *all<const F extends Fields = undefined>(
    params: ListItemsParams<F> = {},
    options?: RequestOptions,
  ): AsyncGenerator<SelectedItem<F>, void, undefined> {
    let cursor = params.cursor;
    do {
      const page: ItemPage<SelectedItem<F>> = await this.list({ ...params, cursor }, options);
      for (const item of page.data) {
        // A page arrives whole: an abort while the loop works through it must still stop the
        // walk at once, not after the items already fetched.
        options?.signal?.throwIfAborted();
        yield item;
      }
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
  }
}
