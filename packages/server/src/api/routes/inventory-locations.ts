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
          200: Type.Object({
            data: Type.Array(Type.Ref('Location')),
            organizationId: Type.String(),
            count: Type.Integer({ description: 'Number of locations in `data`.' }),
          }),
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
      const locations = await services.store.listLocations(organization.id);
      const data = locations.map((location) => ({
        _id: location.id,
        code: location.code,
        name: location.name,
      }));
      const body = Buffer.from(
        JSON.stringify({ data, organizationId: organization.id, count: data.length }),
      );
      return sendJson(request, reply, body);
    },
  );
}
