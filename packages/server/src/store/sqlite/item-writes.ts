import { newIdAfter } from '../../ids.js';
import { planRowWrite, upsertKey } from '../items/merge.js';
import { parseStock } from '../items/stock.js';
import { type Row, toItem } from '../rows.js';
import { searchText } from '../search.js';
import {
  type ItemFields,
  type ItemRef,
  type ItemStore,
  type ItemWriteOutcome,
  StoreConflictError,
} from '../types.js';
import { ITEM_COLUMNS } from './item-rows.js';
import { organizationRange } from './item-search.js';
import { SqliteItems } from './items.js';
import { pauseForOtherWriters } from './lock-sharing.js';

/**
 * A write of at least this many rows is taken for part of a bulk load: its rows stay queued for
 * the search index, which is then built in one batch (at close, or once PENDING_INDEX_ROWS are
 * queued) instead of row by row, several times faster. Smaller writes index their rows at once.
 */
const BULK_WRITE_ROWS = 500;
const PENDING_INDEX_ROWS = 1_000_000;

/**
 * A small write indexes the queue in its own transaction only up to this many rows: more is a
 * bulk load's, which would hold the write lock for seconds (lock-sharing.ts).
 */
const SMALL_QUEUE_ROWS = 2000;

/** Thrown inside a transaction to roll it back while keeping the computed outcomes. */
class Rollback extends Error {}

/** Item writes on SQLite: upserts, deletions with their tombstones, an organization's items. */
export abstract class SqliteItemWrites extends SqliteItems implements ItemStore {
  async writeItems(
    organizationId: string,
    rows: ItemFields[],
    options: { dryRun?: boolean; allOrNothing?: boolean; now?: number } = {},
  ): Promise<ItemWriteOutcome[]> {
    const outcomes = await this.run(() => this.writeItemsNow(organizationId, rows, options));
    if (rows.length >= BULK_WRITE_ROWS && !options.dryRun) {
      // Part of a bulk load: the other writers get the lock before its next batch, and a queue
      // grown large is indexed in parts (lock-sharing.ts).
      if (this.queued >= PENDING_INDEX_ROWS) await this.indexPendingInParts();
      else await pauseForOtherWriters();
    }
    return outcomes;
  }

