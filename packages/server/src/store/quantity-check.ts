/**
 * The start-up check of stored quantities, the same on every engine. Before quantities were
 * checked for being finite on every write (docs/architecture.md#items), stock quantities that
 * add up past the largest double (`{"A":1e308,"B":1e308}`) stored the item's quantity as
 * Infinity, which the API serves as `null`. A store that holds such a row refuses to start,
 * with the SQL that finds the rows and the SQL that resets them, rather than serve them.
 *
 * Each engine keeps a partial index of exactly these rows (migration 12), so the check reads
 * an empty index, not the table.
 */

/** An engine's words for "this quantity is not a finite number". */
export interface NonFinitePredicate {
  /** The condition on a `quantity` column, as the engine's partial indexes are defined. */
  sql: string;
}

/** On SQLite, Infinity is stored as a REAL; NaN becomes NULL (refused by NOT NULL). */
export const SQLITE_NON_FINITE: NonFinitePredicate = {
  sql: "quantity IN (9e999, -9e999) OR typeof(quantity) NOT IN ('integer', 'real')",
};

/** On PostgreSQL, double precision holds Infinity, -Infinity and NaN (which equals itself). */
export const POSTGRES_NON_FINITE: NonFinitePredicate = {
  sql: "quantity IN ('Infinity', '-Infinity', 'NaN')",
};

/** What the check found: how many rows, and one item to name. */
export interface NonFiniteFound {
  items: number;
  stockRows: number;
  example: { organizationId: string; itemId: string } | null;
}

/** The statements the check runs: counts and one example, through the partial indexes. */
export function nonFiniteQueries(predicate: NonFinitePredicate): {
  items: string;
  stockRows: string;
  example: string;
} {
  const where = predicate.sql;
  return {
    items: `SELECT count(*) AS n FROM items WHERE ${where}`,
    stockRows: `SELECT count(*) AS n FROM item_stock WHERE ${where}`,
    example: `SELECT organization_id, id FROM items WHERE ${where} UNION ALL SELECT organization_id, item_id FROM item_stock WHERE ${where} LIMIT 1`,
  };
}

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** Refuses a start: the stored rows, how to find them, and how to repair them. */
export class NonFiniteQuantitiesError extends Error {
  override name = 'NonFiniteQuantitiesError';

  constructor(
    readonly found: NonFiniteFound,
    predicate: NonFinitePredicate,
  ) {
    const where = predicate.sql;
    const what = [
      found.items > 0 ? plural(found.items, 'item', 'items') : null,
      found.stockRows > 0 ? plural(found.stockRows, 'stock row', 'stock rows') : null,
    ]
      .filter((part) => part !== null)
      .join(' and ');
    const example = found.example
      ? ` (for example item ${found.example.itemId} of organization ${found.example.organizationId})`
      : '';
    super(
      `${what} ${found.items + found.stockRows === 1 ? 'holds' : 'hold'} a quantity that is not a finite number${example}, which Stockroom would serve as null; repair them and start again. ` +
        `Find them: SELECT organization_id, id, sku, quantity FROM items WHERE ${where}; SELECT organization_id, item_id, location_code, quantity FROM item_stock WHERE ${where}; ` +
        `reset those items to quantity 0 and no stock rows: UPDATE items SET quantity = 0, stock = '[]' WHERE ${where} OR (organization_id, id) IN (SELECT organization_id, item_id FROM item_stock WHERE ${where}); DELETE FROM item_stock WHERE (organization_id, item_id) IN (SELECT organization_id, id FROM items WHERE stock = '[]'); ` +
        'then import their right quantities (stockroom items import), which syncs and webhooks see as changes.',
    );
  }
}

/** Throws NonFiniteQuantitiesError when the counts are not both 0. */
export function refuseNonFinite(found: NonFiniteFound, predicate: NonFinitePredicate): void {
  if (found.items > 0 || found.stockRows > 0) {
    throw new NonFiniteQuantitiesError(found, predicate);
  }
}
