import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCliSandbox, expectFailure, expectSuccess } from '../testing/cli-harness.js';

const sandbox = createCliSandbox();
afterAll(() => sandbox.cleanup());
const run = sandbox.run;

describe('stockroom location', () => {
  let orgId: string;

  beforeAll(async () => {
    expectSuccess(await run(['migrate']));
    orgId = (await run(['org', 'create', '--name', 'Depot', '--json'])).json.id;
  });

  it('creates locations, lists them by code and refuses a taken code', async () => {
    const created = await run([
      'location',
      'create',
      '--org',
      'depot',
      '--code',
      'WH',
      '--name',
      'Warehouse',
      '--json',
    ]);
    expectSuccess(created, { json: true });
    expect(created.json).toMatchObject({ organizationId: orgId, code: 'WH', name: 'Warehouse' });
    const human = await run([
      'location',
      'create',
      '--org',
      'depot',
      '--code',
      'SHOP',
      '--name',
      'Shop',
    ]);
    expectSuccess(human);
    expect(human.stdout).toContain('Created location SHOP (Shop)');
    const listed = await run(['location', 'list', '--org', 'depot', '--json']);
    expectSuccess(listed, { json: true });
    expect(listed.json.locations.map((l: { code: string }) => l.code)).toEqual(['SHOP', 'WH']);
    const table = await run(['location', 'list', '--org', 'depot']);
    expect(table.stdout).toMatch(/^CODE\s+NAME\s+ID\s+CREATED/);
    expectFailure(
      await run(['location', 'create', '--org', 'depot', '--code', 'WH', '--name', 'x', '--json']),
      { status: 1, code: 'CONFLICT', message: /already has a location with code WH/, json: true },
    );
    expectFailure(
      await run(['location', 'create', '--org', 'depot', '--code', 'no space', '--name', 'x']),
      { status: 2, message: /--code.*1-32 characters/ },
    );
  });

  it('imports stock.CODE columns, then removing a location changes its items', async () => {
    const csv = sandbox.file(
      'stock.csv',
      'sku,name,stock.WH,stock.SHOP\nA,Alpha,3,2\nB,Beta,,5\nC,Gamma,,\n',
    );
    expectSuccess(await run(['items', 'import', csv, '--org', 'depot']));
    const store = sandbox.store();
    const items = await store.listItems(orgId, { limit: 10 });
    expect(items.map((i) => [i.sku, i.quantity, i.stock])).toEqual([
      ['A', 5, '[{"location":"SHOP","quantity":2},{"location":"WH","quantity":3}]'],
      ['B', 5, '[{"location":"SHOP","quantity":5}]'],
      ['C', 0, '[]'],
    ]);
    const removed = await run([
      'location',
      'remove',
      '--org',
      'depot',
      '--code',
      'SHOP',
      '--yes',
      '--json',
    ]);
    expectSuccess(removed, { json: true });
    expect(removed.json).toMatchObject({ removed: { code: 'SHOP' }, itemsChanged: 2 });
    const after = await store.listItems(orgId, { limit: 10 });
    expect(after.map((i) => [i.sku, i.quantity])).toEqual([
      ['A', 3],
      ['B', 0],
      ['C', 0],
    ]);
    expectFailure(await run(['location', 'remove', '--org', 'depot', '--code', 'SHOP', '--yes']), {
      status: 1,
      message: /has no location with code SHOP/,
    });
    const audit = await store.listAuditEvents(orgId, { limit: 10 });
    expect(audit.map((e) => e.action)).toEqual(
      expect.arrayContaining(['location.created', 'location.removed']),
    );
  });

  it('refuses an import row naming an unknown location, and a bad stock column', async () => {
    const rows = sandbox.file('bad.ndjson', '{"sku":"Z","name":"Z","stock":{"NOPE":1}}\n');
    const result = await run(['items', 'import', rows, '--org', 'depot', '--json']);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('NOPE');
    const badColumn = sandbox.file('bad.csv', 'sku,name,stock.a b\nZ,Z,1\n');
    expectFailure(await run(['items', 'import', badColumn, '--org', 'depot']), {
      status: 1,
      message: /does not name a location code/,
    });
  });
});
