import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestSchema, type TestSchema } from '../testing/postgres.js';
import { postgresUnavailable } from '../testing/services.js';
import { stockText } from './items/stock.js';
import { itemListStatement } from './postgres/item-query.js';
import { PostgresStore } from './postgres/postgres-store.js';
import { foldCase } from './search.js';
import { SqliteStore } from './sqlite/sqlite-store.js';
import type { ItemFields, ItemQuery, ItemScope, SearchField } from './types.js';

/**
 * A key whose view hides searchable fields is searched on the fields it may see and nothing
 * else (issue 41): text in a hidden field is never read, so a needle found only there costs
 * what an absent one does and its timing tells nothing. Asserted on the structure, not on
 * time: the statements SQLite runs never touch the whole-text index, the hidden field's index
 * or the whole search_text; PostgreSQL's statements never name the hidden part, use only the
 * visible fields' indexes, and examine exactly as many rows for a hidden needle as for an
 * absent one.
 */

const N = 300;
/** In every third description (hidden below), and nowhere else. */
const HIDDEN = 'quartzite';
/** Nowhere, of the same length. */
const ABSENT = 'quodlibet';
const VISIBLE: SearchField[] = ['name', 'sku', 'barcode'];
const SCOPE: ItemScope = { searchFields: VISIBLE };

function rows(n = N): ItemFields[] {
  return Array.from({ length: n }, (_, k) => ({
    sku: `SKU-${k}`,
    name: `${k % 5 === 0 ? 'Granite' : 'Basalt'} slab ${k}`,
    description: k % 3 === 0 ? `Cut from ${HIDDEN} block ${k}` : `Plain stone ${k}`,
    barcode: `40000${k}`,
    ...(k % 2 === 0 ? { stock: stockText({ WH: 1 }) } : {}),
  }));
}

/** The ids a query must return: matches on the visible fields only. */
function model(all: Array<ItemFields & { id: string }>, needle: string): string[] {
  return all
    .filter((item) => VISIBLE.some((field) => foldCase(String(item[field] ?? '')).includes(needle)))
    .map((item) => item.id);
}

const NEEDLES = [HIDDEN, ABSENT, 'qu', 'slab 1', 'granite', 'sku-2', '4000012', 'block'];

describe('search under a view hiding description, on SQLite', () => {
  let dir: string;
  let store: SqliteStore;
  let org: string;
  let all: Array<ItemFields & { id: string }>;
  let stocked: Set<string>;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'stockroom-view-search-'));
    // Small limits: the index plans (few candidates, and common needles) and the bounded walk
    // are all taken with a few hundred items.
    store = new SqliteStore(path.join(dir, 'stockroom.db'), {
      searchLimits: { ftsCandidateCap: 5, scanBudget: 40, walkSliceRows: 7 },
    });
    await store.migrate();
    org = (await store.createOrganization({ name: 'Stone', slug: 'stone', features: [] })).id;
    await store.createLocation(org, { code: 'WH', name: 'Warehouse' });
    await store.writeItems(org, rows());
    const items = await store.listItems(org, { limit: N });
    all = items.map((item) => ({ ...item, id: item.id }));
    stocked = new Set(items.filter((item) => item.stock !== '[]').map((item) => item.id));
  });
  afterAll(async () => {
    await store?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Every page of a walk, with the SQL the store prepared for it. */
  async function walk(query: Omit<ItemQuery, 'limit'>, limit: number) {
    const spy = vi.spyOn(store as unknown as { rawStmt(sql: string): unknown }, 'rawStmt');
    const seen: string[] = [];
    let afterId: string | undefined;
    try {
      for (let pages = 0; pages < 200; pages++) {
        let resume: string | undefined;
        const page = await store.listItems(org, {
          ...query,
          limit,
          ...(afterId === undefined ? {} : { afterId }),
          onPartialPage: (id) => {
            resume = id;
          },
        });
        seen.push(...page.map((item) => item.id));
        if (page.length === limit) afterId = page[page.length - 1]?.id;
        else if (resume !== undefined) afterId = resume;
        else return { seen, sql: spy.mock.calls.map(([sql]) => sql) };
      }
      throw new Error('the walk did not end');
    } finally {
      spy.mockRestore();
    }
  }

  it('reads neither the whole-text index, nor the description index, nor the whole text', async () => {
    for (const needle of NEEDLES) {
      for (const limit of [4, 100]) {
        for (const location of [undefined, 'WH']) {
          const extra = location === undefined ? {} : { location };
          const { seen, sql } = await walk({ search: needle, scope: SCOPE, ...extra }, limit);
          const label = `${needle} limit ${limit} ${location ?? ''}`;
          expect(seen, label).toEqual(
            model(all, needle).filter((id) => location === undefined || stocked.has(id)),
          );
          const searchSql = sql.filter((text) => /items_search|search_text/.test(text));
          expect(searchSql.length, label).toBeGreaterThan(0);
          for (const text of searchSql) {
            expect(text, label).not.toMatch(/\bitems_search\b(?!_)/);
            expect(text, label).not.toContain('items_search_description');
            expect(text, label).not.toMatch(/instr\((i\.)?search_text/);
          }
        }
      }
    }
    // The full key's search does use the whole-text index (the assertion above can fail).
    const whole = await walk({ search: HIDDEN }, 100);
    expect(whole.seen).toHaveLength(N / 3);
    expect(whole.sql.some((text) => /\bitems_search\b(?!_)/.test(text))).toBe(true);
  });

  it('keeps the field indexes exact through updates and deletions', async () => {
    const [first, second] = all;
    await store.writeItems(org, [
      { sku: first?.sku as string, name: 'Marble slab renamed' },
      { sku: second?.sku as string, barcode: '99999999' },
    ]);
    await store.deleteItem(org, { sku: 'SKU-6' });
    const ids = (needle: string) => walk({ search: needle, scope: SCOPE }, 100);
    expect((await ids('marble slab')).seen).toEqual([first?.id]);
    expect((await ids('granite slab 0')).seen).toEqual([]);
    expect((await ids('99999999')).seen).toEqual([second?.id]);
    expect((await ids('granite slab 6')).seen).not.toContain(all[6]?.id);
  });
});

const pgSkip = await postgresUnavailable();
const PG_N = 1500;

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Filter?: string;
  'Index Cond'?: string;
  'Recheck Cond'?: string;
  Plans?: PlanNode[];
}

