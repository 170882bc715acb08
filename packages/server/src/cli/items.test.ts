import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Item } from '../store/types.js';
import { createCliSandbox, expectFailure, expectSuccess } from '../testing/cli-harness.js';

const sandbox = createCliSandbox();
afterAll(() => sandbox.cleanup());
const run = sandbox.run;

let orgId: string;
let slug: string;
let n = 0;

beforeAll(async () => {
  expectSuccess(await run(['migrate']));
});

// Each test imports into an organization of its own.
beforeEach(async () => {
  n++;
  slug = `shop-${n}`;
  orgId = (await run(['org', 'create', '--name', `Shop ${n}`, '--json'])).json.id;
});

async function items(): Promise<Item[]> {
  return sandbox.store().listItems(orgId, { limit: 1000 });
}

async function bySku(sku: string): Promise<Item | undefined> {
  return (await items()).find((item) => item.sku === sku);
}

describe('stockroom items import', () => {
  it('imports CSV with quoted commas and quotes, embedded CRLF newlines and a BOM', async () => {
    const csv = sandbox.file(
      `a${n}.csv`,
      Buffer.concat([
        Buffer.from([0xef, 0xbb, 0xbf]),
        Buffer.from(
          'name,description,sku,barcode,status,quantity,customFields\r\n' +
            '"Tent, 2 person","The ""best"" tent\r\nsecond line",T-1,0042,Active,12.5,"{""color"":""red"",""sizes"":[1,2]}"\r\n' +
            'Café mug,,M-1,,Draft,-3,{}\r\n',
        ),
      ]),
    );
    const result = await run(['items', 'import', csv, '--org', slug, '--json']);
    expectSuccess(result, { json: true });
    expect(result.json).toEqual({ created: 2, updated: 0, unchanged: 0, failed: 0, errors: [] });
    expect(await bySku('T-1')).toMatchObject({
      name: 'Tent, 2 person',
      description: 'The "best" tent\r\nsecond line',
      barcode: '0042',
      status: 'Active',
      quantity: 12.5,
      customFields: '{"color":"red","sizes":[1,2]}',
    });
    expect(await bySku('M-1')).toMatchObject({
      name: 'Café mug',
      description: null,
      barcode: null,
      quantity: -3,
    });
  });

  it('imports NDJSON and a JSON array, and prints a one-line summary without --json', async () => {
    const ndjson = sandbox.file(
      `b${n}.ndjson`,
      '{"name":"A","sku":"A1","quantity":1}\n\n{"name":"B","customFields":{"z":1,"a":2}}\n',
    );
    const first = await run(['items', 'import', ndjson, '--org', orgId]);
    expectSuccess(first);
    expect(first.stdout).toBe(
      `Imported ${ndjson} into ${slug}: 2 created, 0 updated, 0 unchanged, 0 failed\n`,
    );
    const json = sandbox.file(
      `c${n}.json`,
      '[\n  {"name": "C", "sku": "C1", "status": "Discontinued"}\n]\n',
    );
    expectSuccess(await run(['items', 'import', json, '--org', slug]));
    // Two processes made these ids: only ids of one process sort by creation, so sort by name.
    const all = (await items()).sort((a, b) => a.name.localeCompare(b.name));
    expect(all.map((i) => [i.name, i.sku, i.status, i.customFields])).toEqual([
      ['A', 'A1', 'Draft', '{}'],
      ['B', null, 'Draft', '{"z":1,"a":2}'],
      ['C', 'C1', 'Discontinued', '{}'],
    ]);
  });

  it('imports an ordinary spreadsheet export (BOM, CRLF, quoted commas, empty cells) with no errors', async () => {
    const fixture = fileURLToPath(new URL('./fixtures/spreadsheet-export.csv', import.meta.url));
    const bytes = readFileSync(fixture);
    // What the fixture is: the test below would prove nothing on a file re-saved without these.
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.toString('utf8').split('\r\n')).toHaveLength(24);
    const result = await run(['items', 'import', fixture, '--org', slug, '--json']);
    expectSuccess(result, { json: true });
    expect(result.json).toEqual({ created: 20, updated: 0, unchanged: 0, failed: 0, errors: [] });
    expect(await bySku('TENT-2P')).toMatchObject({
      name: 'Ultralight Tent 2P',
      description: 'Two-person tent, 1.2 kg',
      customFields: '{"capacity":2}',
    });
    // Empty cells: customFields {}, description and barcode null, status and quantity defaults.
    expect(await bySku('DRY-10')).toMatchObject({
      description: null,
      barcode: null,
      status: 'Draft',
      quantity: 0,
      customFields: '{}',
    });
    expect(await bySku('BAG-M5')).toMatchObject({ name: 'Sleeping bag, -5 °C' });
    expect(await bySku('AID-1')).toMatchObject({ description: 'Contains "essentials" only' });

    // Updated in the spreadsheet and exported again: an empty status or quantity keeps what is
    // stored, an empty customFields cell sets {}.
    const edited = sandbox.file(
      `edited${n}.csv`,
      '\ufeffname,sku,status,quantity,customFields\r\nHammock,HAM-1,,,\r\nTarp 3x3,TARP-3,Inactive,,\r\n',
    );
    const again = await run(['items', 'import', edited, '--org', slug, '--json']);
    expect(again.json).toEqual({ created: 0, updated: 2, unchanged: 0, failed: 0, errors: [] });
    expect(await bySku('HAM-1')).toMatchObject({
      status: 'Draft',
      quantity: 3,
      customFields: '{}',
    });
    expect(await bySku('TARP-3')).toMatchObject({ status: 'Inactive', quantity: 8 });
  });

  it('upserts by sku: identical rows are unchanged and keep updatedAt; absent columns stay; empty cells clear', async () => {
    const csv = sandbox.file(
      `u${n}.csv`,
      'name,sku,barcode,description,quantity\nTent,T-1,111,Roomy,2\nLamp,L-1,222,Bright,5\n',
    );
    expectSuccess(await run(['items', 'import', csv, '--org', slug]));
    const tent = await bySku('T-1');

    const again = await run(['items', 'import', csv, '--org', slug, '--json']);
    expect(again.json).toEqual({ created: 0, updated: 0, unchanged: 2, failed: 0, errors: [] });
    expect(await bySku('T-1')).toEqual(tent);

    const partial = sandbox.file(`p${n}.csv`, 'sku,quantity,description\nT-1,3,\nL-1,5,Bright\n');
    const updated = await run(['items', 'import', partial, '--org', slug, '--json']);
    expect(updated.json).toEqual({ created: 0, updated: 1, unchanged: 1, failed: 0, errors: [] });
    expect(await bySku('T-1')).toMatchObject({
      id: tent?.id,
      name: 'Tent',
      barcode: '111',
      quantity: 3,
      description: null,
      createdAt: tent?.createdAt,
    });
    expect(await items()).toHaveLength(2);
  });

  it('rejected rows: exit 1, the rest imported, every error with its line', async () => {
    const csv = sandbox.file(
      `r${n}.csv`,
      'name,sku,quantity,status\nA,S1,1,Active\nB,S1,2,Active\n"C\nwith a break",S2,12abc,Active\nD,S3,4,active\n,S4,1,Draft\nE,S5,5,Inactive\n',
    );
    const human = await run(['items', 'import', csv, '--org', slug]);
    expectFailure(human, {
      status: 1,
      code: 'IMPORT_ROWS_FAILED',
      message: /^stockroom: 4 of 6 rows rejected; first: line 3: duplicate sku "S1"/,
    });
    expect(human.stdout.split('\n')).toEqual([
      `Imported ${csv} into ${slug}: 2 created, 0 updated, 0 unchanged, 4 failed`,
      '  line 3: duplicate sku "S1" (first used on line 2); each sku may appear once per file',
      '  line 4: quantity must be a number such as 12 or 12.5, got "12abc"',
      '  line 6: status must be one of Draft, Active, Inactive, Discontinued (exact case), got "active"',
      '  line 7: name is required and cannot be empty',
      '',
    ]);
    expect((await items()).map((i) => i.name)).toEqual(['A', 'E']);

    const json = await run(['items', 'import', csv, '--org', slug, '--json']);
    expectFailure(json, { status: 1, code: 'IMPORT_ROWS_FAILED', json: true });
    expect(json.json).toMatchObject({
      created: 0,
      updated: 0,
      unchanged: 2,
      failed: 4,
      errors: [{ line: 3 }, { line: 4 }, { line: 6 }, { line: 7 }],
    });
  });

  it('a file of many reads and worker messages: rows in file order, errors at their lines, searchable at once', async () => {
    // 1,500 lines with CRLF breaks: several of the reader thread's 512-row messages and of the
    // 1,000-row write batches; a rejected row and a duplicate sku in later messages.
    const lines = Array.from({ length: 1500 }, (_, i) =>
      JSON.stringify({ name: `Widget ${i}`, sku: `W-${i}`, quantity: i, customFields: { i } }),
    );
    lines[700] = '{"name":"Bad","sku":"BAD","quantity":"many"}';
    lines[1100] = JSON.stringify({ name: 'Again', sku: 'W-4' });
    lines[1499] = JSON.stringify({ name: 'Quillfeather pen', sku: 'PEN-1' });
    const ndjson = sandbox.file(`many${n}.ndjson`, `${lines.join('\r\n')}\r\n`);
    const result = await run(['items', 'import', ndjson, '--org', slug, '--json']);
    expectFailure(result, { status: 1, code: 'IMPORT_ROWS_FAILED', json: true });
    expect(result.json).toMatchObject({
      created: 1498,
      failed: 2,
      errors: [
        { line: 701, reason: 'quantity must be a finite number, got "many"' },
        {
          line: 1101,
          reason: expect.stringMatching(/^duplicate sku "W-4" \(first used on line 5\)/),
        },
      ],
    });
    const store = sandbox.store();
    const all = await store.listItems(orgId, { limit: 2000 });
    // Listed in _id order: the file's order.
    expect(all.map((item) => item.sku)).toEqual(
      lines.flatMap((line, i) => (i === 700 || i === 1100 ? [] : [JSON.parse(line).sku])),
    );
    expect(all[42]).toMatchObject({ name: 'Widget 42', quantity: 42, customFields: '{"i":42}' });
    const found = await store.listItems(orgId, { limit: 10, search: 'quillfeather' });
    expect(found.map((item) => item.sku)).toEqual(['PEN-1']);
  });

  it('--strict writes nothing when any row is rejected, and everything when none is', async () => {
    const bad = sandbox.file(
      `s${n}.ndjson`,
      '{"name":"A","sku":"A1"}\n{"name":"B","quantity":"7"}\n',
    );
    const before = sandbox.dump();
    const failed = await run(['items', 'import', bad, '--org', slug, '--strict', '--json']);
    expectFailure(failed, {
      status: 1,
      code: 'IMPORT_ROWS_FAILED',
      json: true,
      message: /^stockroom: 1 row rejected; nothing was imported \(--strict\); first: line 2: /,
    });
    expect(failed.json).toMatchObject({
      created: 0,
      failed: 1,
      errors: [{ line: 2, reason: 'quantity must be a finite number, got "7"' }],
    });
    expect(sandbox.dump()).toBe(before);

    // A row only the store can reject (a new sku without a name) also rolls everything back.
    const storeBad = sandbox.file(`t${n}.csv`, 'sku,quantity\nA1,1\n');
    expectFailure(await run(['items', 'import', storeBad, '--org', slug, '--strict']), {
      status: 1,
      code: 'IMPORT_ROWS_FAILED',
      message: /line 2: name is required to create an item/,
    });
    expect(sandbox.dump()).toBe(before);

    // Rows the store would reject are reported beside the invalid ones, in file order.
    const mixed = sandbox.file(
      `m${n}.ndjson`,
      '{"name":"A","sku":"A1"}\n{"sku":"B1"}\n{"name":"C","quantity":"x"}\n',
    );
    const both = await run(['items', 'import', mixed, '--org', slug, '--strict']);
    expectFailure(both, {
      status: 1,
      code: 'IMPORT_ROWS_FAILED',
      message:
        /^stockroom: 2 rows rejected; nothing was imported \(--strict\); first: line 2: name is required to create an item/,
    });
    expect(both.stdout.split('\n')).toEqual([
      `Nothing imported from ${mixed} into ${slug} (--strict): 2 rows rejected`,
      '  line 2: name is required to create an item (no item has this sku yet)',
      '  line 3: quantity must be a finite number, got "x"',
      '',
    ]);
    expect(sandbox.dump()).toBe(before);

    const good = sandbox.file(`g${n}.csv`, 'name,sku\nA,A1\nB,B1\n');
    const ok = await run(['items', 'import', good, '--org', slug, '--strict', '--json']);
    expectSuccess(ok, { json: true });
    expect(ok.json).toMatchObject({ created: 2, failed: 0 });
  });

  it.each([
    [
      'bad.json',
      '[\n  {"name": "A"},\n  {"name": "B",}\n]',
      /^stockroom: .*bad\.json, line 3: invalid JSON: Expected double-quoted property name$/,
    ],
    [
      'bad.ndjson',
      '{"name":"A"}\n{"name":"B"}\n{name}\n',
      /^stockroom: .*bad\.ndjson, line 3: invalid JSON \(column 2\): /,
    ],
    [
      'bad.csv',
      'name,sku\nA,1\n"B,2\n',
      /^stockroom: .*bad\.csv, line 3: invalid CSV: Quote Not Closed/,
    ],
    [
      'unknown.csv',
      'name,colour\nA,red\n',
      /^stockroom: .*unknown\.csv, line 1: unknown column "colour"; allowed: name, /,
    ],
    [
      'latin1.csv',
      Buffer.from('name,sku\nCaf\xe9,C1\n', 'latin1'),
      /^stockroom: .*latin1\.csv, line 2: invalid UTF-8 at byte offset 12 \(the file must be UTF-8\); save the file as UTF-8/,
    ],
    [
      'latin1.ndjson',
      Buffer.from('{"name":"A"}\n{"name":"Caf\xe9"}\n', 'latin1'),
      /^stockroom: .*latin1\.ndjson, line 2: invalid UTF-8 at byte offset 25 /,
    ],
    [
      'latin1.json',
      Buffer.from('[{"name":"A"},\n{"name":"B"},\n{"name":"Caf\xe9"}]', 'latin1'),
      /^stockroom: .*latin1\.json, line 3: invalid UTF-8 at byte offset 41 /,
    ],
    [
      'utf16.csv',
      Buffer.from('\uFEFFname\nA\n', 'utf16le'),
      /^stockroom: .*utf16\.csv, line 1: invalid UTF-8 at byte offset 0 .*the file is UTF-16; save it as UTF-8$/,
    ],
    [
      'object.json',
      '\n\n  "just a string"',
      /^stockroom: .*object\.json, line 3: expected a JSON array of items/,
    ],
    ['empty.csv', '', /^stockroom: .*empty\.csv: the file is empty/],
  ])(
    'a malformed file (%s) is exit 1 with one line naming file and line, and writes nothing',
    async (name, content, message) => {
      const file = sandbox.file(`${n}-${name}`, content);
      const before = sandbox.dump();
      expectFailure(await run(['items', 'import', file, '--org', slug]), { status: 1, message });
      expectFailure(await run(['items', 'import', file, '--org', slug, '--json']), {
        status: 1,
        code: 'INVALID_FILE',
        json: true,
      });
      expect(sandbox.dump()).toBe(before);
    },
  );

  it.each([
    ['ndjson', '{"name":"A"}\n{"name":"B","colour":"red"}\n{"name":"C"}\n'],
    ['json', '[{"name":"A"},\n{"name":"B","colour":"red"},\n{"name":"C"}]'],
  ])('an unknown field in one %s record rejects that row only', async (extension, content) => {
    const file = sandbox.file(`unknown${n}.${extension}`, content);
    const result = await run(['items', 'import', file, '--org', slug, '--json']);
    expectFailure(result, {
      status: 1,
      code: 'IMPORT_ROWS_FAILED',
      json: true,
      message:
        /^stockroom: 1 of 3 rows rejected; first: line 2: unknown field "colour"; allowed: name, description, sku, barcode, status, quantity, stock, customFields/,
    });
    expect(result.json).toMatchObject({ created: 2, failed: 1, errors: [{ line: 2 }] });
    expect((await items()).map((item) => item.name)).toEqual(['A', 'C']);
  });

  it('reads files relative to the working directory and explains a missing one', async () => {
    sandbox.file(`rel${n}.csv`, 'name\nA\n');
    expectSuccess(await run(['items', 'import', `rel${n}.csv`, '--org', slug]));
    expectFailure(await run(['items', 'import', 'missing.csv', '--org', slug]), {
      status: 1,
      message: /^stockroom: missing\.csv: cannot read the file: no such file$/,
    });
  });

  it('usage errors and an unknown organization', async () => {
    const file = sandbox.file(`x${n}.csv`, 'name\nA\n');
    expectFailure(await run(['items', 'import', file]), {
      status: 2,
      message: /required option '--org <ORG>'/,
    });
    expectFailure(await run(['items', 'import', '--org', slug]), {
      status: 2,
      message: /missing required argument 'FILE'/,
    });
    expectFailure(await run(['items', 'import', file, '--org', slug, '--dry-run']), {
      status: 2,
      message: /unknown option '--dry-run'/,
    });
    expectFailure(await run(['items', 'import', file, '--org', 'nope', '--json']), {
      status: 1,
      code: 'ORGANIZATION_NOT_FOUND',
      json: true,
    });
    expect(await items()).toEqual([]);
  });
});

