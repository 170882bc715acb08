import { type TObject, type TOptional, type TSchema, Type } from 'typebox';
import { LOCATION_CODE_PATTERN } from '../store/items/stock.js';
import { ITEM_STATUSES, type ItemStatus } from '../store/types.js';
import { ITEM_FIELDS } from './item-fields.js';

/**
 * Every query parameter of the API, defined once: the schema (validation and OpenAPI) and the
 * sentence that tells a caller how to fix a bad value.
 */
export interface ParamDefinition {
  schema: TSchema;
  invalid: string;
}

const ID = '^[0-9a-f]{24}$';
/** The most ids one `ids` filter may name. */
export const MAX_IDS = 100;
/** RFC 3339 date-time with a zone, or a calendar date; the values are checked again when parsed. */
const ISO_INSTANT =
  '[0-9]{4}-[0-9]{2}-[0-9]{2}([Tt ][0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]{1,9})?)?([Zz]|[+ -][0-9]{2}:?[0-9]{2}))?';
/** A `nextSince` token: base64url, and never starting with a digit (unlike an instant). */
const SINCE_TOKEN = '[A-Za-z_-][A-Za-z0-9_-]{0,199}';
const fieldAlternatives = ITEM_FIELDS.join('|');

export const PARAMS = {
  organizationId: {
    schema: Type.String({
      pattern: ID,
      description:
        'Legacy override. By default the key’s organization is used; naming another organization answers 403. Responses carry `Deprecation: true`.',
      deprecated: true,
    }),
    invalid:
      'organizationId must be a 24-character lowercase hex id; omit it to use the key’s own organization',
  },
  limit: {
    schema: Type.String({
      pattern: '^[1-9][0-9]*$',
      description:
        'Maximum number of items in the page: a positive integer. Default 100; values above 1000 are served as 1000.',
      examples: ['50'],
    }),
    invalid: 'limit must be a positive integer such as 50 (values above 1000 are served as 1000)',
  },
  search: {
    schema: Type.String({
      minLength: 1,
      maxLength: 200,
      description:
        'Case-insensitive substring match against name, description, sku and barcode (1–200 characters; Unicode simple case folding; accents significant; %, _ and \\ are literal).',
    }),
    invalid: 'search must be 1 to 200 characters long',
  },
  status: {
    // Unsafe only narrows the static type to the statuses; the JSON schema stays a string enum.
    schema: Type.Unsafe<ItemStatus>(
      Type.String({
        enum: [...ITEM_STATUSES],
        description: 'Only items with this status (exact case).',
      }),
    ),
    invalid: `status must be one of ${ITEM_STATUSES.join(', ')} (exact case)`,
  },
  fields: {
    schema: Type.String({
      pattern: `^(${fieldAlternatives})(,(${fieldAlternatives}))*$`,
      description: `Comma-separated item fields to return; each item then carries only these, in the usual order. Allowed: ${ITEM_FIELDS.join(', ')}.`,
      examples: ['_id,name,sku,quantity'],
    }),
    invalid: `fields must be a comma-separated list of item fields without spaces, from: ${ITEM_FIELDS.join(', ')}`,
  },
  cursor: {
    schema: Type.String({
      minLength: 1,
      maxLength: 1024,
      pattern: '^[A-Za-z0-9_-]+$',
      description:
        'Opaque token from the `nextCursor` of the previous page; send the same filters with it (search, status, sku, barcode, ids, location, updatedSince, includeDeleted).',
    }),
    invalid:
      'cursor must be the nextCursor value of a previous page, unchanged, sent with the same filters (search, status, sku, barcode, ids, location, updatedSince, includeDeleted)',
  },
  sku: {
    schema: Type.String({
      minLength: 1,
      maxLength: 100,
      description:
        'Only the item with exactly this SKU (case-sensitive, as stored; indexed). Cannot be combined with `search` or `updatedSince`.',
      examples: ['DRL-2210-STL'],
    }),
    invalid: 'sku must be 1 to 100 characters long, exactly as stored (case-sensitive)',
  },
  barcode: {
    schema: Type.String({
      minLength: 1,
      maxLength: 100,
      description:
        'Only items with exactly this barcode (case-sensitive, as stored; indexed). Cannot be combined with `search` or `updatedSince`.',
      examples: ['4006381333931'],
    }),
    invalid: 'barcode must be 1 to 100 characters long, exactly as stored (case-sensitive)',
  },
  ids: {
    schema: Type.String({
      pattern: `^[0-9a-f]{24}(,[0-9a-f]{24}){0,${MAX_IDS - 1}}$`,
      description: `Only the items with these \`_id\`s: up to ${MAX_IDS} comma-separated 24-character hex ids, in \`_id\` order; unknown ids (and other organizations’ items) are simply absent. Cannot be combined with \`search\` or \`updatedSince\`.`,
      examples: ['6740a1f2c3d4e5f6a7b8c9d0,6740a1f2c3d4e5f6a7b8c9d1'],
    }),
    invalid: `ids must be 1 to ${MAX_IDS} comma-separated 24-character lowercase hex ids, without spaces`,
  },
  location: {
    schema: Type.String({
      pattern: LOCATION_CODE_PATTERN,
      description:
        'Only items with more than 0 at the location of this code (case-sensitive; see `GET /api/v1/inventory/locations`). Combines with every other parameter. An unknown code answers 400 `INVALID_PARAMETER`.',
      examples: ['WH-1'],
    }),
    invalid:
      'location must be a location code: 1 to 32 characters of A-Z, a-z, 0-9, ".", "_" and "-" (see GET /api/v1/inventory/locations)',
  },
  updatedSince: {
    schema: Type.String({
      minLength: 1,
      maxLength: 200,
      pattern: `^(${ISO_INSTANT}|${SINCE_TOKEN})$`,
      description:
        'Incremental sync: only items changed after this point, in change order (not `_id` order), and the response carries `nextSince`. Either an ISO 8601 instant with a time zone (`2026-11-24T08:00:00Z`, `2026-11-24T09:00:00+01:00`) or a date (`2026-11-24`, midnight UTC), or the `nextSince` of an earlier response to continue from where it ended. An item may repeat across syncs; none is ever missed. Combines with `status`, `location`, `fields`, `limit`, `cursor` and `includeDeleted`.',
      examples: ['2026-11-24T08:00:00Z'],
    }),
    invalid:
      'updatedSince must be an ISO 8601 instant with a time zone such as 2026-11-24T08:00:00Z, a date such as 2026-11-24, or the nextSince value of an earlier response, unchanged',
  },
  includeDeleted: {
    schema: Type.Unsafe<'true' | 'false'>(
      Type.String({
        enum: ['true', 'false'],
        description:
          'With `updatedSince`: also list the items deleted since then, as `deleted: [{ _id, deletedAt }]` (kept for the retention period, 30 days by default; an older sync point answers 410 `SYNC_EXPIRED`).',
      }),
    ),
    invalid: 'includeDeleted must be true or false (lowercase), and needs updatedSince',
  },
  itemId: {
    schema: Type.String({ pattern: ID, description: 'The item’s `_id` (24-character hex).' }),
    invalid: 'itemId must be the item’s 24-character lowercase hex _id',
  },
} satisfies Record<string, ParamDefinition>;

export type ParamName = keyof typeof PARAMS;

type Param<N extends ParamName> = (typeof PARAMS)[N]['schema'];

/** The properties of a querystring schema: `R` required, `O` optional. */
export type QueryProperties<O extends ParamName, R extends ParamName> = {
  [N in R]: Param<N>;
} & { [N in Exclude<O, R>]: TOptional<Param<N>> };

/**
 * A querystring schema made of the named parameters; `required` ones must be present. Its
 * static type names each parameter as a string (narrowed where the schema lists the values).
 */
export function querySchema<const O extends ParamName, const R extends ParamName = never>(
  optional: readonly O[],
  required: readonly R[] = [],
): TObject<QueryProperties<O, R>> {
  const properties: Record<string, TSchema> = {};
  for (const name of [...required, ...optional] as ParamName[]) {
    properties[name] = (required as readonly ParamName[]).includes(name)
      ? PARAMS[name].schema
      : Type.Optional(PARAMS[name].schema);
  }
  return Type.Object(properties as QueryProperties<O, R>, { additionalProperties: false });
}
