import type { FastifyInstance } from 'fastify';
import { type Static, Type } from 'typebox';
import type { Services } from '../../context.js';
import { parseLocationCode, parseLocationName } from '../../domain/location.js';
import { createLocation, removeLocation } from '../../operations/locations.js';
import type { Location } from '../../store/types.js';
import { isoTime } from '../../time.js';
import { actorOf, findOrganization } from '../context.js';
import { adminErrors, OrgParam } from '../schemas.js';
import { field } from '../validation.js';

const TAGS = ['Locations'];

export const LocationView = Type.Object(
  {
    id: Type.String(),
    organizationId: Type.String(),
    code: Type.String(),
    name: Type.String(),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'AdminLocation', title: 'AdminLocation' },
);

const CreateLocationBody = Type.Object(
  {
    code: Type.String({
      description:
        'Unique in the organization, case-sensitive: 1–32 characters of A-Z, a-z, 0-9, ".", "_", "-".',
      examples: ['WH-1'],
    }),
    name: Type.String({ description: 'What people call the place (1–200 characters).' }),
  },
  { additionalProperties: false },
);

const LocationParams = Type.Object({
  org: Type.String({ description: 'Organization id or slug.', examples: ['acme'] }),
  code: Type.String({ description: 'The location’s code.', examples: ['WH-1'] }),
});

function locationView(location: Location): Static<typeof LocationView> {
  return {
    id: location.id,
    organizationId: location.organizationId,
    code: location.code,
    name: location.name,
    createdAt: isoTime(location.createdAt),
  };
}

/** An organization's locations (issue 31), as `stockroom location …`. */
export default function locationRoutes(app: FastifyInstance, services: Services) {
  const store = services.store;

  app.get<{ Params: Static<typeof OrgParam> }>(
    '/admin/v1/organizations/:org/locations',
    {
      schema: {
        summary: 'List locations',
        description: 'As `stockroom location list`: the organization’s locations, by code.',
        tags: TAGS,
        params: OrgParam,
        response: {
          200: Type.Object({ data: Type.Array(LocationView) }),
          ...adminErrors(['ORGANIZATION_NOT_FOUND']),
        },
      },
    },
    async (request) => {
      const organization = await findOrganization(store, request.params.org);
      return { data: (await store.listLocations(organization.id)).map(locationView) };
    },
  );

  app.post<{ Params: Static<typeof OrgParam>; Body: Static<typeof CreateLocationBody> }>(
    '/admin/v1/organizations/:org/locations',
    {
      schema: {
        summary: 'Create a location',
        description:
          'As `stockroom location create`: items then take stock there through imports and bulk upserts (`stock`).',
        tags: TAGS,
        params: OrgParam,
        body: CreateLocationBody,
        response: {
          201: Type.Object({ data: LocationView }),
          ...adminErrors([
            'INVALID_REQUEST',
            'ORGANIZATION_NOT_FOUND',
            'CONFLICT',
            'UNSUPPORTED_MEDIA_TYPE',
          ]),
        },
      },
    },
    async (request, reply) => {
      const code = field('code', parseLocationCode, request.body.code);
      const name = field('name', parseLocationName, request.body.name);
      const organization = await findOrganization(store, request.params.org);
      const created = await createLocation(store, actorOf(request), organization, { code, name });
      reply.code(201);
      return { data: locationView(created) };
    },
  );

  app.delete<{ Params: Static<typeof LocationParams> }>(
    '/admin/v1/organizations/:org/locations/:code',
    {
      schema: {
        summary: 'Remove a location',
        description:
          'As `stockroom location remove`: its stock rows go with it, and each item that had one changes (its quantity becomes the sum of the rows left, or 0), in the change feed and webhooks.',
        tags: TAGS,
        params: LocationParams,
        response: {
          200: Type.Object({ data: LocationView, itemsChanged: Type.Integer() }),
          ...adminErrors(['INVALID_REQUEST', 'ORGANIZATION_NOT_FOUND', 'LOCATION_NOT_FOUND']),
        },
      },
    },
    async (request) => {
      const code = field('code', parseLocationCode, request.params.code);
      const organization = await findOrganization(store, request.params.org);
      const removed = await removeLocation(store, actorOf(request), organization, code);
      return { data: locationView(removed.location), itemsChanged: removed.items };
    },
  );
}
