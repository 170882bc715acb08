import fs from 'node:fs';
import path from 'node:path';
import { StoreUnavailableError } from '../types.js';
import Database, { type SqliteDatabase, type SqliteStatement } from './driver.js';
import {
  indexFieldsSql,
  SEARCH_PART,
  searchPart,
  VISIBLE_MATCH,
  visibleMatch,
} from './item-scope.js';
import type { SearchLimits } from './item-search.js';
import { ChunkSizer, LOCK_POLL_MS, pauseForOtherWriters, sleepSync } from './lock-sharing.js';
import {
  MAX_MERGE_STEPS,
  mergeSearchStep,
  restoreSearchMerges,
  SEARCH_INDEXES,
  searchMergesSuspended,
  suspendSearchMerges,
} from './search-merging.js';

/**
 * SQLite's page cache of a server, in MiB. Bench, 1M-item database (`--only '^(item
 * detail|organization)$'`, two runs each): 32 MiB gave item detail 36-39% of the ceiling at an
 * RSS of 182 MB, 16 MiB 34-41% at 166 MB, 8 MiB 34-36% at 157 MB. The file's pages stay in the
 * operating system's cache either way; a larger cache only saves `pread` calls, and the 70 MB
 * (organization_id, id) index fits in neither.
 */
export const DEFAULT_CACHE_MIB = 16;

/** Where statement journals and sorts are kept outside migrations (see the constructor). */
export const TEMP_STORE = 'MEMORY';

function isBusy(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED' || code === 'SQLITE_CANTOPEN';
}

export interface SqliteStoreOptions {
  /** How long a writer waits for a lock before the request fails with 503. */
  busyTimeoutMs?: number;
  /** Bounds of one search request (item-search.ts); tests lower them to reach every plan. */
  searchLimits?: Partial<SearchLimits>;
  /** SQLite's page cache, in MiB (DEFAULT_CACHE_MIB unless given). */
  cacheMiB?: number;
  /**
   * `reader`: a connection that only reads (a reader thread of sqlite-threads.ts): it refuses
   * every write (query_only), never indexes the search queue, and reads an organization's
   * number afresh each time (the writer thread may delete the organization, and a new one
   * reuse its number). `writer` (the default): everything. `charger`: the serving thread's
   * connection for quota charges (threaded-store.ts): it writes, but never indexes the search
   * queue and never checkpoints (either can take long, and it runs on the serving thread).
   */
  role?: 'reader' | 'writer' | 'charger';
}

/**
 * One SQLite connection and what every part of the store shares over it: cached statements,
 * the lock-timeout error mapping, the search queue and the organizations' row ranges.
 *
 * The store is built in layers over it, one aggregate a layer (organizations, keys, audit,
 * change feed, item reads, item writes), each a small class extending the one below, so that
 * every method stays on the store's prototype chain: the thread worker calls methods by name
 * and tests count calls by wrapping that chain.
 */
export abstract class SqliteConnection {
  readonly file: string;
  protected readonly db: SqliteDatabase;
  private readonly statements = new Map<string, SqliteStatement>();
  protected readonly reader: boolean;
  /** Whether this connection indexes the search queue (at start, at close, after bulk writes). */
  protected readonly indexesQueue: boolean;
  private busyTimeoutMs: number;

