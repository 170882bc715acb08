import { SEARCH_FIELDS } from '../types.js';
import type { SqliteDatabase } from './driver.js';
import { searchFieldTable } from './item-scope.js';

/**
 * FTS5's merging of the search indexes while a bulk load's index is built in parts
 * (SqliteConnection.indexPendingInParts). Every part commits one new segment per index, and
 * FTS5 merges segments inside the committing transaction, now and then for hundreds of ms, so
 * that part held the write lock that long (lock-sharing.ts). While the parts run, FTS5 merges
 * nothing (automerge 0, and no crisis merge below FTS5's maximum of segments a level); then
 * the segments are merged by 'merge' commands of MERGE_STEP_PAGES pages, each in a transaction
 * of its own. Measured on 200k rows (BENCHMARKS.md, "Heavy writes"): transactions over 50 ms
 * went from 51 to 7, and no merge step took over 63 ms. Not for deletions: a merge that drops
 * deleted rows' postings writes no pages, so a page budget does not bound it (one step of 2 s).
 *
 * The settings are FTS5's own, kept in each index's config table (every connection reads
 * them): a build cut short leaves merging suspended, which the next build, or the next start
 * or close of a writer with nothing queued, restores.
 */
export const SEARCH_INDEXES = ['items_search', ...SEARCH_FIELDS.map(searchFieldTable)];

/** Pages one 'merge' step writes at most. */
export const MERGE_STEP_PAGES = 64;

/** 'merge' steps on one index after a build, at most (a 200k-row build took 119 on five). */
export const MAX_MERGE_STEPS = 10_000;

/** FTS5's defaults, which no migration changes. */
const AUTOMERGE = 4;
const CRISISMERGE = 16;
/** FTS5's largest crisis-merge threshold. */
const NO_CRISISMERGE = 2000;

function configure(db: SqliteDatabase, table: string, key: string, value: number): void {
  // FTS5 takes only an integer, and a bound JavaScript number arrives as a real.
  db.prepare(`INSERT INTO ${table} (${table}, rank) VALUES (?, ?)`).run(key, BigInt(value));
}

export function suspendSearchMerges(db: SqliteDatabase): void {
  for (const table of SEARCH_INDEXES) {
    configure(db, table, 'automerge', 0);
    configure(db, table, 'crisismerge', NO_CRISISMERGE);
  }
}

export function restoreSearchMerges(db: SqliteDatabase): void {
  for (const table of SEARCH_INDEXES) {
    configure(db, table, 'automerge', AUTOMERGE);
    configure(db, table, 'crisismerge', CRISISMERGE);
  }
}

/** Whether a build left merging suspended (read from items_search's config table). */
export function searchMergesSuspended(db: SqliteDatabase): boolean {
  const row = db.prepare("SELECT v FROM items_search_config WHERE k = 'automerge'").get() as
    | { v: number }
    | undefined;
  return row !== undefined && Number(row.v) === 0;
}

/** One 'merge' step on `table`; false when it found nothing to merge. */
export function mergeSearchStep(db: SqliteDatabase, table: string): boolean {
  const before = db.prepare('SELECT total_changes() AS n').get() as { n: number };
  db.prepare(`INSERT INTO ${table} (${table}, rank) VALUES ('merge', ?)`).run(
    BigInt(MERGE_STEP_PAGES),
  );
  const after = db.prepare('SELECT total_changes() AS n').get() as { n: number };
  // A step with nothing to merge writes at most the structure record.
  return after.n - before.n > 1;
}