  /** writeItems in one transaction, on the caller's turn. */
  private writeItemsNow(
    organizationId: string,
    rows: ItemFields[],
    options: { dryRun?: boolean; allOrNothing?: boolean; now?: number },
  ): ItemWriteOutcome[] {
    const now = options.now ?? Date.now();
    const outcomes: ItemWriteOutcome[] = [];
    const bySku = this.stmt(
      `SELECT ${ITEM_COLUMNS} FROM items WHERE organization_id = ? AND sku = ?`,
    );
    const insert = this.stmt(
      `INSERT INTO items (seq, organization_id, id, name, description, sku, barcode, status,
           quantity, stock, custom_fields, search_text, created_at, updated_at, change_seq, created_seq)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    // New rows take the next rowids of the organization's range (migration 2), read once
    // per transaction. An unknown organization gets none and fails on its foreign key.
    let nextSeq: number | null | undefined;
    let lastSeq = 0;
    const allocateSeq = (): number | null => {
      if (nextSeq === undefined) {
        const organizationSeq = this.organizationSeq(organizationId);
        if (organizationSeq === null) nextSeq = null;
        else {
          const [lo, hi] = organizationRange(organizationSeq);
          const max = (
            this.stmt('SELECT MAX(seq) AS m FROM items WHERE seq BETWEEN ? AND ?').get(lo, hi) as {
              m: number | null;
            }
          ).m;
          nextSeq = (max ?? lo) + 1;
          lastSeq = Math.min(hi, Number.MAX_SAFE_INTEGER);
        }
      }
      if (nextSeq === null) return null;
      if (nextSeq > lastSeq) {
        throw new StoreConflictError('this organization has used up its range of item rows');
      }
      return nextSeq++;
    };
    // SQLite rewrites the entries of every index holding a column the statement sets, equal
    // value or not: barcode and status are set only when they change, so an update of, say,
    // quantities leaves their indexes alone (the barcode index's entries are scattered: a
    // rewrite dirties a page per row; 100,000 updates took 3.7 s with it, 1.5 s without).
    const update = (barcode: boolean, status: boolean) =>
      this.stmt(
        `UPDATE items SET name = ?, description = ?, ${barcode ? 'barcode = ?, ' : ''}${status ? 'status = ?, ' : ''}
             quantity = ?, stock = ?, custom_fields = ?, search_text = ?, updated_at = ?, change_seq = ?
           WHERE organization_id = ? AND id = ?`,
      );
    // Every created or updated row takes the organization's next change number (read once,
    // under the write lock); the organization keeps the last one when the write commits.
    const changes = this.changeClock(organizationId, now);
    // New ids sort after every id of the organization, as their rowids do (item-search.ts
    // relies on rowid order being _id order); read once per transaction, under the write lock.
    let idFloor: string | null | undefined;
    const nextId = (): string => {
      if (idFloor === undefined) {
        idFloor =
          (
            this.stmt('SELECT MAX(id) AS m FROM items WHERE organization_id = ?').get(
              organizationId,
            ) as { m: string | null }
          ).m ?? null;
      }
      idFloor = newIdAfter(idFloor, now);
      return idFloor;
    };
    // Rows this write leaves queued for the search index (a bulk load), once committed.
    let queuedNow = 0;
    // The organization's location codes, read once when a row gives stock.
    let codes: Set<string> | undefined;
    const transaction = this.db.transaction(() => {
      for (const row of rows) {
        const sku = upsertKey(row);
        const stored =
          sku === undefined ? undefined : (bySku.get(organizationId, sku) as Row | undefined);
        const current = stored ? toItem(stored) : undefined;
        if (row.stock !== undefined && codes === undefined) {
          codes = this.locationCodes(organizationId);
        }
        const write = planRowWrite(row, current, now, row.stock === undefined ? undefined : codes);
        if (write === 'unchanged' || 'error' in write) {
          outcomes.push(write);
          continue;
        }
        if ('update' in write) {
          const next = write.update;
          const barcode = next.barcode !== current?.barcode;
          const status = next.status !== current?.status;
          update(barcode, status).run(
            next.name,
            next.description,
            ...(barcode ? [next.barcode] : []),
            ...(status ? [next.status] : []),
            next.quantity,
            next.stock,
            next.customFields,
            searchText(next),
            now,
            changes.next(),
            organizationId,
            next.id,
          );
          if (next.stock !== current?.stock)
            this.replaceStockRows(organizationId, next.id, next.stock);
          outcomes.push('updated');
          continue;
        }
        const item = write.create;
        // Its creation's number is also its first change's (webhooks tell created from updated).
        const createdSeq = changes.next();
        const id = nextId();
        insert.run(
          allocateSeq(),
          organizationId,
          id,
          item.name,
          item.description,
          item.sku,
          item.barcode,
          item.status,
          item.quantity,
          item.stock,
          item.customFields,
          searchText(item),
          now,
          now,
          createdSeq,
          createdSeq,
        );
        if (item.stock !== '[]') this.replaceStockRows(organizationId, id, item.stock);
        outcomes.push('created');
      }
      const failed = outcomes.some((outcome) => typeof outcome === 'object');
      if (options.dryRun || (options.allOrNothing && failed)) throw new Rollback();
      changes.commit();
      const written = outcomes.filter((o) => o === 'created' || o === 'updated').length;
      if (rows.length >= BULK_WRITE_ROWS) queuedNow = written;
      else if (this.pendingCount(SMALL_QUEUE_ROWS + 1) <= SMALL_QUEUE_ROWS) this.indexPending();
      // Otherwise a bulk load's rows are queued: its writer indexes them, in parts, with these.
    });
    try {
      transaction.immediate();
      this.queued += queuedNow;
    } catch (error) {
      if (!(error instanceof Rollback)) throw error;
    }
    return outcomes;
  }

  /** The organization's location codes, read in the caller's transaction. */
  protected locationCodes(organizationId: string): Set<string> {
    const rows = this.stmt('SELECT code FROM locations WHERE organization_id = ?').all(
      organizationId,
    ) as Array<{ code: string }>;
    return new Set(rows.map((row) => row.code));
  }

  /** Makes an item's item_stock rows those of its stock text, in the caller's transaction. */
  protected replaceStockRows(organizationId: string, itemId: string, stock: string): void {
    this.stmt('DELETE FROM item_stock WHERE organization_id = ? AND item_id = ?').run(
      organizationId,
      itemId,
    );
    const insert = this.stmt(
      'INSERT INTO item_stock (organization_id, item_id, location_code, quantity) VALUES (?, ?, ?, ?)',
    );
    for (const entry of parseStock(stock)) {
      insert.run(organizationId, itemId, entry.location, entry.quantity);
    }
  }

  async deleteItem(organizationId: string, by: ItemRef): Promise<boolean> {
    return (await this.deleteItems(organizationId, [by]))[0] === true;
  }

  async deleteItems(organizationId: string, refs: readonly ItemRef[]): Promise<boolean[]> {
    return this.run(() => {
      const deleted: boolean[] = [];
      this.db
        .transaction(() => {
          const now = Date.now();
          const changes = this.changeClock(organizationId, now);
          // The deleted row's before-image goes with its tombstone (migration 11).
          const returning = 'RETURNING id, change_seq, created_seq, status, custom_fields, stock';
          for (const by of refs) {
            const row = (
              'id' in by
                ? this.stmt(
                    `DELETE FROM items WHERE organization_id = ? AND id = ? ${returning}`,
                  ).get(organizationId, by.id)
                : this.stmt(
                    `DELETE FROM items WHERE organization_id = ? AND sku = ? ${returning}`,
                  ).get(organizationId, by.sku)
            ) as Row | undefined;
            deleted.push(row !== undefined);
            if (!row) continue;
            const seq = changes.next();
            this.stmt(
              'INSERT INTO item_tombstones (organization_id, seq, item_id, deleted_at) VALUES (?, ?, ?, ?)',
            ).run(organizationId, seq, row.id, now);
            this.stmt(
              `INSERT OR IGNORE INTO item_changes (organization_id, item_id, seq, prev_seq, created_seq,
                 changed_at, status, custom_fields, stock) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
            ).run(
              organizationId,
              row.id,
              seq,
              row.change_seq,
              row.created_seq,
              now,
              row.status,
              row.custom_fields,
              row.stock,
            );
          }
          changes.commit();
        })
        .immediate();
      return deleted;
    });
  }

  /**
   * Deletes up to `limit` of an organization's items, the first rows of its rowid range
   * (migration 2), in a transaction of its own; their stock rows and search index entries go
   * with them (the delete triggers). Returns the rows deleted, or null when the organization
   * does not exist. The organization's delete calls it until it deletes fewer than `limit`,
   * pausing between calls (lock-sharing.ts).
   */
  protected deleteOrganizationItemsPart(organizationId: string, limit: number): number | null {
    let deleted: number | null = null;
    this.db
      .transaction(() => {
        const organizationSeq = this.organizationSeq(organizationId);
        if (organizationSeq === null) return;
        const [lo, hi] = organizationRange(organizationSeq);
        // `+organization_id`: a walk of the rowid range, never of the organization's index,
        // which would be sorted by rowid for every part (quadratic: 400 s for 200,000 items).
        deleted = this.stmt(
          `DELETE FROM items WHERE seq IN (
             SELECT seq FROM items WHERE seq BETWEEN ? AND ? AND +organization_id = ? ORDER BY seq LIMIT ?)`,
        ).run(lo, hi, organizationId, limit).changes;
      })
      .immediate();
    return deleted;
  }

  /**
   * Deletes up to `limit` rows of an organization's tombstones or before-images (tables that
   * grow with its items), in a transaction of its own.
   */
  protected deleteOrganizationRowsPart(
    organizationId: string,
    table: 'item_tombstones' | 'item_changes',
    limit: number,
  ): number {
    const key = table === 'item_tombstones' ? 'seq' : '(item_id, seq)';
    const columns = table === 'item_tombstones' ? 'seq' : 'item_id, seq';
    return this.db
      .transaction(
        () =>
          this.stmt(
            `DELETE FROM ${table} WHERE organization_id = ? AND ${key} IN (
               SELECT ${columns} FROM ${table} WHERE organization_id = ? LIMIT ?)`,
          ).run(organizationId, organizationId, limit).changes,
      )
      .immediate();
  }
}