  constructor(file: string, options: SqliteStoreOptions = {}) {
    this.file = file;
    if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
    try {
      this.db = new Database(file);
    } catch (error) {
      throw new StoreUnavailableError(
        `cannot open the SQLite database at ${file}: ${(error as Error).message}`,
      );
    }
    this.reader = options.role === 'reader';
    this.indexesQueue = (options.role ?? 'writer') === 'writer';
    this.busyTimeoutMs = options.busyTimeoutMs ?? 5000;
    this.db.pragma(`busy_timeout = ${this.busyTimeoutMs}`);
    // A reader opens a file its writer has already put in WAL mode (the mode is kept in it).
    if (!this.reader) this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('foreign_keys = ON');
    // A bounded page cache: memory stays flat however many items the file holds; the
    // operating system's file cache does the rest. (No mmap: it would count every page
    // touched in the process's RSS.)
    this.db.pragma(`cache_size = -${(options.cacheMiB ?? DEFAULT_CACHE_MIB) * 1024}`);
    // Checkpoint every 64 MiB of WAL rather than 4 MiB: a bulk load rewrites the same index
    // pages batch after batch, and each checkpoint copies them and syncs. The file is cut back
    // to that size after a checkpoint.
    this.db.pragma(`wal_autocheckpoint = ${options.role === 'charger' ? 0 : 16384}`);
    this.db.pragma(`journal_size_limit = ${64 * 1024 * 1024}`);
    // Statement journals in memory. Every row of a write is one INSERT or UPDATE whose trigger
    // (the search queue) makes SQLite keep a statement journal: a copy of each page the
    // statement touches that the transaction had already changed. Kept in a temporary file,
    // that is several system calls per row and per index; 100,000 rows imported with the
    // change-feed and barcode indexes took 13.5 s instead of 3.5 s (1.3 s without them). The
    // journal of one statement is bounded by what its transaction wrote before it. (Sorts spill
    // to memory too in this mode: migrate() builds its indexes with files instead.)
    this.db.pragma(`temp_store = ${TEMP_STORE}`);
    if (this.reader) this.db.pragma('query_only = ON');
    // Search under a key view that hides some of the searchable fields (item-scope.ts).
    this.db.function(VISIBLE_MATCH, { deterministic: true }, (text, needle, mask) =>
      visibleMatch(String(text), String(needle), String(mask)),
    );
    this.db.function(SEARCH_PART, { deterministic: true }, (text, k) =>
      searchPart(String(text), Number(k)),
    );
  }

  /** Rows this store queued for the search index since it last indexed the queue. */
  protected queued = 0;

  /** organization id → its number, which never changes (rowid ranges, see migration 2). */
  protected readonly organizationSeqs = new Map<string, number>();

  protected organizationSeq(organizationId: string): number | null {
    const cached = this.organizationSeqs.get(organizationId);
    if (cached !== undefined) return cached;
    const row = this.stmt('SELECT seq FROM organizations WHERE id = ?').get(organizationId) as
      | { seq: number }
      | undefined;
    if (!row) return null;
    if (!this.reader) this.organizationSeqs.set(organizationId, row.seq);
    return row.seq;
  }

  /**
   * How long the next statements wait for another connection's lock before failing with
   * StoreUnavailableError (busy_timeout). The writer thread sets what is left of each call's
   * deadline (sqlite-threads.ts).
   */
  setBusyTimeout(ms: number): void {
    const next = Math.max(0, Math.ceil(ms));
    if (next === this.busyTimeoutMs || !this.db.open) return;
    this.busyTimeoutMs = next;
    this.db.pragma(`busy_timeout = ${next}`);
  }

