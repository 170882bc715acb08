import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSchema, type TestSchema } from '../../testing/postgres.js';
import { announceSkip, postgresUnavailable } from '../../testing/services.js';
import { DEFAULT_SCAN_BUDGET } from '../search.js';
import type { ItemQuery } from '../types.js';
import {
  changeListStatement,
  itemListStatement,
  probeSize,
  type Statement,
  sampleSize,
} from './item-query.js';
import { PostgresStore } from './postgres-store.js';

/**
 * The plan of a search page on a realistic dataset: one organization of 200,000 items, one of
 * 20,000 and 50 small ones. Whatever the needle of 3+ characters, no plan may read more of
 * the large organization through the primary key than the bounded probe (the failure this
 * guards against: an ORDER BY id LIMIT walk of the whole organization, filtering row by row,
 * for a needle that is rare there); a needle of 1–2 characters walks at most the scan budget
 * through the organization's index, and never scans the table (where other organizations'
 * rows dominate). store/postgres/README.md records the plans these queries get.
 */
const BIG = '000000000000000000000001';
const MEDIUM = '000000000000000000000002';
const BIG_ROWS = 200_000;
const MEDIUM_ROWS = 20_000;
const SMALL_ORGS = 50;
const SMALL_ROWS = 200;

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Relation Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
}

function nodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodes)];
}

/** Rows of `items` each access path touched (returned plus filtered out, over all loops). */
function rowsTouched(plan: PlanNode, match: (node: PlanNode) => boolean): number {
  return nodes(plan)
    .filter(match)
    .reduce(
      (sum, node) =>
        sum + (node['Actual Rows'] + (node['Rows Removed by Filter'] ?? 0)) * node['Actual Loops'],
      0,
    );
}

const skip = announceSkip('search plan on PostgreSQL', await postgresUnavailable());

