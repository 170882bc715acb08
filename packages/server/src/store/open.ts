import { isPostgresUrl } from '../config.js';
import { PostgresStore } from './postgres/postgres-store.js';
import { SqliteStore } from './sqlite/sqlite-store.js';
import type { Store } from './types.js';

export interface OpenStoreOptions {
  /** PostgreSQL connections of this process. */
  poolSize?: number;
  /** Deadline of one database operation: statement_timeout / busy_timeout, in ms. */
  timeoutMs?: number;
  /** SQLite's page cache in MiB (sqlite-store.ts DEFAULT_CACHE_MIB unless given). */
  sqliteCacheMiB?: number;
}

/** Opens the engine the database URL names. */
export async function openStore(
  databaseUrl: string,
  options: OpenStoreOptions = {},
): Promise<Store> {
  if (isPostgresUrl(databaseUrl)) return new PostgresStore(databaseUrl, options);
  return new SqliteStore(databaseUrl, {
    ...(options.timeoutMs === undefined ? {} : { busyTimeoutMs: options.timeoutMs }),
    ...(options.sqliteCacheMiB === undefined ? {} : { cacheMiB: options.sqliteCacheMiB }),
  });
}
