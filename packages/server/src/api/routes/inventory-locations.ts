import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Services } from '../../context.js';
import type { AccessPolicy } from '../auth.js';
import { type ParsedQuery, routeQuery } from '../query-validator.js';
import { sendJson } from '../respond.js';
import { errorResponses, KEY_ERRORS, NOT_MODIFIED, SECURITY } from '../schemas.js';

/** The same keys, permission and feature as the item endpoints (issue 31). */
const access: AccessPolicy = {
  keyed: true,
  organizationOverride: true,
  feature: 'inventory',
  permission: 'inventory:view',
  chargesQuota: true,
};

const locationsQuery = routeQuery({ optional: ['organizationId'] });

/** The answer's body: the route sends it, the MCP tool list_locations returns it. */
export const LocationsBody = Type.Object({
  data: Type.Array(Type.Ref('Location')),
  organizationId: Type.String(),
  count: Type.Integer({ description: 'Number of locations in `data`.' }),
});

/** The organization's locations as the API answers them, ordered by code. */
export async function locationsBody(services: Services, organizationId: string) {
  const locations = await services.store.listLocations(organizationId);
  const data = locations.map((location) => ({
    _id: location.id,
    code: location.code,
    name: location.name,
  }));
  return { data, organizationId, count: data.length };
}

export default function inventoryLocationsRoute(app: FastifyInstance, services: Services) {
  app.get<{ Querystring: ParsedQuery<typeof locationsQuery> }>(
    '/api/v1/inventory/locations',
    {
      config: { access },
      validatorCompiler: locationsQuery.validatorCompiler,
      schema: {
        summary: 'List locations',
        description:
          'The locations of the key’s organization, ordered by code: the codes items’ `stock` entries and the `location` filter name. Carries a strong `ETag` (`If-None-Match` answers 304). Needs `inventory:view` and the `inventory` feature.',
        tags: ['Inventory'],
        security: SECURITY,
        querystring: locationsQuery.schema,
        response: {
          200: LocationsBody,
          ...NOT_MODIFIED,
          ...errorResponses([
            ...KEY_ERRORS,
            'ORGANIZATION_NOT_FOUND',
            'FEATURE_DISABLED',
            'INSUFFICIENT_PERMISSIONS',
          ]),
        },
      },
    },
    async (request, reply) => {
      const organization = request.organization;
      if (!organization) throw new Error('authorize did not run');
      const body = await locationsBody(services, organization.id);
      return sendJson(request, reply, Buffer.from(JSON.stringify(body)));
    },
  );
}
