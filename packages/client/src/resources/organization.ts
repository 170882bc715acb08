import { ApiPromise } from '../api-promise.js';
import type { Transport } from '../transport.js';
import type { Organization, OrganizationParams, RequestOptions } from '../types.js';

export class OrganizationResource {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /** The organization the key belongs to. */
  get(params: OrganizationParams = {}, options?: RequestOptions): ApiPromise<Organization> {
    const sent = this.#transport.send<{ data: Organization }>(
      { path: '/api/v1/organization', query: { organizationId: params.organizationId } },
      options,
    );
    return new ApiPromise(sent.then(({ data, response }) => ({ data: data.data, response })));
  }
}
