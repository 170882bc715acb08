import { open } from 'node:fs/promises';
import path from 'node:path';
import { ImportFileError } from './errors.js';

export type FileFormat = 'csv' | 'json' | 'ndjson';

const SNIFF_BYTES = 64 * 1024;

/** Turns fs errors into one readable reason; anything unexpected stays an error. */
export function readFailure(error: unknown): ImportFileError {
  const code = (error as { code?: string }).code;
  const reasons: Record<string, string> = {
    ENOENT: 'no such file',
    EISDIR: 'it is a directory',
    EACCES: 'permission denied',
    EPERM: 'permission denied',
  };
  const reason = (code && reasons[code]) ?? (error as Error).message;
  return new ImportFileError(`cannot read the file: ${reason}`);
}

/**
 * The extension decides CSV and NDJSON; `.json` and anything else are sniffed from the first
 * non-blank character (`[` a JSON array, `{` NDJSON), so an NDJSON export named `.json` works too.
 */
export async function detectFormat(file: string): Promise<FileFormat> {
  const extension = path.extname(file).toLowerCase();
  let head: string;
  try {
    const handle = await open(file, 'r');
    try {
      const buffer = Buffer.alloc(SNIFF_BYTES);
      const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
      head = buffer.subarray(0, bytesRead).toString('utf8');
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw readFailure(error);
  }
  const first = /[^\s\uFEFF]/.exec(head)?.[0];
  if (first === undefined) {
    throw new ImportFileError(
      'the file is empty; expected a CSV header row, a JSON array or NDJSON lines',
    );
  }
  if (extension === '.csv') return 'csv';
  if (extension === '.ndjson' || extension === '.jsonl') return 'ndjson';
  if (first === '[') return 'json';
  if (first === '{') return 'ndjson';
  // A .json file that is neither goes to the JSON reader, whose error says what it expected.
  return extension === '.json' ? 'json' : 'csv';
}
