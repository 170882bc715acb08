import pg from 'pg';

export interface PostgresOptions {
  /** Connections of this process (default 10). */
  poolSize?: number;
  /**
   * Deadline of one statement (statement_timeout), in ms (default 5000). Past it the
   * operation fails with StoreUnavailableError: the API's 503.
   */
  timeoutMs?: number;
}

const INT8 = 20;
const JSON_OID = 114;

/**
 * Type parsers for this pool only (the global ones stay untouched): bigint epoch-ms times and
 * counts come back as numbers (they stay far below 2^53), and json as its stored text, so
 * customFields are returned byte for byte instead of re-serialized.
 */
export const ROW_TYPES = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8) return (value: string) => Number(value);
    if (oid === JSON_OID) return (value: string) => value;
    return pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

/**
 * The connection string with `-c jit=off` added to its `options` (kept: a search_path, say).
 * No JIT compilation: it pays off for analytic queries of seconds, and cost these queries of
 * milliseconds more than they take. Once `items` has statistics, the planner's estimate for a
 * common needle's search passes jit_above_cost, and each execution compiled for 20-30 ms a
 * query that runs in 5 (BENCHMARKS.md). In the startup packet, so it holds from the first
 * query; a `pool.on('connect')` SET would race it (node-postgres warns it will refuse that).
 * The URL's `options` win over a `pool` option of the same name, hence the string.
 */
function withJitOff(connectionString: string): string {
  const query = connectionString.indexOf('?');
  const base = query < 0 ? connectionString : connectionString.slice(0, query);
  const params = new URLSearchParams(query < 0 ? '' : connectionString.slice(query + 1));
  const options = params.get('options');
  params.set('options', options ? `${options} -c jit=off` : '-c jit=off');
  return `${base}?${params.toString()}`;
}

export function createPool(connectionString: string, options: PostgresOptions = {}): pg.Pool {
  const timeoutMs = options.timeoutMs ?? 5000;
  const pool = new pg.Pool({
    connectionString: withJitOff(connectionString),
    max: options.poolSize ?? 10,
    // Getting a connection (a new one, or a free one from a busy pool) may take a little
    // longer than a statement under load; a refused connection fails at once either way.
    connectionTimeoutMillis: Math.max(timeoutMs, 3000),
    statement_timeout: timeoutMs,
    // statement_timeout is kept by the server, so it cannot fire when the server hangs or the
    // network drops packets; the client stops waiting at twice the deadline (at least a
    // second more), and the connection, answer pending, is discarded (errors.ts: 503).
    query_timeout: timeoutMs + Math.max(timeoutMs, 1000),
    // A transaction left open by a bug must not hold locks forever.
    idle_in_transaction_session_timeout: Math.max(timeoutMs * 6, 60_000),
    idleTimeoutMillis: 30_000,
    keepAlive: true,
    application_name: 'stockroom',
    types: ROW_TYPES,
  });
  // An idle connection that breaks (server restart) emits 'error' on the pool; without a
  // listener that would crash the process. The next query reports the outage instead.
  pool.on('error', () => {});
  // A connection checked out of the pool (a transaction, a cursor, a migration) has no pool
  // listener while out: when the server goes away between two of its statements, the client
  // emits 'error' with no statement to fail, and without this listener the process would
  // exit (an unhandled ECONNRESET, or 57P01 at `pg_ctl -m fast stop`). The client is marked
  // not queryable: its next statement fails (503), and the pool discards it when released.
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
  return pool;
}
