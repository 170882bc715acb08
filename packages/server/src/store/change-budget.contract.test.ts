import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openThreadedSqlite, type TestEngine } from '../testing/engines.js';
import { createTestSchema } from '../testing/postgres.js';
import { postgresUnavailable } from '../testing/services.js';
import { changeListStatement } from './postgres/item-query.js';
import { PostgresStore } from './postgres/postgres-store.js';
import Database from './sqlite/driver.js';
import { SqliteStore } from './sqlite/sqlite-store.js';
import type { ChangeQuery, Store } from './types.js';

/**
 * The change feed's scan budget (issue 41), on every engine: a page that may pass over changes
 * (here a key's view whose deletions name only what it could have seen) examines at most the
 * budget of changes after its position, items and tombstones together. When the budget runs
 * out first the page is short, even empty, says more follow, and continues after the last
 * change examined: a walk over more never-seen changes than the budget advances page by page,
 * ends, and names exactly the items the key saw leave.
 */

const BUDGET = 40;

const LEGS: Array<{ engine: TestEngine; skip: string | null }> = [
  {
    engine: {
      name: 'sqlite',
      unavailable: async () => null,
      async open() {
        const dir = mkdtempSync(path.join(tmpdir(), 'stockroom-budget-'));
        const file = path.join(dir, 'stockroom.db');
        const store = new SqliteStore(file, { searchLimits: { scanBudget: BUDGET } });
        return {
          store,
          url: file,
          async cleanup() {
            await store.close();
            rmSync(dir, { recursive: true, force: true });
          },
        };
      },
    },
    skip: null,
  },
  {
    engine: {
      name: 'sqlite',
      label: 'sqlite (threads)',
      unavailable: async () => null,
      open: () => openThreadedSqlite({ searchLimits: { scanBudget: BUDGET } }),
    },
    skip: null,
  },
  {
    engine: {
      name: 'postgres',
      unavailable: postgresUnavailable,
      async open() {
        const schema = await createTestSchema();
        const store = new PostgresStore(schema.url, { poolSize: 4, scanBudget: BUDGET });
        return {
          store,
          url: schema.url,
          async cleanup() {
            await store.close();
            await schema.drop();
          },
        };
      },
    },
    skip: await postgresUnavailable(),
  },
];

