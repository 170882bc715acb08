import type pg from 'pg';
import { ChangePageBuilder } from '../changes.js';
import { filtersRows } from '../item-scope.js';
import { type Row, toChangedItem } from '../rows.js';
import type { ChangeFeedStore, ChangePage, ChangeQuery, Item } from '../types.js';
import { LIST_SLICE_ROWS } from './cursor.js';
import { PostgresInstallation } from './installation.js';
import { changeListStatement } from './item-query.js';
import { statementOf } from './queries.js';

/** The change feed on PostgreSQL: its pages, and the purge of old tombstones. */
export abstract class PostgresChangeFeed extends PostgresInstallation implements ChangeFeedStore {
  async listChanges(organizationId: string, query: ChangeQuery): Promise<ChangePage> {
    const statement = changeListStatement(organizationId, query, this.scanBudget);
    // Whether the statement reads `in_scope` (as changeListStatement decides).
    const exits = query.includeDeleted && filtersRows(query.scope);
    // Rows come merged in change order; each is handed on as it is read (see onItem), so a
    // page's items need not all be alive at once.
    const builder = new ChangePageBuilder(query);
    let organizationSeq: number | undefined;
    // Where a page that may pass over changes stopped examining them (changeListStatement).
    let examinedThrough: number | null = null;
    const offer = (rows: Row[]): boolean => {
      for (const row of rows) {
        if (organizationSeq === undefined) {
          organizationSeq = row.organization_seq as number;
          examinedThrough = (row.examined_through as number | null | undefined) ?? null;
        }
        if (row.change_seq === null) continue;
        let kept: boolean;
        if (row.deleted_at !== null) {
          kept = builder.addTombstone({
            id: row.id as string,
            deletedAt: row.deleted_at as number,
            seq: row.change_seq as number,
          });
        } else if (exits && row.in_scope !== true) {
          // A changed item outside the key's scope: one of its deletions (ChangeQuery.scope).
          // Out unless the scope surely holds: a condition on an absent custom field is NULL,
          // not false (a WHERE would leave the row out just the same).
          kept = builder.addTombstone({
            id: row.id as string,
            deletedAt: Math.max(row.updated_at as number, query.scopeSince ?? 0),
            seq: row.change_seq as number,
          });
        } else {
          kept = builder.addItem(toChangedItem(row));
        }
        if (!kept) return false;
      }
      return true;
    };
    // A page longer than one fetch goes through a cursor, as list pages do: read as one result,
    // its 1.4 MB were parsed in one callback, and the stall check after sync pages measured
    // p99 16.7 and 31.5 ms instead of 4.6 and 5.0 (BENCHMARKS.md). A shorter one (a sync that
    // has caught up) keeps its prepared statement, which a cursor cannot run.
    if (query.limit > LIST_SLICE_ROWS) {
      for await (const slice of this.cursorRows(statement.sql, statement.params)) {
        if (!offer(slice)) break;
      }
    } else {
      offer(await this.rows(statementOf(statement), statement.params));
    }
    // No row at all: the organization does not exist.
    if (organizationSeq === undefined) {
      return { items: [], deleted: [], throughSeq: query.afterSeq, more: false };
    }
    return builder.finish(organizationSeq, examinedThrough);
  }

  async purgeTombstones(before: number): Promise<number> {
    const purged = await this.purgeBatches(
      `WITH batch AS (
         SELECT organization_id, seq FROM item_tombstones WHERE deleted_at < $1 LIMIT $2
       )
       DELETE FROM item_tombstones t USING batch b
       WHERE t.organization_id = b.organization_id AND t.seq = b.seq`,
      before,
    );
    // Before-images as old serve no sync point that is not expired (a missing one only makes
    // a sync name an item it may not have seen).
    await this.purgeBatches(
      `WITH batch AS (
         SELECT organization_id, item_id, seq FROM item_changes WHERE changed_at < $1 LIMIT $2
       )
       DELETE FROM item_changes c USING batch b
       WHERE c.organization_id = b.organization_id AND c.item_id = b.item_id AND c.seq = b.seq`,
      before,
    );
    return purged;
  }

  /**
   * Runs a purge statement in batches, each its own statement: every one well within the
   * statement deadline however many rows have expired.
   */
  private async purgeBatches(sql: string, before: number): Promise<number> {
    let purged = 0;
    for (;;) {
      const removed = await this.run(async (db) => {
        const result = await db.query(sql, [before, this.deleteBatchSize]);
        return result.rowCount ?? 0;
      });
      purged += removed;
      if (removed < this.deleteBatchSize) return purged;
    }
  }
}

/**
 * Takes the change numbers of one write: `changes.length` consecutive numbers from
 * max(the organization's last + 1, now × 1000), by one UPDATE of the organization's row, which
 * stays locked until the write commits. The next writer of the organization waits on that lock
 * and numbers after this one's commit, so numbers follow commit order: a reader who sees
 * number N has seen every change up to N, and a change committed late is never skipped.
 * Returns each item's number (the last of its changes).
 */
export async function takeChangeSeqs(
  client: pg.PoolClient,
  organizationId: string,
  changes: Item[],
  now: number,
): Promise<Map<Item, number>> {
  const seqs = new Map<Item, number>();
  if (changes.length === 0) return seqs;
  const result = await client.query(
    `UPDATE organizations SET change_seq = GREATEST(change_seq + 1, $2::bigint) + $3::bigint - 1
     WHERE id = $1 RETURNING change_seq`,
    [organizationId, now * 1000, changes.length],
  );
  // An unknown organization has no row: its inserts fail on their foreign key.
  const last = (result.rows[0]?.change_seq as number | undefined) ?? now * 1000;
  const first = last - changes.length + 1;
  for (const [k, item] of changes.entries()) seqs.set(item, first + k);
  return seqs;
}