describe.skipIf(skip)('search plan on PostgreSQL (200,000 items in one organization)', () => {
  let schema: TestSchema;
  let store: PostgresStore;
  let generic: pg.Client;

  beforeAll(async () => {
    schema = await createTestSchema();
    store = new PostgresStore(schema.url, { timeoutMs: 60_000 });
    await store.migrate();
    // Generated in SQL, with the trigram index built once afterwards (as a bulk load would).
    // search_text is built as search.ts builds it: ASCII only, so lower() folds the same.
    const [index] = await store.query(
      "SELECT indexdef FROM pg_indexes WHERE indexname = 'items_organization_search' AND schemaname = current_schema()",
    );
    await store.query('DROP INDEX items_organization_search');
    await store.query(
      `INSERT INTO organizations (id, name, slug, features, created_at, updated_at)
       SELECT lpad(to_hex(o), 24, '0'), 'Org ' || o, 'org-' || o, '{inventory}', 0, 0
       FROM generate_series(1, $1::int) o`,
      [SMALL_ORGS + 2],
    );
    await store.query(
      `WITH words AS (SELECT ARRAY['trail','summit','down','merino','tent','headlamp','poles',
         'sleeping','bottle','stove','shell','harness','rope','chalk','filter','gaiters','bivy',
         'chair','spork','kit','fleece','shoe','canister','solar','beacon','snowshoe','jacket',
         'packraft','hammock','watch','beanie','pot','booties','crampons','axe','tarp','paddle',
         'bag','lantern','hoodie','case','hat','glasses','whistle','tape'] AS w)
       INSERT INTO items (organization_id, id, name, description, sku, barcode, status, quantity,
         custom_fields, search_text, created_at, updated_at, change_seq)
       SELECT org, id, name, descr, sku, barcode, status, g % 500, '{}',
         lower(name) || 'A' || lower(descr) || 'A' || lower(sku) || 'A' || barcode
           -- A word every small organization has and the large one never does.
           || CASE WHEN org = $1 THEN '' ELSE ' glacierx' END
           -- A word only the newest 1% of the large organization has.
           || CASE WHEN org = $1 AND g > $2::int * 0.99 THEN ' novaline' ELSE '' END,
         0, 0, g
       FROM (
         SELECT g,
           lpad(to_hex(CASE WHEN g <= $2::int THEN 1 WHEN g <= $2::int + $5::int THEN 2
             ELSE 3 + (g - $2::int - $5::int - 1) / $3::int END), 24, '0') AS org,
           lpad(to_hex(g), 24, '0') AS id,
           initcap(w[1 + (g * 7) % 45]) || ' ' || initcap(w[1 + (g * 13) % 45]) || ' ' || (g % 997) AS name,
           'A ' || w[1 + (g * 17) % 45] || ' for ' || w[1 + (g * 31) % 45] || ' trips, model ' || g AS descr,
           'SKU-' || g AS sku,
           (4000000000000 + g)::text AS barcode,
           CASE WHEN g % 100 = 0 THEN 'Discontinued' WHEN g % 10 = 0 THEN 'Active' ELSE 'Draft' END AS status
         FROM generate_series(1, $2::int + $5::int + $4::int) g, words
       ) s`,
      [BIG, BIG_ROWS, SMALL_ROWS, SMALL_ORGS * SMALL_ROWS, MEDIUM_ROWS],
    );
    await store.query(index?.indexdef as string);
    await store.query('ANALYZE items');
    generic = new pg.Client({ connectionString: schema.url });
    await generic.connect();
    await generic.query('SET plan_cache_mode = force_generic_plan');
  }, 180_000);

  afterAll(async () => {
    await generic?.end();
    await store?.close();
    await schema?.drop();
  });

  async function plan(query: ItemQuery, organizationId = BIG): Promise<PlanNode> {
    const statement = itemListStatement(organizationId, query);
    if (!statement) throw new Error('no statement');
    return explain(statement);
  }

  /**
   * The plan the store gets: a statement the store prepares (it has a name) is explained with
   * the generic plan PostgreSQL may settle on for it, planned without its values (on a
   * connection of its own, where every plan is generic); any other is planned for its values,
   * as at each of its executions.
   */
  let prepares = 0;
  async function explain(statement: Statement): Promise<PlanNode> {
    const analyze = 'EXPLAIN (ANALYZE, FORMAT JSON)';
    let plan: unknown;
    if (statement.name === undefined) {
      const [row] = await store.query(`${analyze} ${statement.sql}`, statement.params);
      plan = row?.['QUERY PLAN'];
    } else {
      const name = `generic_${++prepares}`;
      await generic.query(`PREPARE ${name} AS ${statement.sql}`);
      const values = statement.params.map((value) =>
        generic.escapeLiteral(Array.isArray(value) ? `{${value.join(',')}}` : String(value)),
      );
      const { rows } = await generic.query(`${analyze} EXECUTE ${name}(${values.join(', ')})`);
      plan = rows[0]?.['QUERY PLAN'];
    }
    // json comes back as text from the store (customFields stay byte for byte), parsed from pg.
    const explained = (typeof plan === 'string' ? JSON.parse(plan) : plan) as Array<{
      Plan: PlanNode;
    }>;
    return explained[0]?.Plan as PlanNode;
  }

  const pkeyOfItems = (node: PlanNode) => node['Index Name'] === 'items_pkey';

  it.each<[string, ItemQuery]>([
    ['absent from it, common elsewhere', { limit: 101, search: 'glacierx' }],
    ['rare, in its newest rows', { limit: 101, search: 'novaline' }],
    ['absent everywhere', { limit: 101, search: 'qqqxyz' }],
    ['common', { limit: 101, search: 'tent' }],
    ['everywhere', { limit: 1001, search: 'trips' }],
    ['rare, with a status', { limit: 101, search: 'novaline', status: 'Active' }],
    ['common, with a rare status', { limit: 101, search: 'tent', status: 'Discontinued' }],
    ['after a cursor', { limit: 101, search: 'glacierx', afterId: lpadHex(100_000) }],
  ])('a needle %s never walks the organization through the primary key', async (_, query) => {
    const root = await plan(query);
    // The probe (bounded) plus one lookup per row of the page.
    expect(rowsTouched(root, pkeyOfItems)).toBeLessThanOrEqual(
      probeSize(query.limit) + query.limit,
    );
  });

  it.each<[string, ItemQuery]>([
    ['absent from it, common elsewhere', { limit: 101, search: 'glacierx' }],
    ['absent everywhere', { limit: 101, search: 'qqqxyz' }],
    ['rare, in its newest rows', { limit: 101, search: 'novaline' }],
    ['absent, after a cursor', { limit: 101, search: 'glacierx', afterId: lpadHex(100_000) }],
  ])(
    'a needle %s reads only the first rows of the probe before the trigram index',
    async (_, query) => {
      const root = await plan(query);
      expect(sampleSize(query.limit)).toBeLessThan(probeSize(query.limit) / 5);
      expect(rowsTouched(root, pkeyOfItems)).toBeLessThanOrEqual(
        sampleSize(query.limit) + query.limit,
      );
      expect(nodes(root).map((node) => node['Index Name'])).toContain('items_organization_search');
    },
  );

  const seqScansOfItems = (root: PlanNode) =>
    nodes(root).filter(
      (node) => node['Node Type'].includes('Seq Scan') && node['Relation Name'] === 'items',
    );
  const itemsIndexes = (node: PlanNode) =>
    node['Index Name'] === 'items_pkey' || node['Index Name'] === 'items_organization_status';

  it.each<[string, string, number, ItemQuery]>([
    ['the large organization', BIG, BIG_ROWS, { limit: 101, search: 'zz' }],
    [
      'the large organization, with a status',
      BIG,
      BIG_ROWS,
      { limit: 101, search: 'zz', status: 'Active' },
    ],
    [
      'the large organization, after a cursor',
      BIG,
      BIG_ROWS,
      { limit: 101, search: 'q', afterId: lpadHex(150_000) },
    ],
    // Larger than the probe, and a tenth of the table: the other organizations dominate it.
    ['a mid-sized organization', MEDIUM, MEDIUM_ROWS, { limit: 101, search: 'zz' }],
    ['a small organization', lpadHex(9), SMALL_ROWS, { limit: 101, search: 'zz' }],
  ])(
    'a needle shorter than a trigram in %s walks at most the scan budget through its index, never the table',
    async (_, organizationId, size, query) => {
      const root = await plan(query, organizationId);
      expect(seqScansOfItems(root)).toEqual([]);
      // The walk (at most the budget, at most the organization) plus one lookup per page row.
      expect(rowsTouched(root, itemsIndexes)).toBeLessThanOrEqual(
        Math.min(DEFAULT_SCAN_BUDGET, size) + query.limit,
      );
    },
  );

  it('uses the organization-scoped trigram index for a rare needle', async () => {
    const root = await plan({ limit: 101, search: 'glacierx' });
    const used = nodes(root).map((node) => node['Index Name']);
    expect(used).toContain('items_organization_search');
  });

  it.each<[string, ItemQuery, string | string[]]>([
    ['sku', { limit: 101, sku: 'SKU-123456' }, 'items_organization_sku'],
    [
      'barcode',
      { limit: 101, barcode: String(4_000_000_000_000 + 123_456) },
      'items_organization_barcode',
    ],
    [
      'barcode, after a cursor',
      { limit: 101, barcode: String(4_000_000_000_000 + 123_456), afterId: lpadHex(5) },
      'items_organization_barcode',
    ],
    ['ids', { limit: 101, ids: [lpadHex(5), lpadHex(123_456), lpadHex(199_999)] }, 'items_pkey'],
    // More ids than the page holds: never a walk of the organization in id order, filtered.
    [
      '100 ids, a page of 50',
      { limit: 50, ids: Array.from({ length: 100 }, (_, i) => lpadHex(1000 + i * 1999)) },
      'items_pkey',
    ],
    // (organization_id, status, id) takes all three conditions as well as the primary key.
    [
      'ids, with a status',
      { limit: 101, ids: [lpadHex(10), lpadHex(20), lpadHex(30)], status: 'Active' },
      ['items_pkey', 'items_organization_status'],
    ],
  ])(
    'an exact lookup by %s reads only the rows it finds, through its index',
    async (_, query, index) => {
      const indexes = typeof index === 'string' ? [index] : index;
      const root = await plan(query);
      expect(seqScansOfItems(root)).toEqual([]);
      const used = nodes(root).flatMap((node) => node['Index Name'] ?? []);
      expect(used.some((name) => indexes.includes(name))).toBe(true);
      // Each row found once by the index and once from the table, at most.
      const found = query.ids?.length ?? 1;
      expect(
        rowsTouched(
          root,
          (node) => node['Relation Name'] === 'items' || indexes.includes(node['Index Name'] ?? ''),
        ),
      ).toBeLessThanOrEqual(2 * found);
    },
  );

  it.each([0, 150_000, 199_990])(
    'reads a page of the change feed after %i through (organization_id, change_seq), only the page',
    async (afterSeq) => {
      const root = await explain(
        changeListStatement(BIG, { afterSeq, limit: 101, includeDeleted: true }),
      );
      expect(seqScansOfItems(root)).toEqual([]);
      expect(
        rowsTouched(root, (node) => node['Index Name'] === 'items_organization_change'),
      ).toBeLessThanOrEqual(102);
      expect(nodes(root).map((node) => node['Index Name'])).toContain('item_tombstones_pkey');
    },
  );

  it('reads a page of the change feed with a status without scanning the table', async () => {
    const root = await explain(
      changeListStatement(BIG, {
        afterSeq: 100_000,
        limit: 101,
        status: 'Discontinued',
        includeDeleted: false,
      }),
    );
    expect(seqScansOfItems(root)).toEqual([]);
  });

  it('answers common needles from the bounded probe without reading every match', async () => {
    // Every item says "trips": the probe stops at the page's 101st match (it does not read all
    // probeSize rows first), and the page's rows are fetched once more.
    const root = await plan({ limit: 101, search: 'trips' });
    expect(probeSize(101)).toBeGreaterThan(1000);
    expect(rowsTouched(root, (node) => node['Relation Name'] === 'items')).toBeLessThanOrEqual(
      2 * 101,
    );
  });
});

function lpadHex(n: number): string {
  return n.toString(16).padStart(24, '0');
}
