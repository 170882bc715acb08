import { unstorableReason } from '../storable.js';
import type { Item, ItemFields } from '../types.js';
import { WRITABLE_ITEM_FIELDS } from './fields.js';

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
 */
export function planRowWrite(row: ItemFields, current: Item | undefined, now: number): RowWrite {
  const unstorable = unstorableReason(row);
  if (unstorable) return { error: unstorable };
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
      customFields: row.customFields ?? '{}',
    },
  };
}
