import { type TSchema, Type } from 'typebox';
import { HIDEABLE_FIELDS, MAX_HIDDEN, MAX_QUANTITY_CAP, MAX_WHERE } from '../domain/view.js';
import { IGNORED_FIELDS } from '../items/fields.js';
import { LIMITS } from '../items/validate.js';
import { FEATURES, PERMISSIONS } from '../keys/permissions.js';
import { ITEM_STATUSES } from '../store/types.js';
import { ADMIN_ERROR_CODES, ADMIN_ERROR_STATUS, type AdminErrorCode } from './errors.js';

/**
 * The admin API's schemas: request bodies (checked by validation.ts), query parameters, and
 * the responses they serialize. All of them describe the admin OpenAPI document, which only
 * the admin port serves.
 */

export const MAX_BULK_ROWS = 1000;
/** The bulk upsert's body limit: 1000 rows of the largest items, JSON-escaped, fit in it. */
export const MAX_BULK_BODY_BYTES = 32 * 1024 * 1024;

const Timestamp = Type.String({
  format: 'date-time',
  description: 'ISO 8601 UTC with milliseconds',
  examples: ['2026-11-22T05:01:04.123Z'],
});
const NullableTimestamp = Type.Union([Timestamp, Type.Null()]);
const Id = Type.String({ pattern: '^[0-9a-f]{24}$', examples: ['6740a1f2c3d4e5f6a7b8c9d0'] });

export const OrganizationView = Type.Object({
  id: Id,
  name: Type.String(),
  slug: Type.String(),
  features: Type.Array(Type.String(), { examples: [['inventory']] }),
  createdAt: Timestamp,
});

export const OrganizationDetail = Type.Object({
  id: Id,
  name: Type.String(),
  slug: Type.String(),
  features: Type.Array(Type.String()),
  createdAt: Timestamp,
  itemCount: Type.Integer({ description: 'Items of the organization.' }),
  keyCount: Type.Integer({ description: 'Keys that are not revoked.' }),
  members: Type.Array(
    Type.Object({ id: Id, email: Type.String(), name: Type.Union([Type.String(), Type.Null()]) }),
  ),
});

export const OrganizationDeletion = Type.Object({
  id: Id,
  slug: Type.String(),
  name: Type.String(),
  dryRun: Type.Boolean({ description: 'True when nothing was deleted (`?dryRun=true`).' }),
  deleted: Type.Object(
    { items: Type.Integer(), apiKeys: Type.Integer(), memberships: Type.Integer() },
    { description: 'What was deleted with the organization (with dryRun: what would be).' },
  ),
});

const keyProperties = {
  id: Id,
  prefix: Type.String({ examples: ['sr_org_a1B2'] }),
  name: Type.String(),
  type: Type.Union([Type.Literal('organization'), Type.Literal('user')]),
  organizationId: Id,
  userId: Type.Union([Id, Type.Null()]),
  userEmail: Type.Union([Type.String(), Type.Null()]),
  permissions: Type.Array(Type.String()),
  state: Type.Union(
    ['active', 'disabled', 'expired', 'exhausted', 'revoked'].map((state) => Type.Literal(state)),
  ),
  expiresAt: NullableTimestamp,
  remaining: Type.Union([Type.Integer(), Type.Null()], {
    description: 'Uses left; null: no quota.',
  }),
  rateLimit: Type.Union([
    Type.Object({ max: Type.Integer(), windowSeconds: Type.Integer() }),
    Type.Null(),
  ]),
  createdAt: Timestamp,
  lastUsedAt: NullableTimestamp,
  revokedAt: NullableTimestamp,
  previousSecretValidUntil: Type.Union([Timestamp, Type.Null()], {
    description: 'After a rotation with a grace period: until when the previous secret works.',
  }),
  view: Type.Union(
    [
      Type.Object({
        where: Type.Array(Type.String(), {
          description: 'Filters an item must all match to exist for the key.',
          examples: [['status=Active', 'location=WH-1']],
        }),
        hideFields: Type.Array(Type.String(), {
          description: 'Item fields absent from every answer to the key.',
          examples: [['barcode', 'customFields.cost']],
        }),
        quantityCap: Type.Union([Type.Integer(), Type.Null()], {
          description: 'Every quantity is served as at most this; null: no cap.',
        }),
      }),
      Type.Null(),
    ],
    { description: 'What the key may see, canonical; null: every item, every field.' },
  ),
  viewUpdatedAt: Type.Union([Timestamp, Type.Null()], {
    description: 'When the view was last set or cleared; null if it never had one.',
  }),
};

/** A key as operators see it (domain/key-state.ts describeKey). */
export const KeyDescription = Type.Object(keyProperties, {
  description: 'A key: everything but its secret and hash.',
});

const { id, ...afterId } = keyProperties;
export const KeyWithSecret = Type.Object(
  {
    id,
    key: Type.String({
      description: 'The plaintext key: shown in this answer only, never stored, never again.',
    }),
    ...afterId,
  },
  { description: 'A key with its new secret.' },
);

