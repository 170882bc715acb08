import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { cliActor } from '../operations/audit.js';
import { importItemsFile } from '../operations/items.js';
import Database from '../store/sqlite/driver.js';
import { SqliteStore } from '../store/sqlite/sqlite-store.js';
import type { Item, Organization } from '../store/types.js';
import { ImportFileError, ImportStoppedError } from './errors.js';
import { type ImportProgress, importItems } from './import.js';

const dir = mkdtempSync(path.join(tmpdir(), 'stockroom-import-'));
const dbPath = path.join(dir, 'stockroom.db');
const store = new SqliteStore(dbPath);
await store.migrate();
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

let orgId: string;
let n = 0;
beforeEach(async () => {
  n++;
  orgId = (await store.createOrganization({ name: `Org ${n}`, slug: `org-${n}`, features: [] })).id;
});

function file(name: string, content: string | Buffer): string {
  const target = path.join(dir, `${n}-${name}`);
  writeFileSync(target, content);
  return target;
}

async function items(): Promise<Item[]> {
  return store.listItems(orgId, { limit: 1000 });
}

async function bySku(sku: string): Promise<Item | undefined> {
  return (await items()).find((item) => item.sku === sku);
}

describe('importItems', () => {
  it('creates, then reports identical rows as unchanged without touching updatedAt', async () => {
    const csv = file(
      'a.csv',
      'name,sku,quantity,status,customFields\nTent,T-1,2,Active,"{""b"":1,""a"":2}"\nLamp,,1,Draft,{}\n',
    );
    expect(await importItems(store, orgId, csv)).toEqual({
      created: 2,
      updated: 0,
      unchanged: 0,
      failed: 0,
      errors: [],
    });
    const before = await bySku('T-1');
    expect(before).toMatchObject({
      name: 'Tent',
      quantity: 2,
      status: 'Active',
      customFields: '{"b":1,"a":2}',
    });

    // Rows without a sku are always created; the sku row is unchanged.
    expect(await importItems(store, orgId, csv)).toMatchObject({
      created: 1,
      unchanged: 1,
      updated: 0,
    });
    const after = await bySku('T-1');
    expect(after?.updatedAt).toBe(before?.updatedAt);
    expect(after?.id).toBe(before?.id);
    expect(await items()).toHaveLength(3);
  });

  it('updates by sku, leaving absent columns as stored and setting empty cells to null', async () => {
    await importItems(
      store,
      orgId,
      file(
        'a.json',
        '[{"name":"Tent","sku":"T-1","description":"Old","barcode":"123","quantity":5,"customFields":{"c":1}}]',
      ),
    );
    const created = await bySku('T-1');
    const result = await importItems(
      store,
      orgId,
      file('b.csv', 'sku,quantity,description\nT-1,7,\n'),
    );
    expect(result).toMatchObject({ updated: 1, failed: 0 });
    const updated = await bySku('T-1');
    expect(updated).toMatchObject({
      id: created?.id,
      name: 'Tent',
      barcode: '123',
      quantity: 7,
      description: null,
      customFields: '{"c":1}',
      createdAt: created?.createdAt,
    });
  });

  it('rejects every later occurrence of a sku in the file, even after a rejected first one', async () => {
    const result = await importItems(
      store,
      orgId,
      file(
        'd.ndjson',
        '{"name":"A","sku":"S"}\n{"name":"B","sku":"S"}\n{"name":"","sku":"R"}\n{"name":"C","sku":"R"}\n',
      ),
    );
    expect(result).toEqual({
      created: 1,
      updated: 0,
      unchanged: 0,
      failed: 3,
      errors: [
        {
          line: 2,
          reason: 'duplicate sku "S" (first used on line 1); each sku may appear once per file',
        },
        { line: 3, reason: 'name cannot be an empty string' },
        {
          line: 4,
          reason: 'duplicate sku "R" (first used on line 3); each sku may appear once per file',
        },
      ],
    });
    expect((await items()).map((i) => i.name)).toEqual(['A']);
  });

  it('reports rows the store rejects at their line, in file order, across batches', async () => {
    await importItems(store, orgId, file('seed.csv', 'name,sku\nA,A1\nC,C1\n'));
    // Without a name column, a new sku can only be told apart from an update by the store.
    // Batches of 3: the parse rejection of line 4 is seen before the store rejects line 3.
    const result = await importItems(
      store,
      orgId,
      file('s.csv', 'sku,quantity\nA1,5\nN1,2\nB1,x\nC1,3\nN2,4\n'),
      { batchSize: 3 },
    );
    expect(result).toEqual({
      created: 0,
      updated: 2,
      unchanged: 0,
      failed: 3,
      errors: [
        { line: 3, reason: 'name is required to create an item (no item has this sku yet)' },
        { line: 4, reason: 'quantity must be a number such as 12 or 12.5, got "x"' },
        { line: 6, reason: 'name is required to create an item (no item has this sku yet)' },
      ],
    });
    expect((await items()).map((i) => [i.sku, i.quantity])).toEqual([
      ['A1', 5],
      ['C1', 3],
    ]);
  });

  it('writes batch after batch: rows before a rejected row are kept without --strict', async () => {
    const rows = Array.from({ length: 25 }, (_, i) => `Item ${i},SKU-${i},${i}`);
    rows[20] = 'Bad,SKU-20,oops';
    const result = await importItems(
      store,
      orgId,
      file('big.csv', `name,sku,quantity\n${rows.join('\n')}\n`),
      {
        batchSize: 4,
      },
    );
    expect(result).toMatchObject({ created: 24, failed: 1, errors: [{ line: 22 }] });
    expect(await items()).toHaveLength(24);
  });

  it('with strict, writes nothing when any row is rejected by validation', async () => {
    const result = await importItems(store, orgId, file('x.csv', 'name,sku\nA,A1\n,B1\nC,C1\n'), {
      strict: true,
    });
    expect(result).toEqual({
      created: 0,
      updated: 0,
      unchanged: 0,
      failed: 1,
      errors: [{ line: 3, reason: 'name is required and cannot be empty' }],
    });
    expect(await items()).toHaveLength(0);
  });

  it('with strict, writes nothing when the store rejects a row, and everything otherwise', async () => {
    const bad = await importItems(store, orgId, file('y.csv', 'sku,quantity\nA1,1\n'), {
      strict: true,
    });
    expect(bad).toEqual({
      created: 0,
      updated: 0,
      unchanged: 0,
      failed: 1,
      errors: [
        { line: 2, reason: 'name is required to create an item (no item has this sku yet)' },
      ],
    });
    const good = await importItems(store, orgId, file('z.csv', 'name,sku\nA,A1\nB,B1\n'), {
      strict: true,
    });
    expect(good).toEqual({ created: 2, updated: 0, unchanged: 0, failed: 0, errors: [] });
    expect(await items()).toHaveLength(2);
  });

  it('writes nothing when the file turns out malformed after many good rows', async () => {
    const good = Array.from({ length: 30 }, (_, i) => `{"name":"Item ${i}","sku":"S${i}"}`);
    const ndjson = file('m.ndjson', `${good.join('\n')}\n{"name": oops}\n`);
    const error = await importItems(store, orgId, ndjson, { batchSize: 5 }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ImportFileError);
    expect((error as ImportFileError).line).toBe(31);
    expect(await items()).toHaveLength(0);

    const csv = file(
      'm.csv',
      `name,sku\n${good.map((_, i) => `Item ${i},S${i}`).join('\n')}\n"unclosed,x\n`,
    );
    await expect(importItems(store, orgId, csv, { batchSize: 5 })).rejects.toThrow(
      /^line 32: invalid CSV/,
    );
    // A byte that is not UTF-8, after many good rows: found before anything is written.
    const latin1 = file(
      'l.ndjson',
      Buffer.concat([
        Buffer.from(`${good.join('\n')}\n{"name":"Caf`),
        Buffer.from([0xe9]),
        Buffer.from('"}\n'),
      ]),
    );
    await expect(importItems(store, orgId, latin1, { batchSize: 5 })).rejects.toThrow(
      /^line 31: invalid UTF-8 at byte offset \d+/,
    );
    expect(await items()).toHaveLength(0);
  });

  it('rejects a JSON record with an unknown field as a row, and imports the others', async () => {
    const result = await importItems(
      store,
      orgId,
      file('u.json', '[{"name":"A"},\n{"name":"B","color":"red"},\n{"name":"C"}]'),
      { batchSize: 1 },
    );
    expect(result).toMatchObject({
      created: 2,
      failed: 1,
      errors: [
        { line: 2, reason: expect.stringMatching(/^unknown field "color"; allowed: name, /) },
      ],
    });
    expect((await items()).map((item) => item.name)).toEqual(['A', 'C']);
  });

  it('with strict, reports the rows the store would reject beside the invalid ones', async () => {
    const ndjson = file(
      's.ndjson',
      '{"name":"A","sku":"A1"}\n{"sku":"B1"}\n{"name":"C","quantity":"x"}\n{"sku":"D1","quantity":2}\n',
    );
    const result = await importItems(store, orgId, ndjson, { strict: true });
    expect(result).toEqual({
      created: 0,
      updated: 0,
      unchanged: 0,
      failed: 3,
      errors: [
        { line: 2, reason: 'name is required to create an item (no item has this sku yet)' },
        { line: 3, reason: 'quantity must be a finite number, got "x"' },
        { line: 4, reason: 'name is required to create an item (no item has this sku yet)' },
      ],
    });
    expect(await items()).toHaveLength(0);
  });

  it('re-imports items exported from the API shape', async () => {
    await importItems(
      store,
      orgId,
      file('e.json', '[{"name":"Tent","sku":"T-1","customFields":{"b":[1],"a":{}}}]'),
    );
    const item = (await bySku('T-1')) as Item;
    const exported = [
      {
        _id: item.id,
        organizationId: item.organizationId,
        name: item.name,
        description: item.description,
        sku: item.sku,
        barcode: item.barcode,
        status: item.status,
        quantity: item.quantity,
        customFields: JSON.parse(item.customFields),
        createdAt: new Date(item.createdAt).toISOString(),
        updatedAt: new Date(item.updatedAt).toISOString(),
      },
    ];
    const result = await importItems(
      store,
      orgId,
      file('e2.json', JSON.stringify(exported, null, 2)),
    );
    expect(result).toMatchObject({ unchanged: 1, failed: 0 });
    expect((await bySku('T-1'))?.customFields).toBe('{"b":[1],"a":{}}');
  });

  it('reports progress: checking in bytes, then writing in rows', async () => {
    const events: ImportProgress[] = [];
    const content = 'name,sku\nA,1\nB,2\nC,3\n';
    await importItems(store, orgId, file('p.csv', content), {
      batchSize: 2,
      onProgress: (p) => events.push(p),
    });
    const checking = events.filter((e) => e.phase === 'checking');
    const writing = events.filter((e) => e.phase === 'writing');
    expect(checking.at(-1)).toEqual({
      phase: 'checking',
      done: content.length,
      total: content.length,
    });
    expect(writing.map((e) => e.done)).toEqual([0, 2, 3]);
    expect(writing.every((e) => e.total === 3)).toBe(true);
    expect(events.findIndex((e) => e.phase === 'writing')).toBeGreaterThan(
      events.findLastIndex((e) => e.phase === 'checking'),
    );
  });
});

