import { filtersRows } from '../item-scope.js';
import { type Row, toItem } from '../rows.js';
import { inTurns } from '../turns.js';
import type { Item, ItemQuery, ItemScope } from '../types.js';
import { PostgresChangeFeed } from './changes.js';
import { LIST_SLICE_ROWS } from './cursor.js';
import { itemListStatement } from './item-query.js';
import { scopeConditions } from './item-scope.js';
import { prepared } from './prepared.js';
import { statementOf } from './queries.js';
import { ITEM_COLUMNS } from './rows.js';

/** SQLSTATE of a lock not granted within lock_timeout. */
const LOCK_NOT_AVAILABLE = '55P03';

// An item by its key: prepared (prepared.ts), as its plan cannot depend on the values.
const ITEM_BY_ID = prepared(
  'item_by_id',
  `SELECT ${ITEM_COLUMNS} FROM items WHERE organization_id = $1 AND id = $2`,
);

/** Item reads on PostgreSQL: list pages through cursors, searches, lookups, statistics. */
export abstract class PostgresItems extends PostgresChangeFeed {
  async listItems(organizationId: string, query: ItemQuery): Promise<Item[]> {
    return (await this.listItemRows(organizationId, query)).map(toItem);
  }

  /**
   * A list page is read through a cursor, 100 rows per fetch, with a turn of the event loop
   * between fetches: read as one result, node-postgres parsed a whole 1.4 MB page in the
   * callback that read it (one turn of 2-5 ms), and its rows all lived until the last was
   * encoded. A search page that walks (item-query.ts) and a prepared lookup (a cursor cannot
   * run a named statement) are one query, their rows given in slices all the same. So is a
   * page of at most 100 items, which the cursor would read in one fetch anyway, plus a fetch
   * that finds nothing more and a close: one round trip instead of three, which a loaded
   * machine makes each wait for a core (measured at 1M items, 4 connections, the same build:
   * +15-20% req/s on `location=` pages and the limit=100 cursor walk, p50 0.5-1 ms lower).
   */
  async *listItemSlices(organizationId: string, query: ItemQuery): AsyncGenerator<Item[]> {
    const statement = itemListStatement(organizationId, query, this.scanBudget);
    if (!statement) return;
    if (statement.walk || statement.name !== undefined || query.limit <= LIST_SLICE_ROWS) {
      const rows = await this.listItemRows(organizationId, query);
      for await (const slice of inTurns(rows, LIST_SLICE_ROWS)) yield slice.map(toItem);
      return;
    }
    for await (const rows of this.cursorRows(statement.sql, statement.params)) {
      yield rows.map(toItem);
    }
  }

  private async listItemRows(organizationId: string, query: ItemQuery): Promise<Row[]> {
    const statement = itemListStatement(organizationId, query, this.scanBudget);
    if (!statement) return [];
    const rows = await this.rows(statementOf(statement), statement.params);
    if (!statement.walk) return rows;
    const found = rows.filter((row) => row.id !== null);
    const walkEnd = rows[0]?.walk_end as string | null | undefined;
    if (found.length < query.limit && walkEnd) query.onPartialPage?.(walkEnd);
    return found;
  }

  async getItem(organizationId: string, id: string, scope?: ItemScope): Promise<Item | null> {
    if (scope === undefined || !filtersRows(scope)) {
      const [row] = await this.rows(ITEM_BY_ID, [organizationId, id]);
      return row ? toItem(row) : null;
    }
    const params: unknown[] = [organizationId, id];
    const inScope = scopeConditions(scope, 'items', params);
    const [row] = await this.rows(
      `SELECT ${ITEM_COLUMNS} FROM items WHERE organization_id = $1 AND id = $2 AND ${inScope.join(' AND ')}`,
      params,
    );
    return row ? toItem(row) : null;
  }

  async countItems(organizationId: string): Promise<number> {
    const [row] = await this.rows('SELECT count(*) AS n FROM items WHERE organization_id = $1', [
      organizationId,
    ]);
    return row?.n as number;
  }

  async refreshItemStatistics(changedItems: number): Promise<boolean> {
    const [row] = await this.rows("SELECT reltuples FROM pg_class WHERE oid = 'items'::regclass");
    // -1: never analysed. Autovacuum's rule, with its default threshold and scale factor.
    const known = Number(row?.reltuples ?? -1);
    if (known >= 0 && changedItems <= 50 + 0.1 * known) return false;
    return this.analyze(['items', 'item_tombstones']);
  }

  /**
   * Statistics for the planner, gathered now rather than whenever autovacuum gets to the tables
   * (it may be slow, or off): without them every estimate is a default, and a search, list or
   * lookup page may be planned as if each organization held a few hundred rows. Without the
   * deadline of requests: ANALYZE reads a sample of each table (0.7 s at 1,000,000 items here).
   * False when another session holds a table against it for a second (autovacuum analysing
   * the rows just written, most likely): it is gathering the same statistics, and waiting for
   * it would hold the import or the copy for as long as it runs.
   */
  async analyze(tables: readonly string[]): Promise<boolean> {
    return this.transaction(async (client) => {
      await client.query('SET LOCAL statement_timeout = 0');
      await client.query("SET LOCAL lock_timeout = '1s'");
      try {
        await client.query(`ANALYZE ${tables.join(', ')}`);
        return true;
      } catch (error) {
        if ((error as { code?: unknown }).code === LOCK_NOT_AVAILABLE) return false;
        throw error;
      }
    });
  }
}
