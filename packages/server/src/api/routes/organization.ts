import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Organization } from '../../store/types.js';
import type { AccessPolicy } from '../auth.js';
import { routeQuery } from '../query-validator.js';
import { errorResponses, KEY_ERRORS, SECURITY } from '../schemas.js';
import { serializeOrganization } from '../serialize.js';

const access: AccessPolicy = { keyed: true, organizationOverride: true, chargesQuota: true };
const organizationQuery = routeQuery({ optional: ['organizationId'] });

/** The organization's 200 body (by reference to the shared Organization schema). */
export const OrganizationBody = Type.Object({ data: Type.Ref('Organization') });

/** The organization's body, shared by the route and the MCP tool get_organization. */
export function organizationBody(organization: Organization) {
  return { data: serializeOrganization(organization) };
}

export default function organizationRoute(app: FastifyInstance) {
  app.get(
    '/api/v1/organization',
    {
      config: { access },
      validatorCompiler: organizationQuery.validatorCompiler,
      schema: {
        summary: 'The key’s organization',
        description:
          'The organization the key belongs to: id, name, slug, enabled features and creation time. Needs a key, no permission.',
        tags: ['Organization'],
        security: SECURITY,
        querystring: organizationQuery.schema,
        response: {
          200: OrganizationBody,
          ...errorResponses([...KEY_ERRORS, 'ORGANIZATION_NOT_FOUND']),
        },
      },
    },
    async (request) => {
      if (!request.organization) throw new Error('authorize did not run');
      return organizationBody(request.organization);
    },
  );
}
