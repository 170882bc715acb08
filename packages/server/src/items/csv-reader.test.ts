import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readCsv } from './csv-reader.js';
import { ImportFileError } from './errors.js';
import type { RawRecord } from './records.js';

const dir = mkdtempSync(path.join(tmpdir(), 'stockroom-csv-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

function write(content: string | Buffer): string {
  const file = path.join(dir, `f${++n}.csv`);
  writeFileSync(file, content);
  return file;
}

async function read(content: string | Buffer): Promise<RawRecord[]> {
  const records: RawRecord[] = [];
  for await (const record of readCsv(write(content))) records.push(record);
  return records;
}

function cells(records: RawRecord[]) {
  return records.map((r) => (r.kind === 'csv' ? [r.line, ...r.cells] : r));
}

describe('readCsv', () => {
  it('reads quoted fields with commas, doubled quotes and line breaks, numbering records by their first line', async () => {
    const records = await read(
      'name,description,sku\n' +
        '"Tent, 2P","says ""hi""",T-1\n' +
        'Lamp,"line one\nline two\nline three",L-1\n' +
        'Mug,,M-1\n',
    );
    expect(cells(records)).toEqual([
      [2, 'Tent, 2P', 'says "hi"', 'T-1'],
      [3, 'Lamp', 'line one\nline two\nline three', 'L-1'],
      [6, 'Mug', '', 'M-1'],
    ]);
    expect(records[0]?.kind === 'csv' && records[0].columns).toEqual([
      'name',
      'description',
      'sku',
    ]);
  });

  it('counts CRLF files, CRLF inside quotes and skipped blank lines correctly', async () => {
    const records = await read('name,sku\r\n"a\r\nb",1\r\n\r\n\r\nc,2\r\n"x\r\n\r\ny",3\r\nlast,4');
    expect(cells(records)).toEqual([
      [2, 'a\r\nb', '1'],
      [6, 'c', '2'],
      [7, 'x\r\n\r\ny', '3'],
      [10, 'last', '4'],
    ]);
  });

  it('strips a UTF-8 byte order mark and reads non-ASCII text', async () => {
    const withBom = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from('name,sku\nCafé Déjà Vu ☕,C-1\n'),
    ]);
    const records = await read(withBom);
    expect(records[0]?.kind === 'csv' && records[0].columns).toEqual(['name', 'sku']);
    expect(cells(records)).toEqual([[2, 'Café Déjà Vu ☕', 'C-1']]);
  });

  it('maps ignored API columns to null and keeps rows of the wrong width for the validator', async () => {
    const records = await read(
      '_id,name,createdAt,updatedAt,organizationId\nabc,Tent,x,y,z\nonly-one\n',
    );
    expect(records[0]?.kind === 'csv' && records[0].columns).toEqual([
      null,
      'name',
      null,
      null,
      null,
    ]);
    expect(cells(records)).toEqual([
      [2, 'abc', 'Tent', 'x', 'y', 'z'],
      [3, 'only-one'],
    ]);
  });

  it('skips lines of nothing but spaces', async () => {
    expect(cells(await read('name\nA\n   \nB\n'))).toEqual([
      [2, 'A'],
      [4, 'B'],
    ]);
  });

  it('skips rows of empty cells, as spreadsheets export them', async () => {
    expect(cells(await read('name,sku\r\nA,1\r\n,\r\n , \r\nB,2\r\n,\r\n'))).toEqual([
      [2, 'A', '1'],
      [5, 'B', '2'],
    ]);
  });

  it('reads a header without rows as no records', async () => {
    expect(await read('name,sku\n')).toEqual([]);
  });

  it('refuses an unknown column, naming it', async () => {
    await expect(read('name,colour\nTent,red\n')).rejects.toBeInstanceOf(ImportFileError);
    await expect(read('name,colour\nTent,red\n')).rejects.toThrow(
      /line 1: unknown column "colour"/,
    );
  });

  it('refuses a header that names a column twice', async () => {
    await expect(read('name,sku,name\n')).rejects.toThrow('line 1: column "name" appears twice');
  });

  it('reports an unclosed quote at the line where the record starts', async () => {
    await expect(read('name,sku\nA,1\n"B,2\nC,3\n')).rejects.toThrow(
      /^line 3: invalid CSV: Quote Not Closed/,
    );
  });

  it('reports a stray quote after a quoted field with its line', async () => {
    await expect(read('name,sku\nA,1\n"B"x,2\n')).rejects.toThrow(
      /^line 3: invalid CSV: Invalid Closing Quote/,
    );
  });
});
