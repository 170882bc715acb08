import { foldCase } from '../search.js';

/**
 * The folded search text on PostgreSQL: the four searchable fields, each folded by `foldCase`
 * (the same JavaScript folding as SQLite, so both engines match the same items), joined by a
 * separator no folded needle can contain, so a match never spans two fields.
 *
 * SQLite separates with U+0000, which PostgreSQL text cannot hold. "A" works instead: simple
 * case folding maps A to a and nothing to A, so folded text never holds it, and no folded needle
 * can match across the boundary. (pg_trgm lower-cases it into its
 * trigrams, which only makes the index a little less selective; LIKE rechecks exactly.)
 */
export const FIELD_SEPARATOR = 'A';

export function postgresSearchText(fields: {
  name: string;
  description: string | null;
  sku: string | null;
  barcode: string | null;
}): string {
  return [fields.name, fields.description ?? '', fields.sku ?? '', fields.barcode ?? '']
    .map(foldCase)
    .join(FIELD_SEPARATOR);
}

/** A LIKE pattern matching `needle` as a literal substring (`%`, `_` and `\` escaped). */
export function containsPattern(needle: string): string {
  return `%${needle.replace(/[\\%_]/g, '\\$&')}%`;
}
