import { ChangePageBuilder, changeSliceSize, mergeChanges, skipsChanges } from '../changes.js';
import { filtersRows } from '../item-scope.js';
import type { Row } from '../rows.js';
import { DEFAULT_SCAN_BUDGET } from '../search.js';
import type { ChangeFeedStore, ChangePage, ChangeQuery } from '../types.js';
import { seenSinceSql } from './before-images.js';
import type { SqliteStoreOptions } from './connection.js';
import { SqliteInstallation } from './installation.js';
import { ITEM_COLUMNS, toChangedItemFromRaw } from './item-rows.js';
import { scopeSql } from './item-scope.js';

/** Tombstones deleted per statement by purgeTombstones. */
const PURGE_BATCH = 10_000;

/** The location filter of a change page: the item has more than 0 there now. */
const STOCKED_AT = ` AND EXISTS (SELECT 1 FROM item_stock s WHERE s.organization_id = items.organization_id
  AND s.item_id = items.id AND s.location_code = ? AND s.quantity > 0)`;

/**
 * The size-th change after a position, read on the indexes alone ((organization_id,
 * change_seq) and the tombstones' primary key): where a slice of a page that may pass over
 * changes stops examining them (ChangePage.more). Parameters: organization, position, offset
 * (size - 1).
 */
const ITEMS_EXAMINED_THROUGH = `SELECT change_seq FROM items WHERE organization_id = ? AND change_seq > ?
  ORDER BY change_seq LIMIT 1 OFFSET ?`;
/** The same over items and tombstones in change order: organization, position, size, twice, then the offset. */
const CHANGES_EXAMINED_THROUGH = `SELECT seq FROM (
    SELECT seq FROM (SELECT change_seq AS seq FROM items WHERE organization_id = ? AND change_seq > ?
      ORDER BY change_seq LIMIT ?)
    UNION ALL
    SELECT seq FROM (SELECT seq FROM item_tombstones WHERE organization_id = ? AND seq > ?
      ORDER BY seq LIMIT ?)
  ) ORDER BY seq LIMIT 1 OFFSET ?`;

/** The change feed on SQLite: the change clock of writes, and the feed's pages. */
export abstract class SqliteChangeFeed extends SqliteInstallation implements ChangeFeedStore {
  /** Changes a page that may pass over some examines at most (the search's scan budget). */
  private readonly changeScanBudget: number;

  constructor(file: string, options: SqliteStoreOptions = {}) {
    super(file, options);
    this.changeScanBudget = options.searchLimits?.scanBudget ?? DEFAULT_SCAN_BUDGET;
  }

  /**
   * The change numbers of one write transaction of an organization (run it under the write
   * lock): the first is max(the organization's last + 1, now × 1000), then one more per change,
   * so numbers never go backwards and a number divided by 1000 is never before its change's
   * `now`. `commit` records the last one taken on the organization, in the same transaction.
   */
  protected changeClock(organizationId: string, now: number): { next(): number; commit(): void } {
    let next: number | undefined;
    let last: number | undefined;
    return {
      next: () => {
        if (next === undefined) {
          const row = this.stmt('SELECT change_seq FROM organizations WHERE id = ?').get(
            organizationId,
          ) as { change_seq: number } | undefined;
          // An unknown organization writes nothing: its rows fail on their foreign key.
          next = Math.max((row?.change_seq ?? 0) + 1, now * 1000);
        }
        last = next++;
        return last;
      },
      commit: () => {
        if (last === undefined) return;
        this.stmt('UPDATE organizations SET change_seq = ? WHERE id = ?').run(last, organizationId);
      },
    };
  }

  async listChanges(organizationId: string, query: ChangeQuery): Promise<ChangePage> {
    return this.run(() =>
      // One read transaction: the organization's counter and the rows after the position come
      // from the same snapshot, even while another process writes (WAL). A write is one
      // transaction that stamps its rows and the counter together, so the page never holds a
      // change past the counter, nor misses one below it.
      this.db.transaction(() => {
        const organization = this.stmt('SELECT change_seq FROM organizations WHERE id = ?').get(
          organizationId,
        ) as { change_seq: number } | undefined;
        if (!organization) {
          return { items: [], deleted: [], throughSeq: query.afterSeq, more: false };
        }
        const builder = new ChangePageBuilder(query);
        if (!skipsChanges(query)) {
          this.readSlice(organizationId, query, builder, query.afterSeq, null);
          return builder.finish(organization.change_seq);
        }
        // A page that may pass over changes examines at most its scan budget of them (a key's
        // view after many changes of items it never saw would otherwise read them all, every
        // page), in slices that grow until the page is full (changeSliceSize): each slice's
        // statements stop at its last change, whatever they leave out on the way.
        const budget = this.changeScanBudget;
        let afterSeq = query.afterSeq;
        let examined = 0;
        for (;;) {
          const size = changeSliceSize(query.limit, examined, budget);
          const end = this.sliceEnd(organizationId, query.includeDeleted, afterSeq, size);
          this.readSlice(organizationId, query, builder, afterSeq, end);
          if (builder.full || end === null) return builder.finish(organization.change_seq);
          examined += size;
          afterSeq = end;
          if (examined >= budget) return builder.finish(organization.change_seq, end);
        }
      })(),
    );
  }

