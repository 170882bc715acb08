import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { checkedRows, type Row } from './checked-rows.js';
import { ImportFileError } from './errors.js';
import type { FileFormat } from './format.js';

export interface RowThreadInput {
  file: string;
  format: FileFormat;
  /** Rows per message. */
  chunkRows: number;
  /** Messages the worker may send ahead of the ones taken. */
  window: number;
}

export type RowThreadMessage =
  | { rows: Row[] }
  | { done: true }
  | { fileError: { reason: string; line: number | undefined } }
  | { failure: string };

/**
 * Parsing and checking a row costs about half as much as writing it (1,000,000 NDJSON items of
 * ~1.2 KiB: ~12 s against ~27 s, before the search index is built): in a worker thread, the
 * parsing of the next rows overlaps the writing of these on a second core (the import took
 * 47 s instead of 58 s). 512 rows per message keeps the messaging cost low; 8 messages ahead
 * (4,096 rows, a few MiB) is enough for the writer never to wait.
 */
const CHUNK_ROWS = 512;
const WINDOW = 8;

/**
 * The worker's script, built beside this module. Run from the TypeScript sources (the test
 * runner) there is none, and the rows are read in this thread: same rows, same errors.
 */
const WORKER_SCRIPT = new URL('./row-thread-worker.js', import.meta.url);

/**
 * The rows of checkedRows (checked-rows.ts), read and checked in a worker thread when there is
 * one; the same rows in the same order, and the same ImportFileError if the file fails.
 */
export async function* checkedRowsOffThread(file: string, format: FileFormat): AsyncGenerator<Row> {
  if (!existsSync(fileURLToPath(WORKER_SCRIPT))) {
    yield* checkedRows(file, format);
    return;
  }
  const input: RowThreadInput = { file, format, chunkRows: CHUNK_ROWS, window: WINDOW };
  const worker = new Worker(WORKER_SCRIPT, { workerData: input });
  const inbox: RowThreadMessage[] = [];
  let stopped: Error | undefined;
  let wake: (() => void) | undefined;
  worker.on('message', (message: RowThreadMessage) => {
    inbox.push(message);
    wake?.();
  });
  worker.on('error', (error) => {
    stopped ??= error;
    wake?.();
  });
  worker.on('exit', (code) => {
    stopped ??= new Error(`the import's reader thread stopped unexpectedly (exit code ${code})`);
    wake?.();
  });
  try {
    for (;;) {
      // Messages that arrived before the thread exited are still read first.
      while (inbox.length === 0 && !stopped) await new Promise<void>((resolve) => (wake = resolve));
      const message = inbox.shift();
      if (!message) throw stopped;
      if ('rows' in message) {
        // Taken: the worker may parse one more chunk while these are written.
        worker.postMessage(1);
        yield* message.rows;
      } else if ('done' in message) return;
      else if ('fileError' in message) {
        throw new ImportFileError(message.fileError.reason, message.fileError.line);
      } else throw new Error(`the import's reader thread failed: ${message.failure}`);
    }
  } finally {
    // Also when the import stops early (a failed write): the thread stops reading.
    worker.removeAllListeners();
    worker.on('error', () => {});
    await worker.terminate();
  }
}
