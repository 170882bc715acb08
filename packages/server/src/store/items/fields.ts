import type { ItemFields } from '../types.js';

/**
 * The writable fields of an item, in the order the API shows them: what a write may set, what
 * an upsert compares, and what an import file may carry.
 */
export const WRITABLE_ITEM_FIELDS = [
  'name',
  'description',
  'sku',
  'barcode',
  'status',
  'quantity',
  'stock',
  'customFields',
] as const satisfies readonly (keyof ItemFields)[];
export type WritableItemField = (typeof WRITABLE_ITEM_FIELDS)[number];