/** customFields nested `depth` levels deep (customFields itself is level 1). */
function nested(depth: number): string {
  return `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`;
}

const TOO_DEEP =
  'customFields nests objects and arrays more than 32 levels deep; the maximum is 32 (customFields itself is level 1)';

describe('importItems and deeply nested customFields', () => {
  it('takes 32 levels, and rejects 33 and 4,200 as rows naming the line and the limit, in every format and mode', async () => {
    const deep = nested(4200);
    const json = file(
      'n.json',
      `[{"name":"A","sku":"A","customFields":${nested(32)}},\n{"name":"B","sku":"B","customFields":${nested(33)}},\n{"name":"C","sku":"C","customFields":${deep}},\n{"name":"D","sku":"D"}]`,
    );
    const ndjson = file(
      'n.ndjson',
      `{"name":"A","sku":"A","customFields":${nested(32)}}\n{"name":"B","sku":"B","customFields":${nested(33)}}\n{"name":"C","sku":"C","customFields":${deep}}\n{"name":"D","sku":"D"}\n`,
    );
    const cell = (value: string) => `"${value.replaceAll('"', '""')}"`;
    const csv = file(
      'n.csv',
      `name,sku,customFields\nA,A,${cell(nested(32))}\nB,B,${cell(nested(33))}\nC,C,${cell(deep)}\nD,D,{}\n`,
    );
    const rejected = [
      { line: 2, reason: TOO_DEEP },
      { line: 3, reason: TOO_DEEP },
    ];
    const jsonRejected = [
      { line: 2, reason: TOO_DEEP },
      { line: 3, reason: TOO_DEEP },
    ];
    for (const [name, source, errors] of [
      ['json', json, jsonRejected],
      ['ndjson', ndjson, rejected],
      ['csv', csv, rejected.map((e) => ({ ...e, line: e.line + 1 }))],
    ] as const) {
      const strict = await importItems(store, orgId, source, { strict: true });
      expect(strict, name).toEqual({
        created: 0,
        updated: 0,
        unchanged: 0,
        failed: 2,
        errors,
      });
      expect(await items(), name).toEqual([]);
      const loose = await importItems(store, orgId, source, { batchSize: 1 });
      expect(loose, name).toEqual({ created: 2, updated: 0, unchanged: 0, failed: 2, errors });
      expect((await items()).map((item) => item.sku)).toEqual(['A', 'D']);
      expect((await bySku('A'))?.customFields).toBe(nested(32));
      for (const item of await items()) await store.deleteItem(orgId, { id: item.id });
    }
  });

  it('names a too-deep value of another field by its type, never walking it', async () => {
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    const result = await importItems(
      store,
      orgId,
      file('q.ndjson', `{"name":"A","quantity":${deep},"status":${deep}}\n`),
    );
    expect(result.errors).toEqual([
      {
        line: 1,
        reason:
          'quantity must be a finite number, got an array; status must be one of Draft, Active, Inactive, Discontinued (exact case), got an array',
      },
    ]);
  });
});

