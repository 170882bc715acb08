import { createReadStream } from 'node:fs';
import { ImportFileError } from './errors.js';
import { fileClosed } from './file-closed.js';
import { readFailure } from './format.js';
import { isJsonText } from './json-syntax.js';
import { parseNdjsonLine } from './ndjson-reader.js';
import type { OnBytes } from './records.js';

const LF = 0x0a;
const CR = 0x0d;

/**
 * Counts the records of an NDJSON file, and throws the ImportFileError readNdjson would throw,
 * at the same line: the first pass of a non-strict import (import.ts), which writes nothing
 * and only needs to know that every line is JSON. Lines break where readline breaks them (LF,
 * CRLF, or a lone CR), so line numbers agree. A line isJsonText accepts is counted without
 * being decoded or parsed; any other line goes through readNdjson's own parsing.
 */
export async function countNdjsonRecords(
  file: string,
  onBytes?: OnBytes,
  /** Bytes per read; tests make it small to put line breaks across reads. */
  readSize = 1024 * 1024,
  /** Stops reading (the count is then partial): the import was asked to stop. */
  signal?: AbortSignal,
): Promise<number> {
  let records = 0;
  let line = 0;
  const take = (bytes: Buffer) => {
    line++;
    if (isJsonText(bytes) || parseNdjsonLine(bytes.toString('utf8'), line)) records++;
  };
  /** The start of a line the previous read ended in. */
  let carry: Buffer | undefined;
  /** The previous read ended with a CR: an LF opening this one belongs to it. */
  let afterCr = false;
  let bytesRead = 0;
  const stream = createReadStream(file, { highWaterMark: readSize });
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (signal?.aborted) return records;
      bytesRead += chunk.length;
      onBytes?.(bytesRead);
      let start = afterCr && chunk[0] === LF ? 1 : 0;
      afterCr = false;
      const buffer = carry ? Buffer.concat([carry, chunk.subarray(start)]) : chunk;
      if (carry) start = 0;
      carry = undefined;
      // The next CR, found once per read rather than once per line (CRs are rare).
      let cr = buffer.indexOf(CR, start);
      for (;;) {
        let end = buffer.indexOf(LF, start);
        if (cr !== -1 && cr < start) cr = buffer.indexOf(CR, start);
        if (cr !== -1 && (end === -1 || cr < end)) end = cr;
        if (end === -1) break;
        take(buffer.subarray(start, end));
        if (buffer[end] === CR) {
          if (end + 1 === buffer.length) afterCr = true;
          else if (buffer[end + 1] === LF) end++;
        }
        start = end + 1;
      }
      if (start < buffer.length) carry = buffer.subarray(start);
    }
  } catch (error) {
    throw error instanceof ImportFileError ? error : readFailure(error);
  } finally {
    stream.destroy();
    await fileClosed(stream);
  }
  if (carry) take(carry);
  return records;
}
