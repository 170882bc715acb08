import { isPostgresUrl } from '../config.js';
import { SqliteStore } from './sqlite/sqlite-store.js';
import { threadScriptBuilt } from './sqlite/sqlite-threads.js';
import { ThreadedSqliteStore } from './sqlite/threaded-store.js';
import type { Store } from './types.js';

export interface OpenStoreOptions {
  /** PostgreSQL connections of this process. */
  poolSize?: number;
  /** Deadline of one database operation: statement_timeout / busy_timeout, in ms. */
  timeoutMs?: number;
  /** SQLite's page cache in MiB (sqlite/connection.ts DEFAULT_CACHE_MIB unless given). */
  sqliteCacheMiB?: number;
  /**
   * A serving process: SQLite's statements run on threads (sqlite-threads.ts), never on the
   * caller's event loop. Without it (the CLI, scripts) the synchronous store. Run from the
   * TypeScript sources, where the thread's script is not built, the synchronous store too.
   */
  threads?: boolean;
  /** With `threads`: a thread died or ran past its deadline and was replaced. */
  onThreadLost?: (info: { role: 'reader' | 'writer'; reason: string }) => void;
}

/** Opens the engine the database URL names. */
export async function openStore(
  databaseUrl: string,
  options: OpenStoreOptions = {},
): Promise<Store> {
  if (isPostgresUrl(databaseUrl)) {
    // Loaded only for PostgreSQL: pg and pg-cursor cost a SQLite start time for nothing.
    const { PostgresStore } = await import('./postgres/postgres-store.js');
    return new PostgresStore(databaseUrl, options);
  }
  if (options.threads && databaseUrl !== ':memory:' && threadScriptBuilt()) {
    return ThreadedSqliteStore.open(databaseUrl, {
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      ...(options.sqliteCacheMiB === undefined ? {} : { cacheMiB: options.sqliteCacheMiB }),
      ...(options.onThreadLost ? { onThreadLost: options.onThreadLost } : {}),
    });
  }
  return new SqliteStore(databaseUrl, {
    ...(options.timeoutMs === undefined ? {} : { busyTimeoutMs: options.timeoutMs }),
    ...(options.sqliteCacheMiB === undefined ? {} : { cacheMiB: options.sqliteCacheMiB }),
  });
}
