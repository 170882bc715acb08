import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readJsonArray } from './json-reader.js';
import type { RawRecord } from './records.js';

const dir = mkdtempSync(path.join(tmpdir(), 'stockroom-json-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

async function read(content: string | Buffer): Promise<Array<[number, unknown]>> {
  const file = path.join(dir, `f${++n}.json`);
  writeFileSync(file, content);
  const out: Array<[number, unknown]> = [];
  for await (const record of readJsonArray(file)) {
    out.push([record.line, (record as Extract<RawRecord, { kind: 'json' }>).value]);
  }
  return out;
}

describe('readJsonArray', () => {
  it('numbers each element by the line where it starts', async () => {
    const text = `[
  {
    "name": "Tent",
    "sku": "T-1"
  },
  {"name": "Lamp, \\"bright\\" [x] {y}"}, {"name": "Mug"},

  {"name": "Pot"}
]`;
    expect(await read(text)).toEqual([
      [2, { name: 'Tent', sku: 'T-1' }],
      [6, { name: 'Lamp, "bright" [x] {y}' }],
      [6, { name: 'Mug' }],
      [8, { name: 'Pot' }],
    ]);
  });

  it('passes non-object elements through for the validator to reject', async () => {
    expect(await read('[1, "x", null, [2], true]')).toEqual([
      [1, 1],
      [1, 'x'],
      [1, null],
      [1, [2]],
      [1, true],
    ]);
  });

  it('accepts an empty array and a byte order mark', async () => {
    expect(await read('  [ ]  \n')).toEqual([]);
    expect(await read(Buffer.from('\uFEFF[{"name":"A"}]'))).toEqual([[1, { name: 'A' }]]);
  });

  it('refuses a document that is not an array', async () => {
    await expect(read('\n{"name":"A"}')).rejects.toThrow(
      'line 2: expected a JSON array of items ([{...}, ...])',
    );
  });

  it('reports a syntax error inside an element on its line, or the line the element starts on', async () => {
    // JSON.parse gives a position for this one: the line is exact.
    await expect(read('[\n{"name": "A"},\n{"name": "B",\n "sku": 1,}\n]')).rejects.toThrow(
      /^line 4: invalid JSON: Expected double-quoted property name$/,
    );
    // No position from JSON.parse: the element's first line, and no excerpt of the text.
    await expect(read('[\n{"name": "A"},\n{"name": "B",\n "sku": }\n]')).rejects.toThrow(
      /^line 3: invalid JSON: Unexpected token '}'$/,
    );
  });

  it('reports a missing comma, a trailing comma, an unclosed array and trailing content', async () => {
    await expect(read('[\n{"name":"A"}\n{"name":"B"}]')).rejects.toThrow(
      'line 3: invalid JSON: expected "," or "]" after the element starting on line 2, found "{"',
    );
    await expect(read('[{"name":"A"},\n]')).rejects.toThrow('line 2: invalid JSON: trailing comma');
    await expect(read('[{"name":"A"},\n{"name":"B"}\n')).rejects.toThrow(
      'line 3: invalid JSON: the array is never closed',
    );
    await expect(read('[[1,2]')).rejects.toThrow('invalid JSON: the array is never closed');
    await expect(read('[{"name":"A"}]\n[]')).rejects.toThrow(
      'line 2: invalid JSON: unexpected content after the closing "]"',
    );
  });

  it('reports an element that never ends', async () => {
    await expect(read('[\n{"name": "A"},\n{"name": "B"\n')).rejects.toThrow(
      /^line \d: invalid JSON/,
    );
  });
});