for (const { engine, skip } of LEGS) {
  describe.skipIf(skip !== null)(
    `Change feed scan budget on ${engine.label ?? engine.name}`,
    () => {
      let cleanup: () => Promise<void>;
      let store: Store;
      let url: string;
      let org: string;
      /** Where the key's copy stands: it holds HELD, GONE and STAYS (all Active). */
      let point: number;
      const ids = new Map<string, string>();

      async function sql(text: string, params: unknown[]): Promise<Array<Record<string, unknown>>> {
        if (store instanceof PostgresStore) return store.query(text, params);
        const db = new Database(url, { readonly: true });
        try {
          return db.prepare(text.replace(/\$\d+/g, '?')).all(...params) as Array<
            Record<string, unknown>
          >;
        } finally {
          db.close();
        }
      }

      /** Changes of the organization in (after, through]: what a page over them could examine. */
      async function changesBetween(
        after: number,
        through: number,
        tombstones = true,
      ): Promise<number> {
        const [row] = await sql(
          `SELECT (SELECT count(*) FROM items WHERE organization_id = $1 AND change_seq > $2 AND change_seq <= $3)
          + (SELECT count(*) FROM item_tombstones WHERE organization_id = $4 AND seq > $5 AND seq <= $6) AS n`,
          [org, after, through, org, after, tombstones ? through : after],
        );
        return Number(row?.n);
      }

      const drafts = (prefix: string, from: number, to: number, quantity = 1) =>
        Array.from({ length: to - from }, (_, k) => ({
          sku: `${prefix}-${from + k}`,
          name: `never seen ${from + k}`,
          status: 'Draft' as const,
          quantity,
        }));

      beforeAll(async () => {
        const handle = await engine.open();
        cleanup = handle.cleanup;
        store = handle.store;
        url = handle.url;
        await store.migrate();
        org = (await store.createOrganization({ name: 'Budget', slug: 'budget', features: [] })).id;
        await store.writeItems(org, [
          { sku: 'HELD', name: 'leaves the view', status: 'Active' },
          { sku: 'GONE', name: 'deleted while seen', status: 'Active' },
          { sku: 'STAYS', name: 'changes in the view', status: 'Active' },
        ]);
        point = (await store.listChanges(org, { afterSeq: 0, limit: 1000, includeDeleted: true }))
          .throughSeq;
        // Far more changes the key never saw than the budget, around the three it must learn of:
        // creations, changes and deletions of Draft items.
        await store.writeItems(org, drafts('D', 0, 200));
        await store.writeItems(org, [{ sku: 'HELD', status: 'Inactive' }]);
        await store.writeItems(org, drafts('D', 0, 100, 2));
        await store.deleteItems(
          org,
          drafts('D', 100, 160).map(({ sku }) => ({ sku })),
        );
        await store.writeItems(org, [{ sku: 'STAYS', quantity: 5 }]);
        for (const item of await store.listItems(org, { limit: 1000 })) {
          ids.set(item.id, item.sku ?? '');
        }
        await store.deleteItem(org, { sku: 'GONE' });
        await store.writeItems(org, drafts('E', 0, 50));
        // 192 changed items and 61 tombstones after the point.
        expect(await changesBetween(point, Number.MAX_SAFE_INTEGER)).toBe(253);
      }, 60_000);
      afterAll(() => cleanup?.());

      const query = (afterSeq: number, limit: number): ChangeQuery => ({
        afterSeq,
        limit,
        includeDeleted: true,
        scope: { statuses: ['Active'] },
        scopeSince: 0,
        seenAfterSeq: point,
      });

      for (const limit of [1, 5, 1000]) {
        it(`a walk of limit ${limit} advances within the budget and names exactly what the key saw leave`, async () => {
          const items: string[] = [];
          const deleted: string[] = [];
          let afterSeq = point;
          let pages = 0;
          let emptyButMore = 0;
          for (;;) {
            const page = await store.listChanges(org, query(afterSeq, limit));
            pages++;
            expect(pages, 'the walk ends').toBeLessThan(100);
            expect(page.throughSeq, 'each page advances').toBeGreaterThan(afterSeq);
            if (page.more) {
              // What the page covers, all of which it may have read, is within the budget.
              expect(await changesBetween(afterSeq, page.throughSeq)).toBeLessThanOrEqual(BUDGET);
              if (page.items.length + page.deleted.length === 0) emptyButMore++;
            }
            items.push(...page.items.map((item) => item.sku ?? item.id));
            deleted.push(...page.deleted.map((entry) => ids.get(entry.id) ?? entry.id));
            afterSeq = page.throughSeq;
            if (!page.more) break;
          }
          expect(items).toEqual(['STAYS']);
          expect(deleted).toEqual(['HELD', 'GONE']);
          // 253 changes under a budget of 40: at least seven pages, some of them empty.
          expect(pages).toBeGreaterThanOrEqual(Math.ceil(253 / BUDGET));
          expect(emptyButMore).toBeGreaterThan(0);
        });
      }

      it('a walk of the view as it was (no seenAfterSeq) is not budgeted: every exit is offered', async () => {
        const page = await store.listChanges(org, {
          ...query(point, 1000),
          seenAfterSeq: undefined,
        } as ChangeQuery);
        expect(page.more).toBe(false);
        expect(page.items.map((item) => item.sku)).toEqual(['STAYS']);
        expect(page.deleted).toHaveLength(253 - 1);
      });

      it('a status filter without a view is budgeted too', async () => {
        const skus: string[] = [];
        let afterSeq = point;
        let pages = 0;
        for (;;) {
          const page = await store.listChanges(org, {
            afterSeq,
            limit: 10,
            includeDeleted: false,
            status: 'Active',
          });
          pages++;
          skus.push(...page.items.map((item) => item.sku ?? item.id));
          if (page.more) {
            // Without deletions, only the changed items are examined.
            expect(await changesBetween(afterSeq, page.throughSeq, false)).toBeLessThanOrEqual(
              BUDGET,
            );
          }
          afterSeq = page.throughSeq;
          if (!page.more) break;
        }
        expect(skus).toEqual(['STAYS']);
        expect(pages).toBeGreaterThan(1);
      });

      it.skipIf(engine.name !== 'postgres')(
        'the statement reads at most the budget of rows per kind to bound the page, and the page within it',
        async () => {
          const statement = changeListStatement(org, query(point, 5), BUDGET);
          const [row] = await sql(
            `EXPLAIN (ANALYZE, FORMAT JSON) ${statement.sql}`,
            statement.params,
          );
          const explained = row?.['QUERY PLAN'];
          const plan = (
            (typeof explained === 'string' ? JSON.parse(explained) : explained) as Array<{
              Plan: PlanNode;
            }>
          )[0]?.Plan as PlanNode;
          // Rows read from the feed's tables, kept or filtered out: the bounding reads (one per
          // kind, on the indexes) and the page's own reads inside the bound.
          expect(rowsRead(plan, ['items', 'item_tombstones'])).toBeLessThanOrEqual(3 * BUDGET);
        },
      );

      it.skipIf(engine.name !== 'postgres')(
        'a page that fills within its first slice never reads the budget',
        async () => {
          // Draft items are most of the changes: a page of 1 fills within the first 4.
          const statement = changeListStatement(
            org,
            { afterSeq: point, limit: 1, includeDeleted: false, status: 'Draft' },
            BUDGET,
          );
          const [row] = await sql(
            `EXPLAIN (ANALYZE, FORMAT JSON) ${statement.sql}`,
            statement.params,
          );
          const explained = row?.['QUERY PLAN'];
          const plan = (
            (typeof explained === 'string' ? JSON.parse(explained) : explained) as Array<{
              Plan: PlanNode;
            }>
          )[0]?.Plan as PlanNode;
          expect(rowsRead(plan, ['items', 'item_tombstones'])).toBeLessThan(BUDGET / 2);
        },
      );
    },
  );
}

interface PlanNode {
  'Relation Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}

function rowsRead(node: PlanNode, tables: string[]): number {
  const own =
    node['Relation Name'] !== undefined && tables.includes(node['Relation Name'])
      ? ((node['Actual Rows'] ?? 0) + (node['Rows Removed by Filter'] ?? 0)) *
        (node['Actual Loops'] ?? 1)
      : 0;
  return own + (node.Plans ?? []).reduce((sum, child) => sum + rowsRead(child, tables), 0);
}
