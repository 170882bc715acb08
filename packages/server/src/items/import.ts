import { stat } from 'node:fs/promises';
import type { ItemFields, Store } from '../store/types.js';
import { checkedRows, readRecords } from './checked-rows.js';
import { type CommittedCounts, ImportStoppedError } from './errors.js';
import { detectFormat, readFailure } from './format.js';
import { countNdjsonRecords } from './ndjson-count.js';
import type { OnBytes } from './records.js';
import { checkedRowsOffThread } from './row-thread.js';
import { checkUtf8 } from './utf8.js';

export interface ImportRowError {
  /** 1-based line of the file where the rejected record starts. */
  line: number;
  reason: string;
}

export interface ImportResult {
  created: number;
  updated: number;
  unchanged: number;
  failed: number;
  errors: ImportRowError[];
}

export interface ImportProgress {
  /** `checking` reads the whole file once (done/total in bytes); `writing` counts rows. */
  phase: 'checking' | 'writing';
  done: number;
  total: number;
}

export interface ImportOptions {
  /** Validate everything first and write nothing if any row is rejected. */
  strict?: boolean;
  /** Rows per transaction in non-strict mode. */
  batchSize?: number;
  onProgress?: (progress: ImportProgress) => void;
  /**
   * Asks the import to stop (`stockroom items import` on SIGINT or SIGTERM): the batch in
   * flight is finished, then ImportStoppedError is thrown with the signal's reason as cause.
   */
  signal?: AbortSignal;
}

export const DEFAULT_BATCH_SIZE = 1000;

function emptyResult(): ImportResult {
  return { created: 0, updated: 0, unchanged: 0, failed: 0, errors: [] };
}

/** Adds a batch's store outcomes to the result; store-level rejections keep their line. */
function tally(
  result: ImportResult,
  lines: number[],
  outcomes: Awaited<ReturnType<Store['writeItems']>>,
): void {
  outcomes.forEach((outcome, i) => {
    if (typeof outcome === 'object') {
      result.errors.push({ line: lines[i] as number, reason: outcome.error });
    } else result[outcome]++;
  });
}

/**
 * Imports a JSON array, NDJSON or CSV file into an organization (upsert by sku), then lets the
 * store refresh its planner statistics when the import changed a large share of the items
 * (Store.refreshItemStatistics): the first import of a million items is otherwise planned as if
 * the table were empty until autovacuum comes by, and some machines run without it.
 *
 * A first pass parses and checks the whole file without writing, so a malformed file writes
 * nothing. Without `strict`, a second pass writes in transactions of `batchSize` rows and
 * memory stays flat for CSV and NDJSON of any size. With `strict`, the first pass keeps the
 * rows and writes them in one all-or-nothing call: rows only the store can reject (a new sku
 * without a name) are found by trying, and then nothing is kept.
 *
 * Throws ImportFileError for a problem with the file as a whole, found before anything is
 * written. Anything that stops the import once writing has begun (a database error, a failure
 * of the reader thread, the statistics refresh) throws ImportStoppedError, which carries the
 * counts of what was committed by then, so the caller can still record them.
 */
export async function importItems(
  store: Store,
  organizationId: string,
  file: string,
  options: ImportOptions = {},
): Promise<ImportResult> {
  const result = await writeFile(store, organizationId, file, options);
  const changed = result.created + result.updated;
  if (changed > 0) {
    try {
      await store.refreshItemStatistics(changed);
    } catch (error) {
      throw new ImportStoppedError(committed(result), undefined, error);
    }
  }
  return result;
}

function committed(result: ImportResult): CommittedCounts {
  const { created, updated, unchanged } = result;
  return { created, updated, unchanged, failed: result.errors.length };
}