  /**
   * Offers the changes in (afterSeq, end] (to the feed's end when `end` is null) to the
   * builder, as many as it has room for and one more of each kind, which says whether any
   * follow. Runs inside listChanges's read transaction.
   */
  private readSlice(
    organizationId: string,
    query: ChangeQuery,
    builder: ChangePageBuilder,
    afterSeq: number,
    end: number | null,
  ): void {
    const fetch = builder.room + 1;
    const bounded = end === null ? [] : [end];
    // The key's scope: rows outside it are left out, or, when deletions are listed, read
    // with a flag that turns them into the key's deletions (a last column, `in_scope`), and
    // only those the key could have seen (seenAfterSeq; the tombstones likewise).
    const scope = scopeSql(query.scope, 'items');
    const exits = query.includeDeleted && filtersRows(query.scope);
    const seen = (ref: Parameters<typeof seenSinceSql>[2]) =>
      exits && query.scope !== undefined && query.seenAfterSeq !== undefined
        ? seenSinceSql(query.scope, query.seenAfterSeq, ref)
        : { sql: '', params: [] };
    const seenTombstone = seen({
      organization: 'item_tombstones.organization_id',
      item: 'item_tombstones.item_id',
      tombstone: 'item_tombstones.seq',
    });
    // Tombstones first (at most fetch), so the items can be read as an iterator and merged
    // with them in one pass. The iterator must be closed before the transaction ends:
    // better-sqlite3 refuses the COMMIT, any write and this statement's next run while it is
    // open (mergeChanges closes it when the page is full).
    const tombstones = query.includeDeleted
      ? (
          this.stmt(
            `SELECT item_id, deleted_at, seq FROM item_tombstones
             WHERE organization_id = ? AND seq > ?${end === null ? '' : ' AND seq <= ?'}${seenTombstone.sql === '' ? '' : ` AND ${seenTombstone.sql}`}
             ORDER BY seq LIMIT ?`,
          ).all(organizationId, afterSeq, ...bounded, ...seenTombstone.params, fetch) as Row[]
        ).map((row) => ({
          id: row.item_id as string,
          deletedAt: row.deleted_at as number,
          seq: row.seq as number,
        }))
      : [];
    // Every row read is offered (a row the key never saw is not read at all), so the page
    // is full when rows follow it.
    const seenItem = seen({
      organization: 'items.organization_id',
      item: 'items.id',
      tombstone: null,
    });
    // Items one row at a time, each handed on before the next is read (see onItem).
    const rows = this.rawStmt(
      `SELECT ${ITEM_COLUMNS}, change_seq, created_seq${exits ? `, (1${scope.sql}) AS in_scope` : ''} FROM items
       WHERE organization_id = ? AND change_seq > ?${end === null ? '' : ' AND change_seq <= ?'}${query.status === undefined ? '' : ' AND status = ?'}${query.location === undefined ? '' : STOCKED_AT}${exits ? '' : scope.sql}${seenItem.sql === '' ? '' : ` AND (in_scope = 1 OR ${seenItem.sql})`}
       ORDER BY change_seq LIMIT ?`,
    ).iterate(
      ...(exits ? scope.params : []),
      organizationId,
      afterSeq,
      ...bounded,
      ...(query.status === undefined ? [] : [query.status]),
      ...(query.location === undefined ? [] : [query.location]),
      ...(exits ? [] : scope.params),
      ...seenItem.params,
      fetch,
    ) as IterableIterator<unknown[]>;
    mergeChanges(
      builder,
      rows,
      toChangedItemFromRaw,
      tombstones,
      exits
        ? // Out unless the scope surely holds: its conditions give NULL as well as 0 (an
          // empty status list is `IN (NULL)`), and a WHERE would leave such a row out too.
          { left: (row) => row[row.length - 1] !== 1, since: query.scopeSince ?? 0 }
        : undefined,
    );
  }

  /** The size-th change after a position (items, and tombstones when listed), or null when fewer follow. */
  private sliceEnd(
    organizationId: string,
    includeDeleted: boolean,
    afterSeq: number,
    size: number,
  ): number | null {
    const seq = includeDeleted
      ? this.stmt(CHANGES_EXAMINED_THROUGH)
          .pluck()
          .get(organizationId, afterSeq, size, organizationId, afterSeq, size, size - 1)
      : this.stmt(ITEMS_EXAMINED_THROUGH)
          .pluck()
          .get(organizationId, afterSeq, size - 1);
    return (seq as number | undefined) ?? null;
  }

  async purgeTombstones(before: number): Promise<number> {
    const purged = await this.purgeBatches(
      `DELETE FROM item_tombstones WHERE (organization_id, seq) IN (
         SELECT organization_id, seq FROM item_tombstones WHERE deleted_at < ? LIMIT ?)`,
      before,
    );
    // Before-images as old serve no sync point that is not expired (a missing one only makes
    // a sync name an item it may not have seen).
    await this.purgeBatches(
      `DELETE FROM item_changes WHERE (organization_id, item_id, seq) IN (
         SELECT organization_id, item_id, seq FROM item_changes WHERE changed_at < ? LIMIT ?)`,
      before,
    );
    return purged;
  }

  /**
   * Runs a purge statement in batches, each its own short write transaction, with a turn of the
   * event loop between them: a large purge never holds the write lock, or this process, for long.
   */
  private async purgeBatches(sql: string, before: number): Promise<number> {
    let purged = 0;
    for (;;) {
      const removed = await this.run(() => this.stmt(sql).run(before, PURGE_BATCH).changes);
      purged += removed;
      if (removed < PURGE_BATCH) return purged;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
}