describe('an import that stops midway', () => {
  let organization: Organization;
  beforeEach(async () => {
    organization = (await store.getOrganization(orgId)) as Organization;
  });

  /** A database error on one row, from the database itself: a trigger refusing its sku. */
  function failOnSku(sku: string): () => void {
    const db = new Database(dbPath);
    db.exec(
      `CREATE TRIGGER fail_${n} BEFORE INSERT ON items WHEN NEW.sku = '${sku}' BEGIN SELECT RAISE(ABORT, 'disk on fire'); END`,
    );
    return () => {
      db.exec(`DROP TRIGGER fail_${n}`);
      db.close();
    };
  }

  it('keeps the batches committed before it, records them in the audit log, and says so in one line', async () => {
    const rows = Array.from({ length: 12 }, (_, i) => `{"name":"Item ${i}","sku":"S${i}"}`);
    rows[9] = '{"name":"Boom","sku":"BOOM"}';
    rows[3] = '{"name":""}';
    const source = file('stop.ndjson', `${rows.join('\n')}\n`);
    const restore = failOnSku('BOOM');
    let error: unknown;
    try {
      error = await importItemsFile(store, cliActor(), organization, source, {
        batchSize: 4,
      }).catch((e: unknown) => e);
    } finally {
      restore();
    }
    expect(error).toBeInstanceOf(ImportStoppedError);
    const stopped = error as ImportStoppedError;
    // Batches of 4 valid rows: lines 1-5 (line 4 rejected) and 6-9 committed; 10-12 not.
    expect(stopped.committed).toEqual({ created: 8, updated: 0, unchanged: 0, failed: 1 });
    expect(stopped.where).toBe('at line 10');
    expect(stopped.message).toBe(
      'the import stopped at line 10: disk on fire; committed before it: 8 created, 0 updated, 0 unchanged, 1 failed',
    );
    expect(await items()).toHaveLength(8);
    const events = await store.listAuditEvents(orgId);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      action: 'items.imported',
      details: {
        file: path.basename(source),
        created: 8,
        updated: 0,
        unchanged: 0,
        failed: 1,
        stopped: 'disk on fire',
      },
    });
    // The CLI's one line for it is tested in cli/items-stopped.test.ts.
    expect(stopped.message).not.toContain('\n');
    expect((stopped.cause as { code?: string }).code).toMatch(/^SQLITE_/);
  });

  it('with strict, keeps nothing and records nothing', async () => {
    const source = file('stop.csv', 'name,sku\nA,A\nBoom,BOOM\nC,C\n');
    const restore = failOnSku('BOOM');
    let error: unknown;
    try {
      error = await importItemsFile(store, cliActor(), organization, source, {
        strict: true,
      }).catch((e: unknown) => e);
    } finally {
      restore();
    }
    expect(error).toBeInstanceOf(ImportStoppedError);
    expect((error as ImportStoppedError).committed).toEqual({
      created: 0,
      updated: 0,
      unchanged: 0,
      failed: 0,
    });
    expect((error as Error).message).toBe(
      'the import stopped: disk on fire; committed before it: 0 created, 0 updated, 0 unchanged, 0 failed',
    );
    expect(await items()).toEqual([]);
    expect(await store.listAuditEvents(orgId)).toEqual([]);
    expect((error as ImportStoppedError).where).toBeUndefined();
  });
});

