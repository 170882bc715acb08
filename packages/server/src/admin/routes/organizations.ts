import type { FastifyInstance } from 'fastify';
import { type Static, Type } from 'typebox';
import type { Services } from '../../context.js';
import { byCreation } from '../../domain/creation-order.js';
import { memberView, organizationView } from '../../domain/organization-view.js';
import { parseSlug } from '../../domain/slug.js';
import { textParser } from '../../domain/text.js';
import { FEATURES } from '../../keys/permissions.js';
import {
  checkOrganizationUpdate,
  createOrganization,
  deleteOrganization,
  organizationDetail,
  previewOrganizationDeletion,
  updateOrganization,
} from '../../operations/organizations.js';
import { StoreConflictError } from '../../store/types.js';
import { actorOf, findOrganization } from '../context.js';
import { AdminError, invalid } from '../errors.js';
import {
  adminErrors,
  CreateOrganizationBody,
  OrganizationDeletion,
  OrganizationDetail,
  OrganizationView,
  OrgParam,
  UpdateOrganizationBody,
} from '../schemas.js';
import { field } from '../validation.js';

const TAGS = ['Organizations'];
const DryRunQuery = Type.Object({
  dryRun: Type.Optional(
    Type.Union([Type.Literal('true'), Type.Literal('false')], {
      description: 'true: say what would be deleted, delete nothing.',
    }),
  ),
});

/** Known features, each once, in the order given; an unknown one names itself and the list. */
export function featureNames(name: string, values: string[]): string[] {
  values.forEach((value, i) => {
    if (!(FEATURES as readonly string[]).includes(value)) {
      throw invalid(
        `${name}[${i}]`,
        `Unknown feature ${JSON.stringify(value.slice(0, 40))} in ${name}; known features: ${FEATURES.join(', ')}.`,
      );
    }
  });
  return [...new Set(values)];
}

export default function organizationRoutes(app: FastifyInstance, services: Services) {
  const store = services.store;

  app.get(
    '/admin/v1/organizations',
    {
      schema: {
        summary: 'List organizations',
        description: 'Every organization, oldest first.',
        tags: TAGS,
        response: {
          200: Type.Object({ data: Type.Array(OrganizationView) }),
          ...adminErrors([]),
        },
      },
    },
    async () => ({ data: byCreation(await store.listOrganizations()).map(organizationView) }),
  );

  app.post<{ Body: Static<typeof CreateOrganizationBody> }>(
    '/admin/v1/organizations',
    {
      schema: {
        summary: 'Create an organization',
        description:
          'As `stockroom org create`: the slug is derived from the name unless given; features default to inventory.',
        tags: TAGS,
        body: CreateOrganizationBody,
        response: {
          201: Type.Object({ data: OrganizationView }),
          ...adminErrors(['INVALID_REQUEST', 'SLUG_TAKEN', 'UNSUPPORTED_MEDIA_TYPE']),
        },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const name = field('name', textParser(200), body.name);
      const slug = body.slug === undefined ? undefined : field('slug', parseSlug, body.slug);
      const features =
        body.features === undefined ? undefined : featureNames('features', body.features);
      let created: Awaited<ReturnType<typeof createOrganization>>;
      try {
        created = await createOrganization(store, actorOf(request), {
          name,
          ...(slug !== undefined && { slug }),
          ...(features !== undefined && { features }),
        });
      } catch (error) {
        if (error instanceof StoreConflictError) {
          throw new AdminError(
            'SLUG_TAKEN',
            `${error.message}; choose another slug${slug === undefined ? ' (send one: this one was derived from the name)' : ''}.`,
            { param: 'slug' },
          );
        }
        throw error;
      }
      reply.code(201).header('location', `/admin/v1/organizations/${created.id}`);
      return { data: organizationView(created) };
    },
  );

  app.get<{ Params: Static<typeof OrgParam> }>(
    '/admin/v1/organizations/:org',
    {
      schema: {
        summary: 'Show an organization',
        description:
          'As `stockroom org show`: the organization with its item count, the count of keys not revoked, and its members.',
        tags: TAGS,
        params: OrgParam,
        response: {
          200: Type.Object({ data: OrganizationDetail }),
          ...adminErrors(['ORGANIZATION_NOT_FOUND']),
        },
      },
    },
    async (request) => {
      const { org } = request.params;
      const organization = await findOrganization(store, org);
      const { members, itemCount, keyCount } = await organizationDetail(store, organization);
      return {
        data: {
          ...organizationView(organization),
          itemCount,
          keyCount,
          members: members.map(memberView),
        },
      };
    },
  );

  app.patch<{ Params: Static<typeof OrgParam>; Body: Static<typeof UpdateOrganizationBody> }>(
    '/admin/v1/organizations/:org',
    {
      schema: {
        summary: 'Update an organization',
        description:
          'As `stockroom org update`: rename it, turn features on and off. Each real change is an audit event; a key of an organization whose feature is turned off stops reaching it within a second.',
        tags: TAGS,
        params: OrgParam,
        body: UpdateOrganizationBody,
        response: {
          200: Type.Object({ data: OrganizationView }),
          ...adminErrors(['INVALID_REQUEST', 'ORGANIZATION_NOT_FOUND', 'UNSUPPORTED_MEDIA_TYPE']),
        },
      },
    },
    async (request) => {
      const { org } = request.params;
      const body = request.body;
      const update = {
        ...(body.name !== undefined && { name: field('name', textParser(200), body.name) }),
        enable: featureNames('enableFeatures', body.enableFeatures ?? []),
        disable: featureNames('disableFeatures', body.disableFeatures ?? []),
      };
      checkOrganizationUpdate(update);
      const current = await findOrganization(store, org);
      try {
        return {
          data: organizationView(
            await updateOrganization(store, actorOf(request), current, update),
          ),
        };
      } catch (error) {
        // The store's answer when the organization was deleted since the lookup.
        if (error instanceof StoreConflictError) {
          throw new AdminError(
            'ORGANIZATION_NOT_FOUND',
            `The organization ${current.id} was deleted while this request ran.`,
            { param: 'org' },
          );
        }
        throw error;
      }
    },
  );

  app.delete<{ Params: Static<typeof OrgParam>; Querystring: Static<typeof DryRunQuery> }>(
    '/admin/v1/organizations/:org',
    {
      schema: {
        summary: 'Delete an organization',
        description:
          'As `stockroom org delete ORG --confirm`: deletes the organization with its items, API keys and memberships in one transaction; its users and its audit log stay. Its keys stop working on every process within a second. With `dryRun=true`, says what would be deleted and deletes nothing.',
        tags: TAGS,
        params: OrgParam,
        querystring: DryRunQuery,
        response: {
          200: Type.Object({ data: OrganizationDeletion }),
          ...adminErrors(['INVALID_REQUEST', 'ORGANIZATION_NOT_FOUND']),
        },
      },
    },
    async (request) => {
      const { org } = request.params;
      const dryRun = request.query.dryRun === 'true';
      const organization = await findOrganization(store, org);
      const deleted = dryRun
        ? await previewOrganizationDeletion(store, organization)
        : await deleteOrganization(store, actorOf(request), organization);
      return {
        data: {
          id: organization.id,
          slug: organization.slug,
          name: organization.name,
          dryRun,
          deleted,
        },
      };
    },
  );
}
