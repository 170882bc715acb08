import { newId } from '../../ids.js';
import { unstorableReason } from '../storable.js';
import type { Item, ItemFields, ItemWriteOutcome } from '../types.js';

const ITEM_FIELD_NAMES = [
  'name',
  'description',
  'sku',
  'barcode',
  'status',
  'quantity',
  'customFields',
] as const;

export interface WritePlan {
  outcomes: ItemWriteOutcome[];
  /** New items, in creation order, with their final fields. */
  inserts: Item[];
  /** Stored items whose fields changed, with their final fields. */
  updates: Item[];
  /**
   * The item each `created` or `updated` row wrote, in row order: row k of them takes the k-th
   * change number of the write, and an item written by several rows keeps its last.
   */
  changes: Item[];
}

/**
 * Works out a writeItems call in memory, row by row, exactly as the SQLite engine does it one
 * statement at a time (a later row with the same sku sees what an earlier one wrote), so the
 * PostgreSQL engine can then write the result in a few set-based statements instead of one
 * round trip per row. `existing` holds the stored items of the rows' skus.
 */
export function planWrites(
  organizationId: string,
  rows: ItemFields[],
  existing: Map<string, Item>,
  now: number,
): WritePlan {
  const outcomes: ItemWriteOutcome[] = [];
  const bySku = new Map(existing);
  const created = new Set<Item>();
  const changed = new Set<Item>();
  const inserts: Item[] = [];
  const changes: Item[] = [];
  for (const row of rows) {
    const unstorable = unstorableReason(row);
    if (unstorable) {
      outcomes.push({ error: unstorable });
      continue;
    }
    const current = typeof row.sku === 'string' ? bySku.get(row.sku) : undefined;
    if (current) {
      const next = { ...current };
      for (const field of ITEM_FIELD_NAMES) {
        const value = row[field];
        if (value !== undefined) (next as Record<string, unknown>)[field] = value;
      }
      // The sku is the lookup key, never rewritten by an update.
      next.sku = current.sku;
      if (ITEM_FIELD_NAMES.every((field) => next[field] === current[field])) {
        outcomes.push('unchanged');
        continue;
      }
      next.updatedAt = now;
      Object.assign(current, next);
      if (!created.has(current)) changed.add(current);
      changes.push(current);
      outcomes.push('updated');
      continue;
    }
    if (row.name === undefined) {
      outcomes.push({ error: 'name is required to create an item (no item has this sku yet)' });
      continue;
    }
    const item: Item = {
      id: newId(now),
      organizationId,
      name: row.name,
      description: row.description ?? null,
      sku: row.sku ?? null,
      barcode: row.barcode ?? null,
      status: row.status ?? 'Draft',
      quantity: row.quantity ?? 0,
      customFields: row.customFields ?? '{}',
      createdAt: now,
      updatedAt: now,
    };
    inserts.push(item);
    created.add(item);
    if (item.sku !== null) bySku.set(item.sku, item);
    changes.push(item);
    outcomes.push('created');
  }
  return { outcomes, inserts, updates: [...changed], changes };
}
