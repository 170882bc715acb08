import type pg from 'pg';
import type { Row } from '../rows.js';
import { DEFAULT_SCAN_BUDGET } from '../search.js';
import { DatabaseAvailability, databaseTarget } from './availability.js';
import { cursorRows } from './cursor.js';
import { createPool, type PostgresOptions } from './pool.js';
import type { PreparedStatement } from './prepared.js';
import { type Queryable, rowsOn, runOn, trackAvailability, transactionOn } from './queries.js';

/** Items per statement when deleting an organization: each statement well within its deadline. */
const DELETE_BATCH = 10_000;

export interface PostgresStoreOptions extends PostgresOptions {
  /** Rows a search for a needle of 1–2 characters examines (store/search.ts); tests lower it. */
  scanBudget?: number;
  /** Items per statement when deleting an organization (default DELETE_BATCH); tests lower it. */
  deleteBatchSize?: number;
}

/**
 * One node-postgres pool and what every part of the store shares over it: queries that report
 * to the availability tracker, transactions and cursors.
 *
 * The store is built in layers over it, one aggregate a layer (keys, audit, change feed, item
 * reads, item writes, organizations), each a small class extending the one below, so that every
 * method stays on the store's prototype chain, where tests count calls by wrapping it.
 */
export abstract class PostgresConnection {
  protected readonly pool: pg.Pool;
  protected readonly scanBudget: number;
  protected readonly deleteBatchSize: number;
  /** How long one cursor step may take: the pool's own client-side deadline (pool.ts). */
  protected readonly readDeadlineMs: number;
  /** Whether the database is reachable; logs when it goes away and when it is back. */
  readonly availability: DatabaseAvailability;

  constructor(connectionString: string, options: PostgresStoreOptions = {}) {
    this.pool = createPool(connectionString, options);
    this.availability = new DatabaseAvailability(databaseTarget(connectionString));
    trackAvailability(this.pool, this.availability);
    this.scanBudget = options.scanBudget ?? DEFAULT_SCAN_BUDGET;
    this.deleteBatchSize = options.deleteBatchSize ?? DELETE_BATCH;
    const timeoutMs = options.timeoutMs ?? 5000;
    this.readDeadlineMs = timeoutMs + Math.max(timeoutMs, 1000);
  }

  protected run<T>(work: (db: Queryable) => Promise<T>): Promise<T> {
    return runOn(this.pool, work);
  }

  protected rows(sql: string | PreparedStatement, params: unknown[] = []): Promise<Row[]> {
    return rowsOn(this.pool, sql, params);
  }

  protected transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return transactionOn(this.pool, work);
  }

  /** The rows of one statement through a cursor (cursor.ts), a slice per fetch. */
  protected cursorRows(sql: string, params: unknown[]): AsyncGenerator<Row[]> {
    const { pool, availability, readDeadlineMs } = this;
    return cursorRows({ pool, availability, readDeadlineMs }, sql, params);
  }
}
