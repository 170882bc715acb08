import type { ReadStream } from 'node:fs';

/**
 * Resolves once `stream` has closed its file. destroy() (and the end of a read) closes it in
 * the background; a reader awaits this so that the import returns with none of its files
 * open (CLI commands run many to one process in the tests).
 */
export function fileClosed(stream: ReadStream): Promise<void> {
  return new Promise((resolve) => {
    if (stream.closed) resolve();
    else stream.once('close', () => resolve());
  });
}
