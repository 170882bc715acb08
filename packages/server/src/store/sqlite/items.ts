import { foldScope } from '../item-scope.js';
import type { Row } from '../rows.js';
import { unsearchable } from '../storable.js';
import { collectSlices, nextTurn } from '../turns.js';
import type { Item, ItemQuery, ItemScope } from '../types.js';
import { SqliteChangeFeed } from './changes.js';
import type { SqliteStoreOptions } from './connection.js';
import { ITEM_COLUMNS, ITEM_COLUMNS_I, toItemFromRaw } from './item-rows.js';
import { scopeSql, searchFieldsSql } from './item-scope.js';
import {
  CommonNeedles,
  DEFAULT_SEARCH_LIMITS,
  OrganizationExtents,
  type SearchLimits,
  searchItems,
  TrigramStats,
  walkSlice,
} from './item-search.js';

/**
 * Rows per keyset slice of a large list page (see listItems). Two large pages are built at
 * once and a turn of the event loop runs one slice of each, so this bounds how long another
 * request waits: about 1 ms per 100 rows read and turned into bytes (bench: item-detail p50
 * under limit=1000 pages 2.9 ms with 200-row slices, 1.9 ms with 100).
 */
const LIST_SLICE_ROWS = 100;

function hasExactFilter(query: ItemQuery): boolean {
  return query.sku !== undefined || query.barcode !== undefined || query.ids !== undefined;
}

/** Item reads on SQLite: list pages in slices, searches (item-search.ts), lookups, counts. */
export abstract class SqliteItems extends SqliteChangeFeed {
  private readonly searchLimits: SearchLimits;
  /** Statistics that choose search plans (item-search.ts). */
  private readonly searchStats = {
    extents: new OrganizationExtents({ stmt: (sql) => this.rawStmt(sql) }),
    trigrams: new TrigramStats({ stmt: (sql) => this.rawStmt(sql) }),
    common: new CommonNeedles(),
  };

  constructor(file: string, options: SqliteStoreOptions = {}) {
    super(file, options);
    this.searchLimits = { ...DEFAULT_SEARCH_LIMITS, ...options.searchLimits };
  }

  async listItems(organizationId: string, query: ItemQuery): Promise<Item[]> {
    return collectSlices(this.listItemSlices(organizationId, query));
  }

  /**
   * A large page is read in keyset slices with a turn of the event loop between them, so a
   * limit=1000 request never holds the loop for its whole length: other requests are served in
   * between, and the caller can turn each slice into bytes before the next (short-lived
   * strings are cheap to collect). Same rows as one query: each slice continues from the last
   * id. A search page read by an index plan (item-search.ts), bounded by it, is one slice; a
   * search that walks the organization is walked in slices too (searchWalk).
   */
  async *listItemSlices(organizationId: string, asked: ItemQuery): AsyncGenerator<Item[]> {
    // The key's scope: a status or location of it served by their indexes, the rest tested.
    const query = foldScope(asked);
    if (query === null) return;
    // With location=, the page walks that location's index instead (itemSlice).
    if (query.search !== undefined && !hasExactFilter(query) && query.location === undefined) {
      const needle = query.search;
      const plan = await this.run(() => {
        // U+0000 separates the fields of search_text and is never stored in them.
        if (unsearchable(needle)) return { rows: [] };
        // Scoped by the organization's rowid range and bounded: see item-search.ts.
        const seq = this.organizationSeq(organizationId);
        if (seq === null) return { rows: [] };
        return searchItems(
          { stmt: (sql) => this.rawStmt(sql) },
          this.searchStats,
          ITEM_COLUMNS_I,
          organizationId,
          seq,
          needle,
          query,
          this.searchLimits,
        );
      });
      if ('rows' in plan) yield plan.rows.map(toItemFromRaw);
      else yield* this.searchWalk(organizationId, needle, query, plan.walk.budget);
      return;
    }
    let afterId = query.afterId;
    let remaining = query.limit;
    for (;;) {
      const want = Math.min(LIST_SLICE_ROWS, remaining);
      const slice = await this.run(() => this.itemSlice(organizationId, query, afterId, want));
      yield slice;
      remaining -= slice.length;
      const last = slice[slice.length - 1];
      if (slice.length < want || remaining <= 0 || !last) return;
      afterId = last.id;
      await nextTurn();
    }
  }

