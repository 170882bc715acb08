import { WRITABLE_ITEM_FIELDS } from '../store/items/fields.js';

/**
 * Item fields in the order every item is serialized (the id and owner, the writable fields,
 * then the times); `fields` selects from these.
 */
export const ITEM_FIELDS = [
  '_id',
  'organizationId',
  ...WRITABLE_ITEM_FIELDS,
  'createdAt',
  'updatedAt',
] as const;
export type ItemField = (typeof ITEM_FIELDS)[number];

export const MAX_PAGE_SIZE = 1000;
export const DEFAULT_PAGE_SIZE = 100;

/** Parses a validated `fields` value into the canonical order, without duplicates. */
export function parseFields(raw: string | undefined): ItemField[] | undefined {
  if (raw === undefined) return undefined;
  const wanted = new Set(raw.split(','));
  return ITEM_FIELDS.filter((field) => wanted.has(field));
}
