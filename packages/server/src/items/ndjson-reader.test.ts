import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readNdjson } from './ndjson-reader.js';
import type { RawRecord } from './records.js';

const dir = mkdtempSync(path.join(tmpdir(), 'stockroom-ndjson-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

async function read(content: string): Promise<Array<[number, unknown]>> {
  const file = path.join(dir, `f${++n}.ndjson`);
  writeFileSync(file, content);
  const out: Array<[number, unknown]> = [];
  for await (const record of readNdjson(file)) {
    out.push([record.line, (record as Extract<RawRecord, { kind: 'json' }>).value]);
  }
  return out;
}

describe('readNdjson', () => {
  it('reads one value per line, skipping blank lines but counting them', async () => {
    expect(await read('\uFEFF{"name":"A"}\n\n  \n{"name":"B"}\r\n{"name":"C"}')).toEqual([
      [1, { name: 'A' }],
      [4, { name: 'B' }],
      [5, { name: 'C' }],
    ]);
  });

  it('reports invalid JSON with its line and column', async () => {
    await expect(read('{"name":"A"}\n{"name":"B",}\n')).rejects.toThrow(
      /^line 2: invalid JSON \(column 13\): /,
    );
    await expect(read('{"name":"A"}\n\n{"name":\n')).rejects.toThrow(/^line 3: invalid JSON/);
  });
});
