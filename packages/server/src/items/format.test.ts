import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { detectFormat } from './format.js';

const dir = mkdtempSync(path.join(tmpdir(), 'stockroom-format-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, content: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, content);
  return file;
}

describe('detectFormat', () => {
  it('goes by the extension for CSV and NDJSON', async () => {
    expect(await detectFormat(write('a.csv', '[weird,header\n'))).toBe('csv');
    expect(await detectFormat(write('a.ndjson', '{"name":"A"}\n'))).toBe('ndjson');
    expect(await detectFormat(write('a.jsonl', '{"name":"A"}\n'))).toBe('ndjson');
  });

  it('sniffs .json and unknown extensions from the first non-blank character', async () => {
    expect(await detectFormat(write('b.json', '\uFEFF  \n[{"name":"A"}]'))).toBe('json');
    expect(await detectFormat(write('c.json', '{"name":"A"}\n{"name":"B"}\n'))).toBe('ndjson');
    expect(await detectFormat(write('d.json', 'name\nA\n'))).toBe('json');
    expect(await detectFormat(write('items.txt', '[]'))).toBe('json');
    expect(await detectFormat(write('items', '{"name":"A"}'))).toBe('ndjson');
    expect(await detectFormat(write('items.dat', 'name,sku\nA,1\n'))).toBe('csv');
  });

  it('refuses an empty file and explains a missing one', async () => {
    await expect(detectFormat(write('empty.csv', ' \n\n'))).rejects.toThrow('the file is empty');
    await expect(detectFormat(path.join(dir, 'missing.csv'))).rejects.toThrow(
      'cannot read the file: no such file',
    );
    await expect(detectFormat(dir)).rejects.toThrow('cannot read the file: it is a directory');
  });
});
