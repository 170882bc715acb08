// EXPLAIN (ANALYZE, BUFFERS) of the item-list statements PostgresStore runs, on a realistic
// dataset: one organization of 200,000 items and 50 organizations of 200. Builds a schema of
// its own in the given database and drops it afterwards.
//
//   npm run build && node bench/postgres-search-plans.mjs [postgres://…] [--full]
//
// Prints one line per case (plan shape, rows touched through the primary key, time); --full
// prints the whole plans. store/postgres/README.md records a run.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { itemListStatement } from '../packages/server/dist/store/postgres/item-query.js';
import { PostgresStore } from '../packages/server/dist/store/postgres/postgres-store.js';

const url =
  process.argv.slice(2).find((arg) => arg.startsWith('postgres')) ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/test';
const full = process.argv.includes('--full');
const schema = `stockroom_plans_${randomBytes(4).toString('hex')}`;
const scoped = new URL(url);
scoped.searchParams.set('options', `-c search_path=${schema},public`);

const BIG = '000000000000000000000001';
const SMALL = '000000000000000000000007';
const CASES = [
  ['no filter', BIG, { limit: 101 }],
  ['status=Discontinued (1%)', BIG, { limit: 101, status: 'Discontinued' }],
  [
    '"glacierx": in every small org, in no row of the big one',
    BIG,
    { limit: 101, search: 'glacierx' },
  ],
  ['"novaline": only the newest 1% of the big org', BIG, { limit: 101, search: 'novaline' }],
  ['"qqqxyz": absent everywhere', BIG, { limit: 101, search: 'qqqxyz' }],
  ['"tent": ~13% of rows', BIG, { limit: 101, search: 'tent' }],
  ['"trips": every row, page of 1000', BIG, { limit: 1001, search: 'trips' }],
  ['"zz": shorter than a trigram (a walk of 10,000)', BIG, { limit: 101, search: 'zz' }],
  ['"zz" + status=Active', BIG, { limit: 101, search: 'zz', status: 'Active' }],
  ['small org, "zz"', SMALL, { limit: 101, search: 'zz' }],
  ['"novaline" + status=Active', BIG, { limit: 101, search: 'novaline', status: 'Active' }],
  ['"tent" + status=Discontinued', BIG, { limit: 101, search: 'tent', status: 'Discontinued' }],
  [
    '"glacierx" after a cursor half-way',
    BIG,
    { limit: 101, search: 'glacierx', afterId: (100_000).toString(16).padStart(24, '0') },
  ],
  ['small org, "tent"', SMALL, { limit: 101, search: 'tent' }],
];

const admin = new pg.Client({ connectionString: url });
await admin.connect();
await admin.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
await admin.query('CREATE EXTENSION IF NOT EXISTS btree_gin');
await admin.query(`CREATE SCHEMA ${schema}`);
try {
  const store = new PostgresStore(scoped.toString(), { timeoutMs: 600_000 });
  await store.migrate();
  await store.close();
  const client = new pg.Client({ connectionString: scoped.toString() });
  await client.connect();
  const started = Date.now();
  await client.query(`
    INSERT INTO organizations (id, name, slug, features, created_at, updated_at)
    SELECT lpad(to_hex(o), 24, '0'), 'Org ' || o, 'org-' || o, '{inventory}', 0, 0 FROM generate_series(1, 51) o;
    WITH words AS (SELECT ARRAY['trail','summit','down','merino','tent','headlamp','poles','sleeping',
      'bottle','stove','shell','harness','rope','chalk','filter','gaiters','bivy','chair','spork','kit',
      'fleece','shoe','canister','solar','beacon','snowshoe','jacket','packraft','hammock','watch',
      'beanie','pot','booties','crampons','axe','tarp','paddle','bag','lantern','hoodie','case','hat',
      'glasses','whistle','tape'] AS w)
    INSERT INTO items (organization_id, id, name, description, sku, barcode, status, quantity,
      custom_fields, search_text, created_at, updated_at, change_seq)
    SELECT org, id, name, descr, sku, barcode, status, g % 500, '{}',
      lower(name) || 'A' || lower(descr) || 'A' || lower(sku) || 'A' || barcode
        || CASE WHEN org = '${BIG}' THEN '' ELSE ' glacierx' END
        || CASE WHEN org = '${BIG}' AND g > 198000 THEN ' novaline' ELSE '' END,
      0, 0, g
    FROM (
      SELECT g,
        lpad(to_hex(CASE WHEN g <= 200000 THEN 1 ELSE 2 + (g - 200001) / 200 END), 24, '0') AS org,
        lpad(to_hex(g), 24, '0') AS id,
        initcap(w[1 + (g * 7) % 45]) || ' ' || initcap(w[1 + (g * 13) % 45]) || ' ' || (g % 997) AS name,
        'A ' || w[1 + (g * 17) % 45] || ' for ' || w[1 + (g * 31) % 45] || ' trips, model ' || g AS descr,
        'SKU-' || g AS sku,
        (4000000000000 + g)::text AS barcode,
        CASE WHEN g % 100 = 0 THEN 'Discontinued' WHEN g % 10 = 0 THEN 'Active' ELSE 'Draft' END AS status
      FROM generate_series(1, 210000) g, words
    ) s;
    ANALYZE items;`);
  console.log(
    `dataset: 210,000 items in ${((Date.now() - started) / 1000).toFixed(1)} s (trigram index maintained on insert)\n`,
  );

  const walk = (node) => [node, ...(node.Plans ?? []).flatMap(walk)];
  for (const [label, org, query] of CASES) {
    const statement = itemListStatement(org, query);
    const { rows } = await client.query(
      `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${statement.sql}`,
      statement.params,
    );
    const plan = rows[0]['QUERY PLAN'];
    const explained = (typeof plan === 'string' ? JSON.parse(plan) : plan)[0];
    const nodes = walk(explained.Plan);
    const pkeyRows = nodes
      .filter((n) => n['Index Name'] === 'items_pkey')
      .reduce(
        (sum, n) =>
          sum + (n['Actual Rows'] + (n['Rows Removed by Filter'] ?? 0)) * n['Actual Loops'],
        0,
      );
    const access = nodes
      .filter(
        (n) =>
          n['Relation Name'] === 'items' &&
          n['Actual Loops'] > 0 &&
          !(n['Index Name'] === 'items_pkey' && n['Actual Rows'] <= 1 && n['Actual Loops'] > 1),
      )
      .map((n) => `${n['Node Type']}${n['Index Name'] ? ` ${n['Index Name']}` : ''}`);
    console.log(
      `${label.padEnd(58)} ${explained['Execution Time'].toFixed(1).padStart(7)} ms  pkey rows ${String(pkeyRows).padStart(6)}  ${[...new Set(access)].join(', ')}`,
    );
    if (full) {
      const text = await client.query(
        `EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${statement.sql}`,
        statement.params,
      );
      console.log(`${text.rows.map((r) => `    ${r['QUERY PLAN']}`).join('\n')}\n`);
    }
  }
  await client.end();
} finally {
  await admin.query(`DROP SCHEMA ${schema} CASCADE`);
  await admin.end();
}
