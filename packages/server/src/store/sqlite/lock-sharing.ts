/**
 * Sharing SQLite's one write lock between a bulk write and the small writes of the servers
 * (a quota charge is one: every request of a key with a quota makes it).
 *
 * A bulk write (an organization delete, an import's batches, the search index of a bulk load)
 * commits in transactions of about BULK_TRANSACTION_MS and leaves the lock free for
 * BULK_PAUSE_MS after each. A charge waiting for the lock tries again every LOCK_POLL_MS
 * (ThreadedSqliteStore's charges, SqliteConnection.writeLocked), so it gets in during the first
 * pause: it waits for about one transaction. SQLite's own busy handler would not do: it sleeps
 * 1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50, then 100 ms between tries, and misses a pause that
 * short. Measured (BENCHMARKS.md, "Heavy writes"): with one transaction for the whole write, a
 * charge waited seconds, or failed with 503 after DATABASE_TIMEOUT_MS. A transaction still runs
 * long (hundreds of ms, now and then) when FTS5 does work inside it that no row count bounds:
 * merging items_search's segments (dropping deleted rows' postings above all), and deleting from
 * the field indexes (contentless_delete). A bulk load's index build merges in steps of its own
 * (search-merging.ts); a delete cannot: its merge owed is one long step whenever it runs
 * (BENCHMARKS.md, "Heavy writes").
 */

/** What one transaction of a bulk write aims to hold the write lock for. */
export const BULK_TRANSACTION_MS = 20;

/** How long a bulk write leaves the write lock free between two of its transactions. */
export const BULK_PAUSE_MS = 10;

/** How often a small write that waits for the lock tries again. */
export const LOCK_POLL_MS = 1;

/** Lets the writers of other connections (and of other processes) in. */
export function pauseForOtherWriters(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, BULK_PAUSE_MS));
}

/**
 * How many rows the next transaction of a bulk write takes, so that it holds the lock about
 * BULK_TRANSACTION_MS: starts small and follows the time the last transactions took per row.
 */
export class ChunkSizer {
  private perRowMs: number | undefined;

  constructor(
    private readonly first = 500,
    private readonly max = 20_000,
  ) {}

  get rows(): number {
    if (this.perRowMs === undefined) return this.first;
    const rows = Math.floor(BULK_TRANSACTION_MS / Math.max(this.perRowMs, 1e-4));
    return Math.max(50, Math.min(this.max, rows));
  }

  /** Records a transaction: `rows` rows in `ms` milliseconds. */
  took(rows: number, ms: number): void {
    if (rows <= 0) return;
    const perRow = ms / rows;
    // Leans on the latest, keeps some memory: one slow transaction (a checkpoint) halves the next.
    this.perRowMs = this.perRowMs === undefined ? perRow : (this.perRowMs + perRow) / 2;
  }
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));

/** Blocks this thread for `ms` (the writer thread's wait between two tries for the lock). */
export function sleepSync(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}