  /**
   * Runs a small write (a quota charge, say) in a transaction whose write lock is taken by
   * trying every LOCK_POLL_MS until `deadline` (epoch ms), not through busy_timeout, whose
   * sleeps grow to 100 ms and miss the short pauses of a bulk write (lock-sharing.ts). Only for
   * work whose transactions may nest (better-sqlite3 makes them savepoints) and that sets no
   * pragma: `work` runs inside the transaction, which commits when it returns and rolls back
   * when it throws.
   */
  async writeLocked<T>(deadline: number, work: () => Promise<T>): Promise<T> {
    if (!this.db.open) throw new StoreUnavailableError('the database connection is closed');
    const timeout = this.busyTimeoutMs;
    this.setBusyTimeout(0);
    try {
      for (;;) {
        try {
          this.db.exec('BEGIN IMMEDIATE');
          break;
        } catch (error) {
          if (!isBusy(error)) throw error;
          if (Date.now() >= deadline) {
            throw new StoreUnavailableError('the database is busy; try again shortly');
          }
          sleepSync(LOCK_POLL_MS);
        }
      }
    } finally {
      this.setBusyTimeout(timeout);
    }
    try {
      const result = await work();
      if (this.db.inTransaction) this.db.exec('COMMIT');
      return result;
    } catch (error) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      throw error;
    }
  }

  /**
   * Indexes the rows queued in items_search_pending (see migration 2), in the caller's
   * transaction or its own. One statement for the whole queue: FTS5 builds an index far
   * faster in one large batch than row by row.
   */
  protected indexPending(): void {
    this.queued = 0;
    this.db.transaction(() => {
      this.stmt(
        `INSERT INTO items_search (rowid, search_text)
         SELECT i.seq, i.search_text FROM items_search_pending p JOIN items i ON i.seq = p.seq`,
      ).run();
      for (const sql of indexFieldsSql('items_search_pending')) this.stmt(sql).run();
      this.stmt('DELETE FROM items_search_pending').run();
    })();
  }

  /** Rows queued for the search index, counted up to `cap`. */
  protected pendingCount(cap: number): number {
    return (
      this.stmt('SELECT count(*) AS n FROM (SELECT 1 FROM items_search_pending LIMIT ?)').get(
        cap,
      ) as { n: number }
    ).n;
  }

  /**
   * Brings the search index up to date if rows are queued (a bulk load's, or an interrupted
   * one's): in transactions of about BULK_TRANSACTION_MS, the first queued rows each, with a
   * pause after each (lock-sharing.ts), so that the other writers get in; a queue of 200,000
   * rows took seconds in one transaction. FTS5 merges no segments meanwhile, then merges them
   * in steps of their own (search-merging.ts).
   */
  protected async indexPendingInParts(): Promise<void> {
    if (this.pendingCount(1) === 0) {
      // A build cut short left merging suspended.
      if (searchMergesSuspended(this.db)) {
        await this.run(() => this.db.transaction(() => restoreSearchMerges(this.db)).immediate());
      }
      this.queued = 0;
      return;
    }
    const sizer = new ChunkSizer(2000, 50_000);
    for (let first = true; ; first = false) {
      const limit = sizer.rows;
      const started = performance.now();
      const indexed = await this.run(() =>
        this.db
          .transaction(() => {
            if (first) suspendSearchMerges(this.db);
            const queue = 'SELECT seq FROM items_search_pending ORDER BY seq LIMIT ?';
            this.stmt(
              `INSERT INTO items_search (rowid, search_text)
               SELECT i.seq, i.search_text FROM (${queue}) p JOIN items i ON i.seq = p.seq`,
            ).run(limit);
            for (const sql of indexFieldsSql(`(${queue})`)) this.stmt(sql).run(limit);
            return this.stmt(`DELETE FROM items_search_pending WHERE seq IN (${queue})`).run(limit)
              .changes;
          })
          .immediate(),
      );
      sizer.took(indexed, performance.now() - started);
      if (indexed < limit) break;
      await pauseForOtherWriters();
    }
    this.queued = 0;
    for (const table of SEARCH_INDEXES) {
      // Bounded all the same: a step that kept reporting work would not hold the close forever.
      for (let step = 0; step < MAX_MERGE_STEPS; step++) {
        await pauseForOtherWriters();
        const merged = await this.run(() =>
          this.db.transaction(() => mergeSearchStep(this.db, table)).immediate(),
        );
        if (!merged) break;
      }
    }
    await this.run(() => this.db.transaction(() => restoreSearchMerges(this.db)).immediate());
  }

  /** A cached statement in raw mode (rows as arrays), apart from the object-mode ones. */
  protected rawStmt(sql: string): SqliteStatement {
    const key = `raw:${sql}`;
    let statement = this.statements.get(key);
    if (!statement) {
      statement = this.db.prepare(sql).raw(true);
      this.statements.set(key, statement);
    }
    return statement;
  }

  protected stmt(sql: string): SqliteStatement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** Runs engine work, turning lock timeouts into the error the API answers 503 for. */
  protected run<T>(work: () => T): Promise<T> {
    if (!this.db.open) {
      return Promise.reject(new StoreUnavailableError('the database connection is closed'));
    }
    try {
      return Promise.resolve(work());
    } catch (error) {
      if (isBusy(error)) {
        return Promise.reject(new StoreUnavailableError('the database is busy; try again shortly'));
      }
      return Promise.reject(error);
    }
  }
}