describe('names in import errors', () => {
  it('cuts an unknown column at 100 characters, with an ellipsis and its length', async () => {
    const long = 'x'.repeat(200_000);
    const error = await importItems(store, orgId, file('wide.csv', `name,${long}\nA,1\n`)).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ImportFileError);
    expect((error as ImportFileError).message).toBe(
      `line 1: unknown column "${'x'.repeat(100)}…" (200000 characters); allowed: name, description, sku, barcode, status, quantity, stock.CODE, customFields (ignored: _id, organizationId, createdAt, updatedAt)`,
    );
    const twice = await importItems(
      store,
      orgId,
      file('twice.csv', `name,${'é'.repeat(150)},${'é'.repeat(150)}\n`),
    ).catch((e: unknown) => e);
    expect((twice as Error).message).toBe(
      `line 1: unknown column "${'é'.repeat(100)}…" (150 characters); allowed: name, description, sku, barcode, status, quantity, stock.CODE, customFields (ignored: _id, organizationId, createdAt, updatedAt)`,
    );
    expect(await items()).toEqual([]);
  });

  it('refuses a 10 MB header in one line, without reading it whole', async () => {
    const long = 'x'.repeat(10 * 1024 * 1024);
    const error = await importItems(store, orgId, file('huge.csv', `name,${long}\nA,1\n`)).catch(
      (e: unknown) => e,
    );
    expect((error as ImportFileError).message).toBe(
      'line 1: invalid CSV: a record is longer than 1048576 characters (1 MiB); no valid item needs a tenth of that: check the quotes and line breaks',
    );
  });

  it('cuts unknown JSON field names the same way, listing at most 10 of them', async () => {
    const fields = Object.fromEntries(
      Array.from({ length: 12 }, (_, i) => [`${i}${'😀'.repeat(60)}`, 1]),
    );
    const result = await importItems(
      store,
      orgId,
      file('many.ndjson', `${JSON.stringify({ name: 'A', ...fields })}\n`),
    );
    const reason = result.errors[0]?.reason ?? '';
    expect(reason).toMatch(
      /^unknown fields "0(😀){49}…" \(61 characters\), "1(😀){49}…" \(61 characters\), .*, and 2 more; allowed: /u,
    );
    expect(reason.length).toBeLessThan(2000);
  });
});