describe('stockroom items delete', () => {
  beforeEach(async () => {
    const file = sandbox.file(`d${n}.csv`, 'name,sku\nA,A1\nB,B1\nC,\n');
    expectSuccess(await run(['items', 'import', file, '--org', slug]));
  });

  it('deletes by sku and by id', async () => {
    const bySkuRun = await run([
      'items',
      'delete',
      '--org',
      slug,
      '--sku',
      'A1',
      '--json',
      '--yes',
    ]);
    expectSuccess(bySkuRun, { json: true });
    expect(bySkuRun.json).toEqual({ deleted: true, sku: 'A1' });
    const b = (await bySku('B1')) as Item;
    const byIdRun = await run(['items', 'delete', '--org', orgId, '--id', b.id], {
      stdin: { isTTY: true, lines: ['y'] },
    });
    expect(byIdRun.stderr).toBe(`Delete the item "B" (id ${b.id}) from ${slug}? [y/N] `);
    expect(byIdRun.status).toBe(0);
    expect(byIdRun.stdout).toBe(`Deleted the item with id ${b.id} from ${slug}\n`);
    expect((await items()).map((i) => i.name)).toEqual(['C']);
  });

  it('asks on a terminal, needs --yes otherwise; an unknown item fails before anything is asked', async () => {
    const before = sandbox.dump();
    expectFailure(await run(['items', 'delete', '--org', slug, '--sku', 'A1']), {
      status: 2,
      message: new RegExp(
        `^stockroom: items delete would delete the item "A" \\(sku "A1"\\) from ${slug}; stdin is not a terminal, so nothing was asked and nothing changed: pass --yes to confirm$`,
      ),
    });
    const declined = await run(['items', 'delete', '--org', slug, '--sku', 'A1'], {
      stdin: { isTTY: true, lines: ['no'] },
    });
    expect(declined.status).toBe(1);
    expect(declined.stderr).toContain('stockroom: items delete cancelled; nothing was changed');
    const unknown = await run(['items', 'delete', '--org', slug, '--sku', 'NOPE'], {
      stdin: { isTTY: true, lines: ['y'] },
    });
    expectFailure(unknown, { status: 1, message: /no item with sku "NOPE"/ });
    expect(sandbox.dump()).toBe(before);
  });

  it.each([
    [['--sku', 'NOPE'], 1, /^stockroom: no item with sku "NOPE" in shop-\d+$/],
    [['--id', '0123456789abcdef01234567'], 1, /no item with id 0123456789abcdef01234567/],
    [[], 2, /pass --sku SKU or --id ID/],
    [
      ['--sku', 'A1', '--id', '0123456789abcdef01234567'],
      2,
      /cannot be used with option '--id <ID>'/,
    ],
    [['--id', 'A1'], 2, /must be an id: 24 lowercase hex characters/],
    [['--sku', ''], 2, /must be 1-100 characters/],
  ] as const)('delete %j fails with exit %i and deletes nothing', async (args, status, message) => {
    const before = sandbox.dump();
    expectFailure(await run(['items', 'delete', '--org', slug, '--yes', ...args]), {
      status,
      message,
    });
    expect(sandbox.dump()).toBe(before);
  });

  it('an item of another organization is not found', async () => {
    const other = (await run(['org', 'create', '--name', `Other ${n}`, '--json'])).json.slug;
    const before = sandbox.dump();
    expectFailure(await run(['items', 'delete', '--org', other, '--sku', 'A1', '--json', '-y']), {
      status: 1,
      code: 'ITEM_NOT_FOUND',
      json: true,
    });
    expect(sandbox.dump()).toBe(before);
  });
});
