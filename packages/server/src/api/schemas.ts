import { type TSchema, Type } from 'typebox';
import { ITEM_STATUSES } from '../store/types.js';
import { ERROR_CODES, ERROR_STATUS, type ErrorCode } from './errors.js';

/**
 * Response schemas: they serialize the responses and document them in OpenAPI. The item
 * routes write their JSON by hand (serialize.ts), in the shape these schemas describe.
 */

/** The content type of every JSON response. */
export const JSON_TYPE = 'application/json; charset=utf-8';

const Timestamp = Type.String({
  format: 'date-time',
  description: 'ISO 8601 UTC with milliseconds',
  examples: ['2026-11-22T05:01:04.123Z'],
});
const Id = Type.String({ pattern: '^[0-9a-f]{24}$', examples: ['6740a1f2c3d4e5f6a7b8c9d0'] });

/** Every property is optional because `fields` may leave any of them out. */
export const InventoryItem = Type.Object(
  {
    _id: Type.Optional(Id),
    organizationId: Type.Optional(Id),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    description: Type.Optional(Type.Union([Type.String({ maxLength: 5000 }), Type.Null()])),
    sku: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Null()])),
    barcode: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Null()])),
    status: Type.Optional(Type.Union(ITEM_STATUSES.map((status) => Type.Literal(status)))),
    quantity: Type.Optional(
      Type.Number({
        description: 'With stock rows, the sum of their quantities; without, the item’s own.',
      }),
    ),
    stock: Type.Optional(
      Type.Array(
        Type.Object({
          location: Type.String({ description: 'The location’s code.' }),
          quantity: Type.Number(),
        }),
        {
          description:
            'The item’s stock per location: one entry per location it has a stock row at (quantity may be 0), ordered by code; empty when it has none.',
        },
      ),
    ),
    customFields: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        description: 'Free-form JSON object, returned as stored (key order kept).',
      }),
    ),
    createdAt: Type.Optional(Timestamp),
    updatedAt: Type.Optional(Timestamp),
  },
  {
    $id: 'InventoryItem',
    title: 'InventoryItem',
    description:
      'An inventory item. Every field is present unless the `fields` parameter selects a subset.',
  },
);

export const Location = Type.Object(
  {
    _id: Type.String({ pattern: '^[0-9a-f]{24}$' }),
    code: Type.String({
      description: 'Unique in the organization, case-sensitive; what `stock` and `location=` name.',
    }),
    name: Type.String(),
  },
  {
    $id: 'Location',
    title: 'Location',
    description: 'A place where the organization keeps stock (a warehouse, a shop floor…).',
  },
);

export const Organization = Type.Object(
  {
    _id: Id,
    name: Type.String(),
    slug: Type.String(),
    features: Type.Array(Type.String(), { examples: [['inventory']] }),
    createdAt: Timestamp,
  },
  { $id: 'Organization', title: 'Organization' },
);

export const ErrorResponse = Type.Object(
  {
    error: Type.Object({
      code: Type.String({ enum: ERROR_CODES }),
      message: Type.String({ description: 'What was wrong and how to fix it.' }),
      status: Type.Integer(),
      requestId: Type.String(),
      param: Type.Optional(Type.String({ description: 'The query parameter at fault.' })),
      docUrl: Type.String({ format: 'uri' }),
    }),
  },
  { $id: 'ErrorResponse', title: 'ErrorResponse' },
);

/** The error responses of a route, described by the codes each status can carry there. */
export function errorResponses(codes: ErrorCode[]): Record<number, TSchema> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<number, TSchema> = {};
  for (const [status, list] of byStatus) {
    responses[status] = Type.Ref('ErrorResponse', {
      description: `Error: ${list.join(', ')}`,
    } as never);
  }
  return responses;
}

export const KEY_ERRORS: ErrorCode[] = [
  'MISSING_API_KEY',
  'INVALID_API_KEY',
  'CONFLICTING_API_KEYS',
  'KEY_DISABLED',
  'KEY_EXPIRED',
  'KEY_EXHAUSTED',
  'RATE_LIMITED',
  'UNKNOWN_PARAMETER',
  'INVALID_PARAMETER',
  'ORGANIZATION_FORBIDDEN',
  'INTERNAL_ERROR',
  'SERVICE_UNAVAILABLE',
];

export const SECURITY: Array<Record<string, string[]>> = [{ ApiKeyHeader: [] }, { BearerAuth: [] }];

/**
 * The 304 of the item routes, for OpenAPI: answered when If-None-Match names the current ETag
 * (see respond.ts). It has no body.
 */
export const NOT_MODIFIED = {
  304: Type.Null({
    description:
      'Not Modified: `If-None-Match` names the current `ETag` (or, on item detail, `If-Modified-Since` is not older than `Last-Modified`). No body; charged like any other request.',
  }),
};
