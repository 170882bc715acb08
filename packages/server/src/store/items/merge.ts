import { unstorableReason } from '../storable.js';
import type { Item, ItemFields } from '../types.js';
import { WRITABLE_ITEM_FIELDS } from './fields.js';
import { parseStock, stockProblem, stockSum } from './stock.js';

/** The fields of a new item: the row's, with the defaults of what it leaves out. */
export type NewItemContent = Pick<Item, (typeof WRITABLE_ITEM_FIELDS)[number]>;

/**
 * What one row of a writeItems call does, on every engine: refused, nothing (its fields equal
 * what is stored, so updatedAt stays), an update of the stored item, or a new item.
 */
export type RowWrite =
  | { error: string }
  | 'unchanged'
  | { update: Item }
  | { create: NewItemContent };

/** The sku a row is looked up by (rows without one always create). */
export function upsertKey(row: ItemFields): string | undefined {
  return typeof row.sku === 'string' ? row.sku : undefined;
}

/**
 * The upsert rules. `current` is the stored item of the row's sku (as earlier rows of the same
 * call left it). An update takes every field the row gives (`undefined` leaves it as stored),
 * never the sku, which is the lookup key; it stamps `updatedAt` with `now` only when a field
 * changed. A new item needs a name.
 *
 * Stock (items/stock.ts): a given `stock` replaces the stored rows; each code must be one of
 * `locations` (the organization's codes) and each quantity finite and not negative. With stock
 * rows the quantity is their sum: a row that leaves it out gets it, one that gives another
 * number is refused (also when it gives only a quantity for an item that has stock rows).
 */
export function planRowWrite(
  row: ItemFields,
  current: Item | undefined,
  now: number,
  locations: ReadonlySet<string> = new Set(),
): RowWrite {
  const unstorable = unstorableReason(row);
  if (unstorable) return { error: unstorable };
  const quantity = plannedQuantity(row, current, locations);
  if (typeof quantity === 'object') return quantity;
  if (quantity !== row.quantity) row = { ...row, quantity };
  if (current) {
    const next = { ...current };
    for (const field of WRITABLE_ITEM_FIELDS) {
      const value = row[field];
      if (value !== undefined) (next as Record<string, unknown>)[field] = value;
    }
    next.sku = current.sku;
    if (WRITABLE_ITEM_FIELDS.every((field) => next[field] === current[field])) return 'unchanged';
    next.updatedAt = now;
    return { update: next };
  }
  if (row.name === undefined) {
    return { error: 'name is required to create an item (no item has this sku yet)' };
  }
  return {
    create: {
      name: row.name,
      description: row.description ?? null,
      sku: row.sku ?? null,
      barcode: row.barcode ?? null,
      status: row.status ?? 'Draft',
      quantity: row.quantity ?? 0,
      stock: row.stock ?? '[]',
      customFields: row.customFields ?? '{}',
    },
  };
}

/** The quantity a row writes (see planRowWrite), or why the row is refused. */
function plannedQuantity(
  row: ItemFields,
  current: Item | undefined,
  locations: ReadonlySet<string>,
): number | undefined | { error: string } {
  if (row.stock === undefined) {
    if (row.quantity === undefined || !current || current.stock === '[]') return row.quantity;
    const sum = stockSum(parseStock(current.stock));
    if (row.quantity === sum) return row.quantity;
    return {
      error: `quantity ${row.quantity} differs from the sum of the item's stock rows (${sum}); give stock with the quantities per location, or leave quantity out`,
    };
  }
  const entries = parseStock(row.stock);
  const problem = stockProblem(entries, locations);
  if (problem) return { error: problem };
  const sum = stockSum(entries);
  if (row.quantity !== undefined && entries.length > 0 && row.quantity !== sum) {
    return {
      error: `quantity ${row.quantity} differs from the sum of stock (${sum}); an item with stock rows has their sum as its quantity: fix one of them, or leave quantity out`,
    };
  }
  return row.quantity !== undefined && entries.length === 0 ? row.quantity : sum;
}
