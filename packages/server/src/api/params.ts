import { type TSchema, Type } from 'typebox';
import { ITEM_STATUSES } from '../store/types.js';
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
    schema: Type.String({
      enum: [...ITEM_STATUSES],
      description: 'Only items with this status (exact case).',
    }),
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
        'Opaque token from the `nextCursor` of the previous page; send the same filters (search, status) with it.',
    }),
    invalid:
      'cursor must be the nextCursor value of a previous page, unchanged, sent with the same search and status',
  },
  itemId: {
    schema: Type.String({ pattern: ID, description: 'The item’s `_id` (24-character hex).' }),
    invalid: 'itemId must be the item’s 24-character lowercase hex _id',
  },
} satisfies Record<string, ParamDefinition>;

export type ParamName = keyof typeof PARAMS;

/** A querystring schema made of the named parameters; `required` ones must be present. */
export function querySchema(optional: ParamName[], required: ParamName[] = []) {
  const properties: Record<string, TSchema> = {};
  for (const name of [...required, ...optional]) {
    properties[name] = required.includes(name)
      ? PARAMS[name].schema
      : Type.Optional(PARAMS[name].schema);
  }
  return Type.Object(properties, { additionalProperties: false });
}