const rowOutcome = Type.Union(
  ['created', 'updated', 'unchanged', 'failed', 'skipped'].map((outcome) => Type.Literal(outcome)),
);

export const UpsertResult = Type.Object({
  mode: Type.Union([Type.Literal('all-or-nothing'), Type.Literal('per-row')]),
  dryRun: Type.Boolean(),
  committed: Type.Boolean({
    description: 'Whether anything was kept: false on a dry run or an all-or-nothing refusal.',
  }),
  created: Type.Integer(),
  updated: Type.Integer(),
  unchanged: Type.Integer(),
  failed: Type.Integer(),
  rows: Type.Array(
    Type.Object({
      index: Type.Integer({ description: '0-based position of the row in the request.' }),
      sku: Type.Union([Type.String(), Type.Null()]),
      outcome: rowOutcome,
      reason: Type.Optional(Type.String({ description: 'Why the row failed.' })),
    }),
    { description: 'One entry per row, in request order.' },
  ),
});

export const DeleteResult = Type.Object({
  deleted: Type.Integer(),
  notFound: Type.Integer(),
  rows: Type.Array(
    Type.Object({
      id: Type.Optional(Id),
      sku: Type.Optional(Type.String()),
      outcome: Type.Union([Type.Literal('deleted'), Type.Literal('not_found')]),
    }),
    { description: 'One entry per id, then per sku, in request order.' },
  ),
});

// --- Path parameters (the routes look them up and answer 404 themselves) -----------------------

export const OrgParam = Type.Object({
  org: Type.String({ description: 'Organization id or slug.', examples: ['acme'] }),
});

export const KeyParams = Type.Object({
  org: Type.String({ description: 'Organization id or slug.', examples: ['acme'] }),
  keyId: Type.String({ description: 'Key id.', examples: ['6740a1f2c3d4e5f6a7b8c9d0'] }),
});

// --- Request bodies ---------------------------------------------------------------------------

const featureList = (description: string) =>
  Type.Array(Type.String({ examples: [...FEATURES] }), {
    maxItems: 50,
    description: `${description} Known features: ${FEATURES.join(', ')}.`,
  });

export const CreateOrganizationBody = Type.Object(
  {
    name: Type.String({ description: 'Display name, 1-200 characters (trimmed).' }),
    slug: Type.Optional(
      Type.String({
        description:
          'Lowercase letters, digits and single dashes, at most 63 characters, not shaped like an id. Default: derived from the name.',
        examples: ['acme-outdoor'],
      }),
    ),
    features: Type.Optional(featureList('Features to enable; `[]` for none. Default: inventory.')),
  },
  { additionalProperties: false },
);

export const UpdateOrganizationBody = Type.Object(
  {
    name: Type.Optional(Type.String({ description: 'New display name, 1-200 characters.' })),
    enableFeatures: Type.Optional(featureList('Features to turn on.')),
    disableFeatures: Type.Optional(featureList('Features to turn off.')),
  },
  { additionalProperties: false },
);

/** A key's view as a request sends it (docs/architecture.md#key-views). */
const ViewBody = Type.Union(
  [
    Type.Object(
      {
        where: Type.Optional(
          Type.Array(Type.String(), {
            maxItems: MAX_WHERE,
            description:
              'Filters that must all hold: `status=A[,B…]` (statuses, comma-separated), `location=CODE` (more than 0 there; one of the organization’s locations), `customFields.NAME=VALUE` (string equality on a top-level custom field).',
            examples: [['status=Active', 'location=WH-1']],
          }),
        ),
        hideFields: Type.Optional(
          Type.Array(Type.String(), {
            maxItems: MAX_HIDDEN,
            description: `Item fields to hide, one per entry: ${HIDEABLE_FIELDS.join(', ')}, or customFields.NAME (_id, organizationId and name cannot be hidden).`,
            examples: [['barcode', 'customFields.cost']],
          }),
        ),
        quantityCap: Type.Optional(
          Type.Union([Type.Integer({ minimum: 0, maximum: MAX_QUANTITY_CAP }), Type.Null()], {
            description:
              'Every quantity (item and stock) is served as min(quantity, quantityCap); null: no cap.',
          }),
        ),
      },
      { additionalProperties: false },
    ),
    Type.Null(),
  ],
  {
    description:
      'What the key may see; null (or an empty view) for every item, every field. Absent parts are empty.',
  },
);

