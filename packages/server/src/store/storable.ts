import { nonFiniteQuantityReason } from '../domain/quantity.js';
import type { ItemFields } from './types.js';

const TEXT_FIELDS = ['name', 'description', 'sku', 'barcode', 'customFields'] as const;

/**
 * PostgreSQL text cannot hold U+0000, so no engine stores it: both refuse such a row the same
 * way and the engines keep identical contents. (SQLite also uses U+0000 to separate the fields
 * of its search text, so a search for it must find nothing anyway.)
 */
export function unstorableReason(row: ItemFields): string | null {
  for (const field of TEXT_FIELDS) {
    const value = row[field];
    if (typeof value === 'string' && value.includes('\u0000')) {
      return `${field} contains the NUL character (U+0000), which cannot be stored`;
    }
  }
  // A non-finite quantity would be stored as Infinity (or refused on NULL) and served as null.
  if (typeof row.quantity === 'number') return nonFiniteQuantityReason('quantity', row.quantity);
  return null;
}

/** A search needle that can match no stored text (see above): the store answers no items. */
export function unsearchable(needle: string): boolean {
  return needle.includes('\u0000');
}
