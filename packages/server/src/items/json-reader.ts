import { readFile } from 'node:fs/promises';
import { ImportFileError } from './errors.js';
import { readFailure } from './format.js';
import { jsonReason, type OnBytes, type RawRecord } from './records.js';

const WHITESPACE = new Set([0x20, 0x0a, 0x0d, 0x09]);

/**
 * Finds where each top-level element of a JSON array starts and ends, so every element can be
 * reported by the line it starts on and parsed on its own (one element in memory at a time,
 * and a syntax error points at the element that has it). Strict JSON syntax inside an element
 * is left to JSON.parse.
 */
class ArrayScanner {
  pos = 0;
  line = 1;

  constructor(readonly text: string) {}

  private advance(): void {
    if (this.text.charCodeAt(this.pos) === 0x0a) this.line++;
    this.pos++;
  }

  get done(): boolean {
    return this.pos >= this.text.length;
  }

  peek(): string {
    return this.text[this.pos] ?? '';
  }

  skipWhitespace(): void {
    while (!this.done && WHITESPACE.has(this.text.charCodeAt(this.pos))) this.advance();
  }

  /** Steps over a structural character the caller has already looked at. */
  skip(): void {
    this.advance();
  }

  private skipString(): void {
    this.advance();
    while (!this.done) {
      const c = this.text.charCodeAt(this.pos);
      if (c === 0x5c) {
        this.advance();
        this.advance();
      } else if (c === 0x22) {
        this.advance();
        return;
      } else this.advance();
    }
  }

  /** Moves past one value; stops at end of input if it never closes. */
  skipValue(): void {
    const first = this.text.charCodeAt(this.pos);
    if (first === 0x22) {
      this.skipString();
      return;
    }
    if (first !== 0x7b && first !== 0x5b) {
      // A scalar: runs until a delimiter; JSON.parse judges whether it is a valid literal.
      while (!this.done && !/[\s,\]}]/.test(this.peek())) this.advance();
      return;
    }
    let depth = 0;
    while (!this.done) {
      const c = this.text.charCodeAt(this.pos);
      if (c === 0x22) {
        this.skipString();
        continue;
      }
      if (c === 0x7b || c === 0x5b) depth++;
      else if (c === 0x7d || c === 0x5d) depth--;
      this.advance();
      if (depth === 0) return;
    }
  }
}

function lineWithin(text: string, start: number, end: number, line: number): number {
  let at = line;
  for (let i = start; i < end; i++) if (text.charCodeAt(i) === 0x0a) at++;
  return at;
}

/** Reads a JSON array of item objects. The whole text is loaded; elements are parsed one by one. */
export async function* readJsonArray(file: string, onBytes?: OnBytes): AsyncGenerator<RawRecord> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw readFailure(error);
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const bytesPerChar = text.length === 0 ? 0 : Buffer.byteLength(text) / text.length;
  const scan = new ArrayScanner(text);

  scan.skipWhitespace();
  if (scan.peek() !== '[') {
    throw new ImportFileError('expected a JSON array of items ([{...}, ...])', scan.line);
  }
  scan.skip();
  scan.skipWhitespace();
  let closed = scan.peek() === ']';
  if (closed) scan.skip();
  while (!closed) {
    scan.skipWhitespace();
    if (scan.done) break;
    const start = scan.pos;
    const line = scan.line;
    scan.skipValue();
    const element = text.slice(start, scan.pos);
    let value: unknown;
    try {
      value = JSON.parse(element);
    } catch (error) {
      const { reason, position } = jsonReason(error);
      const at = position === undefined ? line : lineWithin(text, start, start + position, line);
      throw new ImportFileError(`invalid JSON: ${reason}`, at);
    }
    yield { line, kind: 'json', value };
    onBytes?.(Math.round(scan.pos * bytesPerChar));
    scan.skipWhitespace();
    const next = scan.peek();
    if (next === ']') {
      scan.skip();
      closed = true;
      break;
    }
    if (next !== ',') {
      if (scan.done) break;
      throw new ImportFileError(
        `invalid JSON: expected "," or "]" after the element starting on line ${line}, found ${JSON.stringify(next)}`,
        scan.line,
      );
    }
    scan.skip();
    scan.skipWhitespace();
    if (scan.peek() === ']') {
      throw new ImportFileError('invalid JSON: trailing comma before "]"', scan.line);
    }
  }
  if (!closed) {
    throw new ImportFileError('invalid JSON: the array is never closed (missing "]")', scan.line);
  }
  scan.skipWhitespace();
  if (!scan.done) {
    throw new ImportFileError('invalid JSON: unexpected content after the closing "]"', scan.line);
  }
}
