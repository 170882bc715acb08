import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../testing/cli-harness.js';
import { engineAvailability, type TestStore } from '../testing/engines.js';
import { execInSchema } from '../testing/postgres.js';
import { stockText } from './items/stock.js';
import { NonFiniteQuantitiesError } from './quantity-check.js';
import Database from './sqlite/driver.js';

/**
 * The start-up check (quantity-check.ts): a database holding a quantity that is not finite, as
 * stock sums past a double were stored before they were refused, does not start, on either
 * engine; its message gives the SQL that finds the rows and the SQL that repairs them, and
 * after that SQL the store starts. The rows are written with raw SQL, as each engine stored them
 * (SQLite: a REAL Infinity; PostgreSQL: double precision Infinity or NaN).
 */

const LEGS = await engineAvailability('stored quantities check');

for (const { engine, skip } of LEGS) {
  describe.skipIf(skip !== null)(`the start-up check of quantities on ${engine.name}`, () => {
    let handle: TestStore;
    beforeAll(async () => {
      handle = await engine.open();
      await handle.store.migrate();
    });
    afterAll(() => handle?.cleanup());

    async function sql(statements: string): Promise<void> {
      if (engine.name === 'postgres') return execInSchema(handle.url, statements);
      const db = new Database(handle.url);
      try {
        db.exec(statements);
      } finally {
        db.close();
      }
    }

    const infinity = engine.name === 'postgres' ? "'Infinity'" : '9e999';
    const notANumber = engine.name === 'postgres' ? "'NaN'" : '-9e999';

    it('refuses to start with the SQL that finds and repairs the rows; starts once they are repaired', async () => {
      const { store } = handle;
      const org = await store.createOrganization({ name: 'q', slug: 'q', features: [] });
      await store.createLocation(org.id, { code: 'A', name: 'A' });
      await store.createLocation(org.id, { code: 'B', name: 'B' });
      await store.writeItems(org.id, [
        { sku: 'INF', name: 'Inf', stock: stockText({ A: 1e308, B: 1 }) },
        { sku: 'ROW', name: 'Row', stock: stockText({ A: 1, B: 2 }) },
        { sku: 'OK', name: 'Ok', stock: stockText({ A: 4 }) },
      ]);
      const [inf] = await store.listItems(org.id, { limit: 1, sku: 'INF' });
      // As a sum past a double was stored before it was refused, and a stock row gone bad.
      await sql(
        `UPDATE items SET quantity = ${infinity} WHERE sku = 'INF'; UPDATE item_stock SET quantity = ${notANumber} WHERE location_code = 'B' AND item_id = (SELECT id FROM items WHERE sku = 'ROW')`,
      );

      const refused = await store.migrate().then(
        () => null,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(NonFiniteQuantitiesError);
      const message = (refused as Error).message;
      expect(message).toMatch(
        new RegExp(
          `^1 item and 1 stock row hold a quantity that is not a finite number \\(for example item ${inf?.id} of organization ${org.id}\\), which Stockroom would serve as null; repair them and start again\\. Find them: SELECT `,
        ),
      );
      expect(message).not.toContain('\n');

      // The CLI says the same in its one line, and `stockroom migrate` exits 1.
      const cli = await runCli(['migrate'], { env: { DATABASE_URL: handle.url } });
      expect(cli.status).toBe(1);
      expect(cli.stderr).toContain('1 item and 1 stock row hold a quantity that is not a finite');
      // And `stockroom serve` does not start.
      const serve = await runCli(
        ['serve', '--port', '0', '--docs-port', '0', '--no-demo', '--json'],
        {
          env: { DATABASE_URL: handle.url, LOG_LEVEL: 'silent' },
        },
      );
      expect(serve.status).toBe(1);
      expect(serve.json.error).toEqual({ code: 'DATABASE_ERROR', message });

      // The message's own SQL finds the rows and repairs them.
      const find = /Find them: (.*?); reset those items/.exec(message)?.[1] as string;
      const repair = /and no stock rows: (.*?); then import/.exec(message)?.[1] as string;
      expect(find).toBeTruthy();
      expect(repair).toBeTruthy();
      await sql(`${find};`);
      await sql(`${repair};`);
      await expect(store.migrate()).resolves.toEqual([]);
      const items = await store.listItems(org.id, { limit: 10 });
      expect(items.map((item) => [item.sku, item.quantity, item.stock]).sort()).toEqual([
        ['INF', 0, '[]'],
        ['OK', 4, stockText({ A: 4 })],
        ['ROW', 0, '[]'],
      ]);
      const outcomes = await store.writeItems(org.id, [
        { sku: 'INF', stock: stockText({ A: 7 }) },
        { sku: 'ROW', stock: stockText({ A: 1, B: 2 }) },
      ]);
      expect(outcomes).toEqual(['updated', 'updated']);
    });
  });
}
