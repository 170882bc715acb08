import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { ImportFileError } from './errors.js';
import { fileClosed } from './file-closed.js';
import { readFailure } from './format.js';
import { jsonReason, type OnBytes, type RawRecord } from './records.js';

/**
 * One line of an NDJSON file: its value, or null for a blank line (a byte order mark opening
 * the file is skipped). Throws ImportFileError for a line that is not JSON.
 */
export function parseNdjsonLine(raw: string, line: number): { value: unknown } | null {
  const text = line === 1 && raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
  if (text.trim() === '') return null;
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (error) {
    const { reason, position } = jsonReason(error);
    const column = position === undefined ? '' : ` (column ${position + 1})`;
    throw new ImportFileError(`invalid JSON${column}: ${reason}`, line);
  }
}

/** Streams NDJSON: one JSON value per line; blank lines are skipped. */
export async function* readNdjson(file: string, onBytes?: OnBytes): AsyncGenerator<RawRecord> {
  const stream = createReadStream(file);
  let bytes = 0;
  let failure: ImportFileError | undefined;
  stream.on('data', (chunk) => {
    bytes += chunk.length;
    onBytes?.(bytes);
  });
  const lines = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
  // readline does not forward read errors; remember the error and end the loop.
  stream.on('error', (error) => {
    failure = readFailure(error);
    lines.close();
  });
  let line = 0;
  try {
    for await (const raw of lines) {
      line++;
      const parsed = parseNdjsonLine(raw, line);
      if (parsed) yield { line, kind: 'json', value: parsed.value };
    }
    if (failure) throw failure;
  } finally {
    lines.close();
    stream.destroy();
    await fileClosed(stream);
  }
}
