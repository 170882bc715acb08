import { parentPort, workerData } from 'node:worker_threads';
import { checkedRows, type Row } from './checked-rows.js';
import { ImportFileError } from './errors.js';
import type { RowThreadInput, RowThreadMessage } from './row-thread.js';

/**
 * The worker thread of row-thread.ts: reads and checks the file, and posts the rows in chunks,
 * never more than `window` chunks ahead of what the import thread has taken (each chunk taken
 * is acknowledged), so memory stays bounded however fast the file parses.
 */
const port = parentPort;
if (!port) throw new Error('row-thread-worker.js runs as a worker thread');
const { file, format, chunkRows, window } = workerData as RowThreadInput;

let credit = window;
let wake: (() => void) | undefined;
port.on('message', () => {
  credit++;
  wake?.();
});

const post = (message: RowThreadMessage) => port.postMessage(message);

async function send(rows: Row[]): Promise<void> {
  while (credit === 0) await new Promise<void>((resolve) => (wake = resolve));
  credit--;
  post({ rows });
}

try {
  let chunk: Row[] = [];
  for await (const row of checkedRows(file, format)) {
    chunk.push(row);
    if (chunk.length >= chunkRows) {
      await send(chunk);
      chunk = [];
    }
  }
  if (chunk.length > 0) await send(chunk);
  post({ done: true });
} catch (error) {
  post(
    error instanceof ImportFileError
      ? { fileError: { reason: error.reason, line: error.line } }
      : { failure: error instanceof Error ? (error.stack ?? error.message) : String(error) },
  );
}
port.close();
