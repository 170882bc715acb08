import type { ChangedItem, Item } from '../types.js';

/**
 * Each item field and its column, in the order SQLite's statements select them (its raw rows
 * are read by position). The one place a field meets its column.
 */
const ITEM_FIELD_COLUMNS = [
  ['id', 'id'],
  ['organizationId', 'organization_id'],
  ['name', 'name'],
  ['description', 'description'],
  ['sku', 'sku'],
  ['barcode', 'barcode'],
  ['status', 'status'],
  ['quantity', 'quantity'],
  ['stock', 'stock'],
  ['customFields', 'custom_fields'],
  ['createdAt', 'created_at'],
  ['updatedAt', 'updated_at'],
] as const satisfies readonly (readonly [keyof Item, string])[];

/** The item columns, in the order of ITEM_FIELD_COLUMNS. */
export const ITEM_COLUMN_NAMES: readonly string[] = ITEM_FIELD_COLUMNS.map(([, column]) => column);

/** The change feed's two columns after the item's. */
const CHANGE_FIELD_COLUMNS = [
  ['changeSeq', 'change_seq', ''],
  // Null for items created before the feed recorded creations.
  ['createdSeq', 'created_seq', ' ?? null'],
] as const;

type RawRow = readonly unknown[];
type NamedRow = Record<string, unknown>;

/**
 * A mapper compiled from the tables above: its body is one object literal, so every item it
 * makes has the same shape and costs one allocation. A spread of one fresh object into another
 * (a changed item from an item) made 1,000-row sync pages twice as slow to read and left about
 * 0.6 MB of each in the old generation (the heap grew by ~75 MB a second under load), and
 * handwritten literals repeated the field list four times.
 */
function compileMapper(
  read: (column: string, position: number) => string,
  changes: boolean,
): (row: never) => unknown {
  const fields = ITEM_FIELD_COLUMNS.map(([field, column], k) => `${field}: ${read(column, k)}`);
  if (changes) {
    CHANGE_FIELD_COLUMNS.forEach(([field, column, fallback], k) => {
      fields.push(`${field}: ${read(column, ITEM_FIELD_COLUMNS.length + k)}${fallback}`);
    });
  }
  return new Function('row', `return { ${fields.join(', ')} };`) as (row: never) => unknown;
}

const byName = (column: string) => `row.${column}`;
const byPosition = (_column: string, position: number) => `row[${position}]`;

/** An item from a row by column name (either engine's driver). */
export const toItem = compileMapper(byName, false) as (row: NamedRow) => Item;
/** A changed item from a row by column name, with change_seq and created_seq. */
export const toChangedItem = compileMapper(byName, true) as (row: NamedRow) => ChangedItem;
/** An item from a raw row of the item columns in ITEM_COLUMN_NAMES order (SQLite). */
export const toItemFromRaw = compileMapper(byPosition, false) as (row: RawRow) => Item;
/** A changed item from a raw row: the item columns, then change_seq and created_seq. */
export const toChangedItemFromRaw = compileMapper(byPosition, true) as (row: RawRow) => ChangedItem;
