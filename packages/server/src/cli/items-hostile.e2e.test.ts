import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import Database from '../store/sqlite/driver.js';
import { createCliSandbox, expectFailure, expectSuccess } from '../testing/cli-harness.js';

/**
 * `stockroom items import` as built (bin/stockroom.js): the rows are read and checked in the
 * reader thread (items/row-thread.ts), which the in-process tests do not start. The scenario of
 * issue 27: 3,000 rows, a deeply nested customFields after the 2,000th.
 */

const sandbox = createCliSandbox();
afterAll(() => sandbox.cleanup());

let orgId: string;
let slug: string;
let n = 0;

beforeAll(async () => {
  expectSuccess(await sandbox.run(['migrate']));
});

beforeEach(async () => {
  n++;
  slug = `deep-${n}`;
  orgId = (await sandbox.run(['org', 'create', '--name', `Deep ${n}`, '--json'])).json.id;
});

const DEEP = `${'{"a":'.repeat(4199)}{}${'}'.repeat(4199)}`;
const TOO_DEEP =
  'customFields nests objects and arrays more than 32 levels deep; the maximum is 32 (customFields itself is level 1)';

function rows(count: number, deepAt: number): string {
  const lines = Array.from(
    { length: count },
    (_, i) => `{"name":"Item ${i + 1}","sku":"S-${i + 1}","quantity":${i}}`,
  );
  lines[deepAt - 1] = `{"name":"Deep","sku":"DEEP","customFields":${DEEP}}`;
  return `${lines.join('\n')}\n`;
}

describe('stockroom items import and deeply nested customFields', () => {
  it('without --strict: a row error at its line, every other row imported, one audit event', async () => {
    const file = sandbox.file(`deep-${n}.ndjson`, rows(3000, 2500));
    const run = await sandbox.run(['items', 'import', file, '--org', slug, '--json']);
    expectFailure(run, {
      status: 1,
      code: 'IMPORT_ROWS_FAILED',
      message: `stockroom: 1 of 3000 rows rejected; first: line 2500: ${TOO_DEEP}`,
    });
    expect(run.json).toMatchObject({
      created: 2999,
      failed: 1,
      errors: [{ line: 2500, reason: TOO_DEEP }],
    });
    const store = sandbox.store();
    expect(await store.countItems(orgId)).toBe(2999);
    const events = (await store.listAuditEvents(orgId)).filter((e) =>
      e.action.startsWith('items.'),
    );
    expect(events.map((e) => [e.action, e.details])).toEqual([
      [
        'items.imported',
        expect.objectContaining({ created: 2999, updated: 0, unchanged: 0, failed: 1 }),
      ],
    ]);
  });

  it('with --strict: the row error at its line, nothing written', async () => {
    const file = sandbox.file(
      `deep-strict-${n}.csv`,
      `name,sku,customFields\nA,A,{}\nB,B,"${DEEP.replaceAll('"', '""')}"\n`,
    );
    const before = sandbox.dump();
    const run = await sandbox.run(['items', 'import', file, '--org', slug, '--strict']);
    expectFailure(run, {
      status: 1,
      code: 'IMPORT_ROWS_FAILED',
      message: `stockroom: 1 row rejected; nothing was imported (--strict); first: line 3: ${TOO_DEEP}`,
    });
    expect(sandbox.dump()).toBe(before);
  });
});

describe('stockroom items import stopped by the database midway', () => {
  it('exits 1 with one line, keeps the committed batches and records them', async () => {
    const file = sandbox.file(
      `stop-${n}.ndjson`,
      rows(3000, 2500).replace('"DEEP"', '"BOOM"').replace(DEEP, '{}'),
    );
    const db = new Database(sandbox.dbPath);
    db.exec(
      "CREATE TRIGGER boom BEFORE INSERT ON items WHEN NEW.sku = 'BOOM' BEGIN SELECT RAISE(ABORT, 'disk on fire'); END",
    );
    db.close();
    const run = await sandbox.run(['items', 'import', file, '--org', slug]);
    expectFailure(run, {
      status: 1,
      message: `stockroom: ${file}: the import stopped at line 2001: disk on fire; committed before it: 2000 created, 0 updated, 0 unchanged, 0 failed (recorded in the audit log as items.imported)`,
    });
    const store = sandbox.store();
    const events = (await store.listAuditEvents(orgId)).filter((e) =>
      e.action.startsWith('items.'),
    );
    expect(events.map((e) => [e.action, e.details])).toEqual([
      [
        'items.imported',
        expect.objectContaining({
          created: 2000,
          updated: 0,
          unchanged: 0,
          failed: 0,
          stopped: 'disk on fire',
        }),
      ],
    ]);
    const db2 = new Database(sandbox.dbPath);
    db2.exec('DROP TRIGGER boom');
    db2.close();
  });
});
