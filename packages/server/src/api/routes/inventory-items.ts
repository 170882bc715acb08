import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Services } from '../../context.js';
import { foldCase } from '../../store/search.js';
import type { Item, ItemQuery, ItemStatus } from '../../store/types.js';
import type { AccessPolicy } from '../auth.js';
import { cursorMatches, decodeCursor, encodeCursor } from '../cursor.js';
import { Gate } from '../gate.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, parseFields } from '../item-fields.js';
import { PARAMS, querySchema } from '../params.js';
import { withCrossCheck } from '../query-validator.js';
import { errorResponses, JSON_TYPE, KEY_ERRORS, SECURITY } from '../schemas.js';
import { itemJson } from '../serialize.js';

interface ItemsQuery {
  organizationId?: string;
  limit?: string;
  search?: string;
  status?: ItemStatus;
  fields?: string;
  cursor?: string;
}

const access: AccessPolicy = {
  keyed: true,
  organizationOverride: true,
  feature: 'inventory',
  permission: 'inventory:view',
  chargesQuota: true,
};

const querystring = withCrossCheck(
  querySchema(['organizationId', 'limit', 'search', 'status', 'fields', 'cursor']),
  (query, usable) => {
    // A cursor that is repeated or fails its own pattern is already reported.
    if (query.cursor === undefined || !usable('cursor')) return null;
    const cursor = decodeCursor(query.cursor);
    if (!cursor) {
      return {
        param: 'cursor',
        message: `Invalid cursor: ${PARAMS.cursor.invalid}; to start over, omit cursor.`,
      };
    }
    // Which filters a cursor belongs to can only be judged against filters that are valid.
    if (!usable('status') || !usable('search')) return null;
    if (!cursorMatches(cursor, { status: query.status, search: query.search })) {
      return {
        param: 'cursor',
        message: `Invalid cursor: it was made for other filters; ${PARAMS.cursor.invalid}, or omit cursor to start over.`,
      };
    }
    return null;
  },
);

async function* oneSlice(items: Promise<Item[]>): AsyncGenerator<Item[]> {
  yield await items;
}

/** Large pages (limit above the default) built at once, per process. */
const LARGE_PAGE_CONCURRENCY = 2;

export default function inventoryItemsRoute(app: FastifyInstance, services: Services) {
  const largePages = new Gate(LARGE_PAGE_CONCURRENCY);
  app.get<{ Querystring: ItemsQuery }>(
    '/api/v1/inventory/items',
    {
      config: { access },
      schema: {
        summary: 'List inventory items',
        description:
          'Items of the key’s organization in creation order (`_id` ascending), filtered by `search` and `status`, narrowed by `fields`, one page at a time: pass `nextCursor` back as `cursor` until it is null. Needs `inventory:view` and the `inventory` feature.',
        tags: ['Inventory'],
        security: SECURITY,
        querystring,
        response: {
          200: Type.Object({
            data: Type.Array(Type.Ref('InventoryItem')),
            organizationId: Type.String(),
            count: Type.Integer({ description: 'Number of items in `data`.' }),
            nextCursor: Type.Union([Type.String(), Type.Null()], {
              description:
                'Pass as `cursor` for the next page; null on the last page. A `search` of 3+ characters always returns full pages. One of 1–2 characters examines at most 10,000 items after the cursor (with the `status` filter) per request: when they hold fewer than `limit` matches the page is short (even empty) and `nextCursor` continues after the last item examined, so follow it until it is null.',
            }),
          }),
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
      const query = request.query;
      const limit = Math.min(
        query.limit === undefined ? DEFAULT_PAGE_SIZE : Number(query.limit),
        MAX_PAGE_SIZE,
      );
      const build = async (): Promise<Buffer> => {
        const afterId =
          query.cursor === undefined ? undefined : decodeCursor(query.cursor)?.afterId;
        // A store that bounds the work of a search page may stop early; it then says where.
        let resumeAfter: string | undefined;
        const itemQuery: ItemQuery = {
          // One extra row tells whether another page follows without a count query.
          limit: limit + 1,
          ...(afterId === undefined ? {} : { afterId }),
          ...(query.status === undefined ? {} : { status: query.status }),
          ...(query.search === undefined ? {} : { search: foldCase(query.search) }),
          onPartialPage: (id) => {
            resumeAfter = id;
          },
        };
        const store = services.store;
        const slices =
          store.listItemSlices?.(organization.id, itemQuery) ??
          oneSlice(store.listItems(organization.id, itemQuery));
        const fields = parseFields(query.fields);
        // The item fast path (serialize.ts): the same bytes the response schema describes.
        // Each slice becomes bytes at once, so only buffers (outside the JavaScript heap) live
        // while the next slice is read: large pages leave little for the collector to copy.
        const chunks: Buffer[] = [Buffer.from('{"data":[')];
        let count = 0;
        let lastId: string | undefined;
        let more = false;
        for await (const slice of slices) {
          let text = '';
          for (const item of slice) {
            if (count === limit) {
              more = true;
              break;
            }
            text += count > 0 ? `,${itemJson(item, fields)}` : itemJson(item, fields);
            count++;
            lastId = item.id;
          }
          if (text !== '') chunks.push(Buffer.from(text));
          if (more) break;
        }
        const filters = { status: query.status, search: query.search };
        let next: string | null = null;
        if (more && lastId !== undefined) next = encodeCursor(lastId, filters);
        else if (resumeAfter !== undefined) next = encodeCursor(resumeAfter, filters);
        chunks.push(
          Buffer.from(
            `],"organizationId":"${organization.id}","count":${count},"nextCursor":${next === null ? 'null' : `"${next}"`}}`,
          ),
        );
        return Buffer.concat(chunks);
      };
      // Large pages are built a few at a time (see gate.ts); the default page size is not held.
      const page = limit > DEFAULT_PAGE_SIZE ? await largePages.run(build) : await build();
      return reply.type(JSON_TYPE).send(page);
    },
  );
}