function nodes(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(nodes)];
}

describe.skipIf(pgSkip !== null)('search under a view hiding description, on PostgreSQL', () => {
  let schema: TestSchema;
  let store: PostgresStore;
  let org: string;
  let all: Array<ItemFields & { id: string }>;

  beforeAll(async () => {
    schema = await createTestSchema();
    store = new PostgresStore(schema.url, { poolSize: 2, scanBudget: 40 });
    await store.migrate();
    org = (await store.createOrganization({ name: 'Stone', slug: 'stone', features: [] })).id;
    await store.createLocation(org, { code: 'WH', name: 'Warehouse' });
    // More rows than a page's probe (1,000): a rare needle's page is found through the indexes.
    await store.writeItems(org, rows(PG_N));
    const items = await store.listItems(org, { limit: PG_N });
    all = items.map((item) => ({ ...item, id: item.id }));
    await store.query('ANALYZE items');
  }, 60_000);
  afterAll(async () => {
    await store?.close();
    await schema?.drop();
  });

  /** The plan of the store's statement, executed (ANALYZE), with sequential scans off. */
  async function explain(query: ItemQuery): Promise<PlanNode[]> {
    const statement = itemListStatement(org, query, 40);
    if (!statement) throw new Error('no statement');
    const client = new pg.Client({ connectionString: schema.url });
    await client.connect();
    try {
      await client.query('BEGIN');
      await client.query('SET LOCAL enable_seqscan = off');
      const result = await client.query(
        `EXPLAIN (ANALYZE, FORMAT JSON) ${statement.sql}`,
        statement.params,
      );
      await client.query('ROLLBACK');
      const plan = result.rows[0]?.['QUERY PLAN'] as Array<{ Plan: PlanNode }>;
      return nodes((plan[0] as { Plan: PlanNode }).Plan);
    } finally {
      await client.end();
    }
  }

  /** Rows every node of the plan produced, over all its loops: the work the statement did. */
  /**
   * What each node of the plan did, over all its loops: the rows it produced and those it
   * read and dropped (a filter, a recheck), which is where text matched in a hidden field
   * would show.
   */
  const work = (plan: PlanNode[]) =>
    plan.map((node) => {
      const loops = node['Actual Loops'] ?? 1;
      const rows = (node['Actual Rows'] ?? 0) * loops;
      const dropped =
        ((node['Rows Removed by Filter'] ?? 0) + (node['Rows Removed by Index Recheck'] ?? 0)) *
        loops;
      return `${node['Node Type']}:${node['Index Name'] ?? ''}:${rows}:${dropped}`;
    });

  it('never names the hidden part, and finds what the visible fields hold', async () => {
    for (const needle of NEEDLES) {
      const statement = itemListStatement(org, { limit: 100, search: needle, scope: SCOPE }, 40);
      expect(statement?.sql).not.toMatch(/search_text LIKE/);
      expect(statement?.sql).not.toMatch(/'A', 2\)/);
      const found = await store.listItems(org, { limit: PG_N, search: needle, scope: SCOPE });
      expect(
        found.map((item) => item.id),
        needle,
      ).toEqual(model(all, needle).slice(0, PG_N));
    }
  });

  it('never uses the whole-text index nor reads the hidden part; a hidden needle does the work of an absent one', async () => {
    for (const limit of [4, 100]) {
      const hidden = await explain({ limit, search: HIDDEN, scope: SCOPE });
      const absent = await explain({ limit, search: ABSENT, scope: SCOPE });
      const indexes = new Set(hidden.flatMap((node) => node['Index Name'] ?? []));
      expect(indexes.has('items_organization_search')).toBe(false);
      // No condition of the plan reads the whole text or the hidden part.
      for (const node of hidden) {
        for (const condition of [node.Filter, node['Index Cond'], node['Recheck Cond']]) {
          expect(condition ?? '').not.toMatch(/\(search_text ~~|'A'::text, 2\)/);
        }
      }
      expect(work(hidden)).toEqual(work(absent));
      // Without the view the hidden needle is found, and costs more: the comparison can fail.
      const whole = await explain({ limit, search: HIDDEN });
      expect(work(whole)).not.toEqual(work(await explain({ limit, search: ABSENT })));
    }
  });
});
