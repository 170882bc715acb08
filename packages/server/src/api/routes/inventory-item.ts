import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Services } from '../../context.js';
import type { AccessPolicy } from '../auth.js';
import { ApiError } from '../errors.js';
import { parseFields } from '../item-fields.js';
import { KeyViewOfItems } from '../key-view.js';
import type { QueryChecks } from '../query-checks.js';
import { type ParsedQuery, routeQuery } from '../query-validator.js';
import { sendJson } from '../respond.js';
import { errorResponses, KEY_ERRORS, NOT_MODIFIED, SECURITY } from '../schemas.js';
import { itemJson } from '../serialize.js';

/** The item's parameters as the handler uses them: `fields` as a list of fields. */
export const itemQuery = routeQuery({
  optional: ['organizationId', 'fields'],
  required: ['itemId'],
  read: ({ fields, ...query }) => ({ value: { ...query, fields: parseFields(fields) } }),
});

/** The item's check that needs the key (shared with get_item): what the key's view hides. */
export const itemChecks: QueryChecks<ParsedQuery<typeof itemQuery>> = {
  byKey: (key, query) => KeyViewOfItems.of(key)?.check(query),
};

const access: AccessPolicy = {
  keyed: true,
  organizationOverride: true,
  feature: 'inventory',
  permission: 'inventory:view',
  chargesQuota: true,
  checks: itemChecks,
};

/** The item's 200 body (by reference to the shared InventoryItem schema). */
export const ItemBody = Type.Object({ data: Type.Ref('InventoryItem') });

/**
 * The item's JSON body (the item fast path of serialize.ts: the same bytes the response schema
 * describes) and when it last changed; ITEM_NOT_FOUND for an unknown id or another
 * organization's item. Shared by the route and the MCP tool get_item. The query has passed
 * `itemChecks`; the view's check is repeated (it costs nothing) so that no caller skips it.
 */
export async function itemBody(
  services: Services,
  organizationId: string,
  query: ParsedQuery<typeof itemQuery>,
  view: KeyViewOfItems | null,
): Promise<{ body: Buffer; updatedAt: number | null }> {
  view?.check(query);
  const item = await services.store.getItem(organizationId, query.itemId, view?.scope);
  if (!item) {
    throw new ApiError(
      'ITEM_NOT_FOUND',
      `No item with _id ${query.itemId} exists in this organization. List items to find valid ids.`,
      { param: 'itemId' },
    );
  }
  if (view === null) {
    return {
      body: Buffer.from(`{"data":${itemJson(item, query.fields)}}`),
      updatedAt: item.updatedAt,
    };
  }
  // What the key sees changed when its view did: Last-Modified is the later of the two. A
  // view that hides updatedAt gets none: it would tell the time the view hides (ETag stays).
  return {
    body: Buffer.from(`{"data":${itemJson(view.item(item), view.fields(query.fields))}}`),
    updatedAt: view.showsUpdatedAt ? Math.max(item.updatedAt, view.since) : null,
  };
}

export default function inventoryItemRoute(app: FastifyInstance, services: Services) {
  app.get<{ Querystring: ParsedQuery<typeof itemQuery> }>(
    '/api/v1/inventory/item',
    {
      config: { access },
      validatorCompiler: itemQuery.validatorCompiler,
      schema: {
        summary: 'Get one inventory item',
        description:
          'One item of the key’s organization by `_id`. Another organization’s item answers 404 like an unknown one. Carries a strong `ETag` and `Last-Modified`; `If-None-Match` or `If-Modified-Since` answer 304 when it has not changed. Needs `inventory:view` and the `inventory` feature.',
        tags: ['Inventory'],
        security: SECURITY,
        querystring: itemQuery.schema,
        response: {
          200: ItemBody,
          ...NOT_MODIFIED,
          ...errorResponses([
            ...KEY_ERRORS,
            'MISSING_PARAMETER',
            'ORGANIZATION_NOT_FOUND',
            'ITEM_NOT_FOUND',
            'FEATURE_DISABLED',
            'INSUFFICIENT_PERMISSIONS',
          ]),
        },
      },
    },
    async (request, reply) => {
      const organization = request.organization;
      const key = request.principal?.key;
      if (!organization || !key) throw new Error('authorize did not run');
      const view = KeyViewOfItems.of(key);
      const { body, updatedAt } = await itemBody(services, organization.id, request.query, view);
      return sendJson(request, reply, body, updatedAt === null ? {} : { lastModified: updatedAt });
    },
  );
}
