import { ApiPromise } from '../api-promise.js';
import type { Transport } from '../transport.js';
import type { LocationList, OrganizationParams, RequestOptions } from '../types.js';

export class LocationsResource {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /**
   * The organization's locations, ordered by code: the codes items' `stock` entries and the
   * `location` filter of `inventory.list()` name.
   */
  list(params: OrganizationParams = {}, options?: RequestOptions): ApiPromise<LocationList> {
    return new ApiPromise(
      this.#transport.send<LocationList>(
        {
          path: '/api/v1/inventory/locations',
          query: { organizationId: params.organizationId },
        },
        options,
      ),
    );
  }
}
