import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminTestServer, startAdminTestServer } from '../admin/testing.js';
import { stockText } from '../store/items/stock.js';
import type { Organization } from '../store/types.js';
import { createCliSandbox, runCli } from '../testing/cli-harness.js';
import { engineAvailability } from '../testing/engines.js';

/**
 * Only finite quantities are stored (docs/architecture.md#items), on every path that writes
 * items and on both engines: a number beyond a double (`1e400`, which JSON and CSV parse to
 * Infinity) or stock quantities adding up past one (`1e308 + 1e308`, the item's quantity) was
 * stored as Infinity and served as `"quantity": null`. Now it is a row error of imports (CSV,
 * JSON, NDJSON, with and without --strict), a 400 of the admin bulk upsert naming the field,
 * and a refusal of the store itself.
 */

const LEGS = await engineAvailability('finite quantities');
const files = createCliSandbox();
afterAll(() => files.cleanup());

const SUM =
  "the quantities of stock add up to more than 1.7976931348623157e+308, the largest number a quantity can hold, and an item's quantity is their sum; give smaller quantities";
const BEYOND =
  'quantity is beyond 1.7976931348623157e+308, the largest number a quantity can hold; give a smaller number';

/** Per format: a row whose stock adds up past a double, one whose quantity is beyond it, a good one. */
const FILES = {
  csv: 'name,sku,quantity,stock.A,stock.B\nSum,SUM,,1e308,1e308\nBig,BIG,1e400,,\nOk,OK,3,,\n',
  json: '[\n{"name":"Sum","sku":"SUM","stock":{"A":1e308,"B":1e308}},\n{"name":"Big","sku":"BIG","quantity":1e400},\n{"name":"Ok","sku":"OK","quantity":3}\n]\n',
  ndjson:
    '{"name":"Ok","sku":"OK","quantity":3}\n{"name":"Sum","sku":"SUM","stock":[{"location":"A","quantity":1e308},{"location":"B","quantity":1e308}]}\n{"name":"Big","sku":"BIG","quantity":1e400}\n',
};

let n = 0;

for (const { engine, skip } of LEGS) {
  describe.skipIf(skip !== null)(`finite quantities on ${engine.name}`, () => {
    let t: AdminTestServer;
    beforeAll(async () => {
      t = await startAdminTestServer({ engine: engine.name });
    });
    afterAll(() => t?.close());

    async function organization(): Promise<Organization> {
      const org = await t.server.createOrganization();
      await t.server.store.createLocation(org.id, { code: 'A', name: 'A' });
      await t.server.store.createLocation(org.id, { code: 'B', name: 'B' });
      return org;
    }

    const skus = async (org: Organization) =>
      (await t.server.store.listItems(org.id, { limit: 100 })).map((item) => [
        item.sku,
        item.quantity,
      ]);

    for (const [format, content] of Object.entries(FILES)) {
      for (const strict of [false, true]) {
        it(`items import (${format}${strict ? ', --strict' : ''}): row errors, nothing non-finite stored`, async () => {
          const org = await organization();
          const file = files.file(`finite-${++n}.${format}`, content);
          const run = await runCli(
            ['items', 'import', file, '--org', org.slug, '--json', ...(strict ? ['--strict'] : [])],
            { env: { DATABASE_URL: t.server.dbPath } },
          );
          expect(run.status, run.stderr).toBe(1);
          expect(run.json.errors).toEqual([
            { line: 2, reason: SUM },
            { line: 3, reason: BEYOND },
          ]);
          expect(await skus(org)).toEqual(strict ? [] : [['OK', 3]]);
        });
      }
    }

    it('items import: an update whose stock would add up past a double leaves the item as stored', async () => {
      const org = await organization();
      await t.server.createItems(org.id, [{ sku: 'X', name: 'X', stock: stockText({ A: 1e308 }) }]);
      const file = files.file(
        `finite-${++n}.ndjson`,
        '{"sku":"X","stock":{"A":1e308,"B":1e308}}\n',
      );
      const run = await runCli(['items', 'import', file, '--org', org.slug, '--json'], {
        env: { DATABASE_URL: t.server.dbPath },
      });
      expect(run.json.errors).toEqual([{ line: 1, reason: SUM }]);
      expect(await skus(org)).toEqual([['X', 1e308]]);
    });

    for (const mode of ['all-or-nothing', 'per-row']) {
      it(`admin bulk-upsert (${mode}): 400 naming the row's field, nothing written`, async () => {
        const org = await organization();
        const path = `/admin/v1/organizations/${org.slug}/items/bulk-upsert?mode=${mode}`;
        const sum = await t.admin('POST', path, {
          json: [
            { sku: 'OK', name: 'Ok', quantity: 1 },
            { sku: 'SUM', name: 'Sum', stock: { A: 1e308, B: 1e308 } },
          ],
        });
        expect(sum.status, sum.text).toBe(400);
        expect(sum.body.error).toMatchObject({
          code: 'INVALID_REQUEST',
          param: 'body[1].stock',
          message: `Row 1: ${SUM}. Nothing was written; fix the row and send the request again.`,
        });
        // JSON.stringify cannot write 1e400: the body is sent as text, as a client would.
        const big = await t.admin('POST', path, {
          raw: '[{"sku":"BIG","name":"Big","quantity":1e400},{"sku":"S","name":"S","stock":[{"location":"A","quantity":-1e400}]}]',
          headers: { 'content-type': 'application/json' },
        });
        expect(big.status, big.text).toBe(400);
        expect(big.body.error).toMatchObject({
          code: 'INVALID_REQUEST',
          param: 'body[0].quantity',
          message: `Row 0: ${BEYOND}. Nothing was written; fix the row and send the request again.`,
        });
        const stock = await t.admin('POST', path, {
          raw: '[{"sku":"S","name":"S","stock":{"A":1e400}}]',
          headers: { 'content-type': 'application/json' },
        });
        expect(stock.body.error).toMatchObject({
          param: 'body[0].stock.A',
          message: expect.stringContaining(
            'stock.A is beyond 1.7976931348623157e+308, the largest number a quantity can hold',
          ),
        });
        expect(await skus(org)).toEqual([]);
      });
    }

    it('the store refuses a non-finite quantity or stock sum however it is called', async () => {
      const org = await organization();
      const outcomes = await t.server.store.writeItems(org.id, [
        { sku: 'SUM', name: 'Sum', stock: stockText({ A: 1e308, B: 1e308 }) },
        { sku: 'INF', name: 'Inf', quantity: Number.POSITIVE_INFINITY },
        { sku: 'NAN', name: 'NaN', quantity: Number.NaN },
        { sku: 'OK', name: 'Ok', quantity: 2 },
      ]);
      expect(outcomes).toEqual([
        { error: SUM },
        { error: BEYOND },
        { error: 'quantity is not a number (NaN); give a finite number' },
        'created',
      ]);
      expect(await skus(org)).toEqual([['OK', 2]]);
    });
  });
}
