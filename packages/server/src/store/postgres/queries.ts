import type pg from 'pg';
import type { Row } from '../rows.js';
import { StoreUnavailableError } from '../types.js';
import type { DatabaseAvailability } from './availability.js';
import { toStoreError } from './errors.js';
import type { Statement } from './item-query.js';
import { type PreparedStatement, prepared } from './prepared.js';

export type Queryable = Pick<pg.Pool, 'query'>;

/** Each pool's availability tracker (runOn reports every operation's outcome to it). */
const availabilityOf = new WeakMap<pg.Pool, DatabaseAvailability>();

/** Reports every operation on `pool` to `availability` (see runOn). */
export function trackAvailability(pool: pg.Pool, availability: DatabaseAvailability): void {
  availabilityOf.set(pool, availability);
}

/**
 * Runs database work, turning outages and deadlines into StoreUnavailableError (503), and
 * telling the pool's availability tracker whether the database answered.
 */
export async function runOn<T>(pool: pg.Pool, work: (db: Queryable) => Promise<T>): Promise<T> {
  if (pool.ended) throw new StoreUnavailableError('the database connection is closed');
  const availability = availabilityOf.get(pool);
  const startedAt = Date.now();
  try {
    const result = await work(pool);
    availability?.succeeded(startedAt);
    return result;
  } catch (error) {
    availability?.failed(error, startedAt);
    throw toStoreError(error);
  }
}

/** A page's statement, prepared when its plan cannot depend on its values (item-query.ts). */
export function statementOf(statement: Statement): string | PreparedStatement {
  return statement.name === undefined ? statement.sql : prepared(statement.name, statement.sql);
}

export function rowsOn(
  pool: pg.Pool,
  sql: string | PreparedStatement,
  params: unknown[] = [],
): Promise<Row[]> {
  const query = typeof sql === 'string' ? { text: sql } : sql;
  return runOn(pool, async (db) => (await db.query({ ...query, values: params })).rows as Row[]);
}

/** One transaction on one connection; rolled back when `work` throws. */
export function transactionOn<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  return runOn(pool, async () => {
    const client = await pool.connect();
    let broken = false;
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {
        broken = true;
      });
      throw error;
    } finally {
      // A connection whose rollback failed is not given back to the pool.
      client.release(broken);
    }
  });
}
