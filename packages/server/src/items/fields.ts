import { quotedName } from '../http/shown-name.js';
import { WRITABLE_ITEM_FIELDS } from '../store/items/fields.js';
import { isLocationCode } from '../store/items/stock.js';
import { ImportFileError } from './errors.js';

/** The writable item fields an import file may carry, named as in the API. */
export const IMPORT_FIELDS = WRITABLE_ITEM_FIELDS;
export type ImportField = (typeof IMPORT_FIELDS)[number];

/** A CSV column of one location's stock: `stock.CODE` (issue 31). */
export type StockColumn = `stock.${string}`;
/** What a CSV header column fills: a field, one location's stock, or nothing (ignored). */
export type ImportColumn = ImportField | StockColumn | null;

export function isStockColumn(column: ImportColumn): column is StockColumn {
  return column?.startsWith('stock.') === true;
}

/**
 * Read-only fields of the API's item output. They are accepted and ignored so that items
 * exported from the API (or a CSV made from them) re-import without editing.
 */
export const IGNORED_FIELDS = ['_id', 'organizationId', 'createdAt', 'updatedAt'] as const;

const writable = new Set<string>(IMPORT_FIELDS);
const ignored = new Set<string>(IGNORED_FIELDS);

/** The most unknown names one reason lists. */
const MAX_LISTED = 10;

/**
 * Why column or property names are refused, naming the ones that are allowed. Each name is cut
 * at 100 characters (http/shown-name.ts): a 10 MB header gives a one-line error.
 */
export function unknownNames(names: string[], what: 'column' | 'field'): string {
  const listed = names.slice(0, MAX_LISTED).map((name) => quotedName(name));
  if (names.length > MAX_LISTED) listed.push(`and ${names.length - MAX_LISTED} more`);
  const which = listed.join(', ');
  const plural = names.length === 1 ? what : `${what}s`;
  const allowed =
    what === 'column'
      ? IMPORT_FIELDS.map((f) => (f === 'stock' ? 'stock.CODE' : f))
      : IMPORT_FIELDS;
  return `unknown ${plural} ${which}; allowed: ${allowed.join(', ')} (ignored: ${IGNORED_FIELDS.join(', ')})`;
}

/** The import field a name stands for: null for an ignored one, undefined for an unknown one. */
export function lookupField(name: string): ImportField | null | undefined {
  if (writable.has(name)) return name as ImportField;
  if (ignored.has(name)) return null;
  return undefined;
}

/**
 * The import field a CSV header column names, null for an ignored one. An unknown column is a
 * file-level error: it would be wrong on every row.
 */
export function fieldFor(name: string, what: 'column' | 'field', line: number): ImportColumn {
  if (what === 'column' && name.startsWith('stock.')) {
    const code = name.slice('stock.'.length);
    if (!isLocationCode(code)) {
      throw new ImportFileError(
        `column ${quotedName(name)} does not name a location code (1–32 characters of A-Z, a-z, 0-9, ".", "_", "-"); write stock.CODE with the location's code`,
        line,
      );
    }
    return name as StockColumn;
  }
  if (what === 'column' && name === 'stock') {
    throw new ImportFileError(
      'a CSV file gives stock as one column per location, named stock.CODE (stock.WH-1, stock.SHOP…); rename the column "stock"',
      line,
    );
  }
  const field = lookupField(name);
  if (field === undefined) throw new ImportFileError(unknownNames([name], what), line);
  return field;
}