  /**
   * The ordered walk of a search (item-search.ts), `walkSliceRows` rows per turn of the event
   * loop: at most `budget` rows examined (null: to the organization's end), and a short page
   * reported through onPartialPage when the budget runs out first. Between slices other
   * requests run, and may write: like the list's keyset slices, each slice continues after
   * the last `_id` examined, so every match is still returned once.
   */
  private async *searchWalk(
    organizationId: string,
    needle: string,
    query: ItemQuery,
    budget: number | null,
  ): AsyncGenerator<Item[]> {
    const sliceRows = this.searchLimits.walkSliceRows;
    let afterId = query.afterId;
    let examined = 0;
    let found = 0;
    for (;;) {
      const examine = budget === null ? sliceRows : Math.min(sliceRows, budget - examined);
      const slice = await this.run(() =>
        walkSlice(
          { stmt: (sql) => this.rawStmt(sql) },
          ITEM_COLUMNS_I,
          organizationId,
          needle,
          query,
          afterId,
          examine,
          query.limit - found,
        ),
      );
      examined += examine;
      found += slice.rows.length;
      if (slice.rows.length > 0) yield slice.rows.map(toItemFromRaw);
      if (found >= query.limit || slice.lastExamined === null) return;
      if (budget !== null && examined >= budget) {
        query.onPartialPage?.(slice.lastExamined);
        return;
      }
      afterId = slice.lastExamined;
      await nextTurn();
    }
  }

  private itemSlice(
    organizationId: string,
    query: ItemQuery,
    afterId: string | undefined,
    limit: number,
  ): Item[] {
    const where = ['i.organization_id = ?'];
    const params: unknown[] = [organizationId];
    // location=: the keyset walk of the location's positive rows (item_stock_positive), in
    // item _id order, each item then read through (organization_id, id).
    let from = 'items i';
    let idColumn = 'i.id';
    if (query.location !== undefined) {
      // Named, and the stock rows as the outer loop (CROSS JOIN keeps SQLite's join order):
      // planned without statistics, SQLite otherwise walks item_stock's primary key from the
      // cursor and filters by location, a walk of the whole organization for a rare one. The
      // `+` keeps the cursor's `s.item_id > ?` from being carried over to `i.id > ?`, which
      // SQLite then preferred to the equality: a range scan of the items per stock row
      // (220 ms instead of 1.2 ms for a page of 20,000 items).
      from =
        'item_stock s INDEXED BY item_stock_positive CROSS JOIN items i ON i.organization_id = s.organization_id AND i.id = +s.item_id';
      where[0] = 's.organization_id = ? AND s.location_code = ? AND s.quantity > 0';
      params.push(query.location);
      idColumn = 's.item_id';
    }
    if (query.status !== undefined) {
      where.push('i.status = ?');
      params.push(query.status);
    }
    // Exact filters go through their indexes: (organization_id, sku) (unique), (organization_id,
    // barcode, id) and (organization_id, id); a search beside them only filters those few rows.
    if (query.sku !== undefined) {
      where.push('i.sku = ?');
      params.push(query.sku);
    }
    if (query.barcode !== undefined) {
      where.push('i.barcode = ?');
      params.push(query.barcode);
    }
    if (query.ids !== undefined) {
      // One statement whatever the number of ids (a JSON array), not one per list length.
      where.push('i.id IN (SELECT value FROM json_each(?))');
      params.push(JSON.stringify(query.ids));
    }
    if (query.search !== undefined) {
      if (unsearchable(query.search)) return [];
      // Under a view that hides searchable fields, the needle is tested on the visible ones
      // alone: the hidden text is not read (item-search.ts, walkSliceSql).
      const visible = searchFieldsSql(query.scope, 'i', query.search);
      if (visible.sql === '') {
        where.push('instr(i.search_text, ?) > 0');
        params.push(query.search);
      } else {
        where.push(visible.sql.slice(' AND '.length));
        params.push(...visible.params);
      }
    }
    const scope = scopeSql(query.scope, 'i');
    if (scope.sql !== '') {
      where.push(scope.sql.slice(' AND '.length));
      params.push(...scope.params);
    }
    if (afterId !== undefined) {
      where.push(`${idColumn} > ?`);
      params.push(afterId);
    }
    params.push(limit);
    const sql = `SELECT ${ITEM_COLUMNS_I} FROM ${from} WHERE ${where.join(' AND ')} ORDER BY ${idColumn} LIMIT ?`;
    return (this.rawStmt(sql).all(...params) as unknown[][]).map(toItemFromRaw);
  }

  async getItem(organizationId: string, id: string, scope?: ItemScope): Promise<Item | null> {
    return this.run(() => {
      const inScope = scopeSql(scope, 'i');
      const row = this.rawStmt(
        `SELECT ${ITEM_COLUMNS} FROM items i WHERE organization_id = ? AND id = ?${inScope.sql}`,
      ).get(organizationId, id, ...inScope.params) as unknown[] | undefined;
      return row ? toItemFromRaw(row) : null;
    });
  }

  /**
   * Nothing to do: the SQLite store never runs ANALYZE, so its plans come from the schema and
   * the statements alone (item-search.test.ts holds them to their indexes) and do not change
   * when the data does.
   */
  async refreshItemStatistics(_changedItems: number): Promise<boolean> {
    return false;
  }

  async countItems(organizationId: string): Promise<number> {
    return this.run(
      () =>
        (
          this.stmt('SELECT COUNT(*) AS n FROM items WHERE organization_id = ?').get(
            organizationId,
          ) as Row
        ).n as number,
    );
  }
}