export const CreateKeyBody = Type.Object(
  {
    user: Type.Optional(
      Type.String({ description: 'Make a user key for this member: a user id or email.' }),
    ),
    name: Type.Optional(Type.String({ description: 'A label for the key, 1-100 characters.' })),
    permissions: Type.Optional(
      Type.Array(Type.String({ examples: [...PERMISSIONS] }), {
        maxItems: 50,
        description: `Permissions (${PERMISSIONS.join(', ')}); \`[]\` for none. Default: inventory:view.`,
      }),
    ),
    expiresIn: Type.Optional(
      Type.String({
        description: 'Expire after this long: a DURATION such as 30d or 12h, at most 36500d.',
        examples: ['30d'],
      }),
    ),
    expiresAt: Type.Optional(
      Type.String({
        description:
          'Expire at this instant: an ISO 8601 date or date-time with a zone, in the future, at most 100 years ahead.',
        examples: ['2027-01-31T00:00:00Z'],
      }),
    ),
    remaining: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 1_000_000_000,
        description: 'Uses before the key is exhausted. Default: unlimited.',
      }),
    ),
    rateLimit: Type.Optional(
      Type.String({
        description:
          'Requests per window as MAX/DURATION (e.g. 600/1m; MAX at most 1000000000, window at most 365d), or "none". Default: 600/1m.',
        examples: ['120/1m'],
      }),
    ),
    view: Type.Optional(ViewBody),
  },
  { additionalProperties: false },
);

export const UpdateKeyBody = Type.Object(
  {
    view: ViewBody,
  },
  {
    additionalProperties: false,
    description: 'The whole new view: it replaces the current one; null clears it.',
  },
);

export const RotateKeyBody = Type.Object(
  {
    grace: Type.Optional(
      Type.String({
        description:
          'How long the old secret keeps working: a DURATION of at most 90d. Default: it stops at once.',
        examples: ['24h'],
      }),
    ),
  },
  { additionalProperties: false },
);

const nullableText = (max: number) => Type.Union([Type.String({ maxLength: max }), Type.Null()]);

/** One row of a bulk upsert: the fields of `stockroom items import` (JSON records). */
export const ItemRow = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: LIMITS.name })),
    description: Type.Optional(nullableText(LIMITS.description)),
    sku: Type.Optional(nullableText(LIMITS.sku)),
    barcode: Type.Optional(nullableText(LIMITS.barcode)),
    status: Type.Optional(Type.Union(ITEM_STATUSES.map((status) => Type.Literal(status)))),
    quantity: Type.Optional(
      Type.Number({
        description:
          'A finite number (at most ±1.7976931348623157e+308; beyond it, the request is refused with 400). With `stock`, it must equal the sum of the stock quantities (left out, it becomes it), which must not go beyond it either.',
      }),
    ),
    stock: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        description:
          'Stock per location: `{ "CODE": quantity }` (a finite number, not negative), each code one of the organization’s locations. Replaces the item’s stock rows (a location left out loses its row); absent, they stay.',
        examples: [{ 'WH-1': 12, SHOP: 3 }],
      }),
    ),
    customFields: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        description:
          'A JSON object, at most 16 KiB as compact JSON, nesting objects and arrays at most 32 levels deep (the object itself is level 1).',
      }),
    ),
  },
  {
    description: `An item, upserted by sku (a row without a sku is always created). An absent field is left as stored; null clears description, sku or barcode. The API's ${IGNORED_FIELDS.join(', ')} are accepted and ignored; any other field rejects the row.`,
  },
);

export const BulkUpsertBody = Type.Array(ItemRow, {
  maxItems: MAX_BULK_ROWS,
  description: `At most ${MAX_BULK_ROWS} rows; a sku may appear once.`,
});

export const BulkDeleteBody = Type.Object(
  {
    ids: Type.Optional(
      Type.Array(Type.String({ description: 'An item `_id`.' }), { maxItems: MAX_BULK_ROWS }),
    ),
    skus: Type.Optional(Type.Array(Type.String(), { maxItems: MAX_BULK_ROWS })),
  },
  {
    additionalProperties: false,
    description: `Items to delete by id and by sku: at least one, at most ${MAX_BULK_ROWS} in all.`,
  },
);

// --- Errors -----------------------------------------------------------------------------------

export const AdminErrorResponse = Type.Object({
  error: Type.Object({
    code: Type.String({ enum: ADMIN_ERROR_CODES }),
    message: Type.String({ description: 'What was wrong and how to fix it.' }),
    status: Type.Integer(),
    requestId: Type.String(),
    param: Type.Optional(
      Type.String({ description: 'The body field, path segment or query parameter at fault.' }),
    ),
    docUrl: Type.String({ format: 'uri' }),
  }),
});

/** Error responses of a route for OpenAPI, by status; every route can answer these four. */
export function adminErrors(codes: AdminErrorCode[]): Record<number, TSchema> {
  const byStatus = new Map<number, AdminErrorCode[]>();
  for (const code of [
    'ADMIN_UNAUTHORIZED',
    'ADMIN_RATE_LIMITED',
    ...codes,
    'INTERNAL_ERROR',
    'SERVICE_UNAVAILABLE',
  ]) {
    const status = ADMIN_ERROR_STATUS[code as AdminErrorCode];
    const list = byStatus.get(status) ?? [];
    if (!list.includes(code as AdminErrorCode)) list.push(code as AdminErrorCode);
    byStatus.set(status, list);
  }
  const responses: Record<number, TSchema> = {};
  for (const [status, list] of byStatus) {
    responses[status] = Type.Object(AdminErrorResponse.properties, {
      description: `Error: ${list.join(', ')}`,
    });
  }
  return responses;
}
