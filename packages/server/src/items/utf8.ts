import { isUtf8 } from 'node:buffer';
import { createReadStream } from 'node:fs';
import { ImportFileError } from './errors.js';
import { fileClosed } from './file-closed.js';
import { readFailure } from './format.js';

/**
 * Import files must be UTF-8 (docs/architecture.md#imports). Decoding leniently would store U+FFFD in place of
 * every byte it cannot read (a Latin-1 "é" becomes "�") and report success, so the whole file
 * is checked first, strictly, and the first invalid sequence is reported with its line and byte
 * offset. Validation follows the WHATWG UTF-8 decoder: no overlong forms, no surrogates, nothing
 * above U+10FFFF.
 */
export class Utf8Check {
  /** Bytes seen so far, and the line the next byte is on. */
  private offset = 0;
  private line = 1;
  /** Continuation bytes still expected, and the range the next one must fall in. */
  private need = 0;
  private lower = 0x80;
  private upper = 0xbf;
  /** Where the sequence being read started. */
  private start = 0;
  private startLine = 1;

  /** Feeds the next bytes of the file; returns where the first invalid sequence is, if any. */
  push(chunk: Uint8Array): { offset: number; line: number } | null {
    // Fast path: a chunk that is valid on its own only needs its line breaks counted.
    if (this.need === 0 && isUtf8(chunk)) {
      for (let at = chunk.indexOf(0x0a); at !== -1; at = chunk.indexOf(0x0a, at + 1)) this.line++;
      this.offset += chunk.length;
      return null;
    }
    for (let i = 0; i < chunk.length; i++, this.offset++) {
      const byte = chunk[i] as number;
      if (this.need > 0) {
        if (byte < this.lower || byte > this.upper) return this.invalid();
        this.lower = 0x80;
        this.upper = 0xbf;
        this.need--;
        continue;
      }
      this.start = this.offset;
      this.startLine = this.line;
      if (byte < 0x80) {
        if (byte === 0x0a) this.line++;
      } else if (byte >= 0xc2 && byte <= 0xdf) this.need = 1;
      else if (byte >= 0xe0 && byte <= 0xef) {
        this.need = 2;
        if (byte === 0xe0) this.lower = 0xa0; // overlong
        if (byte === 0xed) this.upper = 0x9f; // surrogates
      } else if (byte >= 0xf0 && byte <= 0xf4) {
        this.need = 3;
        if (byte === 0xf0) this.lower = 0x90; // overlong
        if (byte === 0xf4) this.upper = 0x8f; // above U+10FFFF
      } else return this.invalid();
    }
    return null;
  }

  /** The end of the file: a sequence cut short there is invalid too. */
  end(): { offset: number; line: number } | null {
    return this.need > 0 ? this.invalid() : null;
  }

  private invalid(): { offset: number; line: number } {
    return { offset: this.start, line: this.startLine };
  }
}

/**
 * Reads the whole file once; throws ImportFileError at the first invalid UTF-8 sequence. An
 * aborted `signal` (the import was asked to stop) ends the reading early, without a verdict.
 */
export async function checkUtf8(file: string, signal?: AbortSignal): Promise<void> {
  const check = new Utf8Check();
  let first: Buffer | undefined;
  let problem: { offset: number; line: number } | null = null;
  const stream = createReadStream(file);
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (signal?.aborted) return;
      first ??= chunk;
      problem = check.push(chunk);
      if (problem) break;
    }
  } catch (error) {
    throw readFailure(error);
  } finally {
    stream.destroy();
    await fileClosed(stream);
  }
  problem ??= check.end();
  if (!problem) return;
  // A UTF-16 file starts with its byte order mark: say what it is rather than where it fails.
  const utf16 =
    first !== undefined &&
    first.length >= 2 &&
    ((first[0] === 0xff && first[1] === 0xfe) || (first[0] === 0xfe && first[1] === 0xff));
  const how = utf16
    ? 'the file is UTF-16; save it as UTF-8'
    : 'save the file as UTF-8 (for example: iconv -f WINDOWS-1252 -t UTF-8 in.csv > out.csv)';
  throw new ImportFileError(
    `invalid UTF-8 at byte offset ${problem.offset} (the file must be UTF-8); ${how}`,
    problem.line,
  );
}
