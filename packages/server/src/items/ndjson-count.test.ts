import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { countNdjsonRecords } from './ndjson-count.js';
import { readNdjson } from './ndjson-reader.js';

const dir = mkdtempSync(path.join(tmpdir(), 'stockroom-ndjson-count-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

function write(content: string): string {
  const file = path.join(dir, `f${++n}.ndjson`);
  writeFileSync(file, content);
  return file;
}

/** What readNdjson makes of a file: its record count, or its error. */
async function viaReader(file: string): Promise<number | string> {
  let records = 0;
  try {
    for await (const _ of readNdjson(file)) records++;
    return records;
  } catch (error) {
    return (error as Error).message;
  }
}

async function viaCount(file: string, readSize?: number): Promise<number | string> {
  try {
    return await countNdjsonRecords(file, undefined, readSize);
  } catch (error) {
    return (error as Error).message;
  }
}

const FILES = {
  'LF, blank and whitespace lines': '{"a":1}\n\n  \n\t\n{"b":[1,2]}\n"x"\n',
  'CRLF and no final break': '{"a":1}\r\n{"b":2}\r\n\r\n{"c":3}',
  'lone CRs, and a CR before CRLF': '{"a":1}\r{"b":2}\r\r\n{"c":3}\r',
  'a BOM on the first line': '\uFEFF{"a":1}\n{"b":2}\n',
  'a line of non-breaking spaces (blank to trim)': '{"a":1}\n\u00a0\u00a0\n{"b":2}\n',
  'escapes and non-ASCII text': '{"a":"\\u00e9\\n\\"","b":"Café ☕ 𝄞"}\n',
  'an invalid line after good ones': '{"a":1}\n{"a":2}\n\n{"a":3,}\n{"a":4}\n',
  'invalid JSON on a line after lone CRs': '{"a":1}\r{"a":2}\r{"a":\n',
  'a value split by a CR': '{"a":\r1}\n',
  'a BOM on a later line': '{"a":1}\n\uFEFF{"b":2}\n',
} as const;

describe('countNdjsonRecords', () => {
  it.each(Object.entries(FILES))('agrees with readNdjson: %s', async (_, content) => {
    const file = write(content);
    const expected = await viaReader(file);
    // Reads of every small size put each line break, CRLF and multi-byte character across two.
    for (const readSize of [1, 2, 3, 5, 7, 64 * 1024]) {
      expect(await viaCount(file, readSize), `reads of ${readSize} bytes`).toEqual(expected);
    }
  });

  it('reports an unreadable file as readNdjson does', async () => {
    const missing = path.join(dir, 'missing.ndjson');
    expect(await viaCount(missing)).toBe('cannot read the file: no such file');
  });

  it('reports progress in bytes', async () => {
    const content = '{"a":1}\n{"b":2}\n';
    const seen: number[] = [];
    await countNdjsonRecords(write(content), (bytes) => seen.push(bytes), 4);
    expect(seen.at(-1)).toBe(Buffer.byteLength(content));
  });
});
