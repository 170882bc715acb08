import {
  type NonFiniteFound,
  nonFiniteQueries,
  refuseNonFinite,
  SQLITE_NON_FINITE,
} from '../quantity-check.js';
import type { SqliteDatabase } from './driver.js';

/** The start-up check of store/quantity-check.ts on a migrated SQLite database. */
export function checkStoredQuantities(db: SqliteDatabase): void {
  const queries = nonFiniteQueries(SQLITE_NON_FINITE);
  const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
  const example = db.prepare(queries.example).raw().get() as [string, string] | undefined;
  const found: NonFiniteFound = {
    items: count(queries.items),
    stockRows: count(queries.stockRows),
    example: example ? { organizationId: example[0], itemId: example[1] } : null,
  };
  refuseNonFinite(found, SQLITE_NON_FINITE);
}