async function writeFile(
  store: Store,
  organizationId: string,
  file: string,
  options: ImportOptions,
): Promise<ImportResult> {
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const progress = options.onProgress;
  const format = await detectFormat(file);
  let size: number;
  try {
    size = (await stat(file)).size;
  } catch (error) {
    throw readFailure(error);
  }
  const signal = options.signal;
  // Stopped before the first write: nothing was kept.
  const stopIfAsked = () => {
    if (signal?.aborted)
      throw new ImportStoppedError(committed(emptyResult()), undefined, signal.reason);
  };
  await checkUtf8(file, signal);
  stopIfAsked();

  // Pass 1: parse everything, write nothing. Only strict mode checks the rows here and keeps
  // anything: the rejections, and the valid rows for its single write. Without strict, only the
  // file as a whole can fail here (the readers throw), so the records are only counted and pass
  // 2 checks them; NDJSON lines are not even parsed, only checked for JSON syntax
  // (ndjson-count.ts). At 1,000,000 NDJSON rows (1.2 GB) parsing and checking here took about
  // 14 of the import's 72 s.
  const rejected: ImportRowError[] = [];
  const strictRows: ItemFields[] = [];
  const strictLines: number[] = [];
  let total = 0;
  const onBytes: OnBytes = (done) => progress?.({ phase: 'checking', done, total: size });
  if (options.strict) {
    for await (const row of checkedRows(file, format, progress && onBytes)) {
      if (signal?.aborted) break;
      total++;
      if ('reason' in row) rejected.push({ line: row.line, reason: row.reason });
      else {
        strictRows.push(row.fields);
        strictLines.push(row.line);
      }
    }
  } else if (format === 'ndjson') {
    total = await countNdjsonRecords(file, progress && onBytes, undefined, signal);
  } else {
    for await (const _ of readRecords(file, format, progress && onBytes)) {
      if (signal?.aborted) break;
      total++;
    }
  }
  stopIfAsked();
  progress?.({ phase: 'checking', done: size, total: size });

  const result = emptyResult();
  if (options.strict) {
    progress?.({ phase: 'writing', done: 0, total });
    // With rejections nothing will be written; a dry run still finds the rows only the store
    // can reject (a new sku without a name), so the report names every rejected row.
    let outcomes: Awaited<ReturnType<Store['writeItems']>>;
    try {
      outcomes = await store.writeItems(
        organizationId,
        strictRows,
        rejected.length > 0 ? { dryRun: true } : { allOrNothing: true },
      );
    } catch (error) {
      // One all-or-nothing write: nothing was kept.
      throw new ImportStoppedError(committed(emptyResult()), undefined, error);
    }
    tally(result, strictLines, outcomes);
    progress?.({ phase: 'writing', done: total, total });
    if (rejected.length === 0 && result.errors.length === 0) return result;
    // Nothing was kept: report every rejected row, in file order.
    const errors = [...rejected, ...result.errors].sort((a, b) => a.line - b.line);
    return { ...emptyResult(), failed: errors.length, errors };
  }

  // Pass 2: the file is known to be well formed; write it in batches, while a worker thread
  // reads and checks the rows that follow (row-thread.ts).
  let done = 0;
  progress?.({ phase: 'writing', done, total });
  let batch: ItemFields[] = [];
  let lines: number[] = [];
  const flush = async () => {
    if (batch.length > 0) tally(result, lines, await store.writeItems(organizationId, batch));
    batch = [];
    lines = [];
    progress?.({ phase: 'writing', done, total });
  };
  // The batches written before a failure stay committed: the error says how many rows they hold.
  let lastLine: number | undefined;
  let interrupted = false;
  try {
    for await (const row of checkedRowsOffThread(file, format)) {
      // Asked to stop: the rows taken so far are written below, the rest of the file is left.
      if (signal?.aborted) {
        interrupted = true;
        break;
      }
      done++;
      lastLine = row.line;
      if ('reason' in row) {
        result.errors.push({ line: row.line, reason: row.reason });
        continue;
      }
      batch.push(row.fields);
      lines.push(row.line);
      if (batch.length >= batchSize) await flush();
    }
    await flush();
  } catch (error) {
    // The rows of the batch not yet written were not kept: the first of them is where it stopped.
    const where =
      lines[0] !== undefined
        ? `at line ${lines[0]}`
        : lastLine === undefined
          ? undefined
          : `after line ${lastLine}`;
    throw new ImportStoppedError(committed(result), where, error);
  }
  if (interrupted) {
    const where = lastLine === undefined ? undefined : `after line ${lastLine}`;
    throw new ImportStoppedError(committed(result), where, signal?.reason);
  }
  // Store rejections arrive per batch, after the parse rejections of that batch: restore file order.
  result.errors.sort((a, b) => a.line - b.line);
  result.failed = result.errors.length;
  return result;
}
