import { newId } from '../../ids.js';
import { planRowWrite, upsertKey } from '../items/merge.js';
import type { Item, ItemFields, ItemWriteOutcome } from '../types.js';

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
  /** Written items whose stock rows changed (item_stock is rewritten for them). */
  stockChanged: Item[];
  /**
   * Stored items whose status changed while their stock rows did not: their item_stock rows
   * take the new status in place (each row carries its item's status, migration 10).
   */
  statusChanged: Item[];
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
  locations?: ReadonlySet<string>,
): WritePlan {
  const outcomes: ItemWriteOutcome[] = [];
  const bySku = new Map(existing);
  const created = new Set<Item>();
  const changed = new Set<Item>();
  const inserts: Item[] = [];
  const changes: Item[] = [];
  const stockChanged = new Set<Item>();
  const statusChanged = new Set<Item>();
  for (const row of rows) {
    const sku = upsertKey(row);
    const current = sku === undefined ? undefined : bySku.get(sku);
    const write = planRowWrite(row, current, now, locations);
    if (write === 'unchanged' || 'error' in write) {
      outcomes.push(write);
      continue;
    }
    if ('update' in write) {
      // Changed in place: a later row of the same sku sees what this one wrote.
      const stored = current as Item;
      if (write.update.stock !== stored.stock) stockChanged.add(stored);
      if (write.update.status !== stored.status) statusChanged.add(stored);
      Object.assign(stored, write.update);
      if (!created.has(stored)) changed.add(stored);
      changes.push(stored);
      outcomes.push('updated');
      continue;
    }
    const item: Item = {
      id: newId(now),
      organizationId,
      ...write.create,
      createdAt: now,
      updatedAt: now,
    };
    inserts.push(item);
    if (item.stock !== '[]') stockChanged.add(item);
    created.add(item);
    if (item.sku !== null) bySku.set(item.sku, item);
    changes.push(item);
    outcomes.push('created');
  }
  return {
    outcomes,
    inserts,
    updates: [...changed],
    changes,
    stockChanged: [...stockChanged],
    // A created item's rows are written with its final status; rewritten rows take it too.
    statusChanged: [...statusChanged].filter(
      (item) => !created.has(item) && !stockChanged.has(item),
    ),
  };
}
