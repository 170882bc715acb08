import { ImportFileError } from './errors.js';

/** The writable item fields an import file may carry, named as in the API. */
export const IMPORT_FIELDS = [
  'name',
  'description',
  'sku',
  'barcode',
  'status',
  'quantity',
  'customFields',
] as const;
export type ImportField = (typeof IMPORT_FIELDS)[number];

/**
 * Read-only fields of the API's item output. They are accepted and ignored so that items
 * exported from the API (or a CSV made from them) re-import without editing.
 */
export const IGNORED_FIELDS = ['_id', 'organizationId', 'createdAt', 'updatedAt'] as const;

const writable = new Set<string>(IMPORT_FIELDS);
const ignored = new Set<string>(IGNORED_FIELDS);

/** The import field a column or property names, null for an ignored one; throws for unknown names. */
export function fieldFor(name: string, what: 'column' | 'field', line: number): ImportField | null {
  if (writable.has(name)) return name as ImportField;
  if (ignored.has(name)) return null;
  throw new ImportFileError(
    `unknown ${what} ${JSON.stringify(name)}; allowed: ${IMPORT_FIELDS.join(', ')} (ignored: ${IGNORED_FIELDS.join(', ')})`,
    line,
  );
}
