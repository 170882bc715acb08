import type pg from 'pg';
import { nonFiniteQueries, POSTGRES_NON_FINITE, refuseNonFinite } from '../quantity-check.js';
import { MIGRATION_LOCK, POSTGRES_MIGRATIONS } from './migrations.js';

/**
 * How long the client waits for one statement of a migration: the longest timer Node has
 * (about 24 days), which is to say no deadline (a larger value would fire at once).
 */
const MIGRATION_QUERY_TIMEOUT_MS = 2 ** 31 - 1;

/**
 * Applies pending migrations in one transaction (PostgreSQL DDL is transactional: all or
 * nothing), under an advisory lock so processes starting together migrate one at a time.
 * Refuses a database migrated by a newer Stockroom rather than guessing at its schema.
 */
export async function migrate(client: pg.PoolClient): Promise<string[]> {
  const applied: string[] = [];
  // A migration is not a request: building an index or numbering every row of a large table
  // takes as long as it takes (measured: the change feed migration on 1,000,000 items, far
  // past the 5 s a request may take), and a process that starts while another migrates waits
  // for it. So this transaction has no statement deadline, on the server nor in the client.
  // node-pg reads query_timeout from a query's config too (pg/lib/client.js); its types omit it.
  const query = (text: string) =>
    client.query({ text, query_timeout: MIGRATION_QUERY_TIMEOUT_MS } as pg.QueryConfig);
  await client.query('BEGIN');
  try {
    await client.query('SET LOCAL statement_timeout = 0');
    await query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`);
    await client.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at bigint NOT NULL)',
    );
    const { rows } = await client.query('SELECT max(version) AS v FROM schema_migrations');
    const current = (rows[0]?.v as number | null) ?? 0;
    const latest = POSTGRES_MIGRATIONS[POSTGRES_MIGRATIONS.length - 1]?.version ?? 0;
    if (current > latest) {
      throw new Error(
        `this database was migrated by a newer version of Stockroom (schema ${current}, this binary knows up to ${latest}); upgrade Stockroom`,
      );
    }
    for (const migration of POSTGRES_MIGRATIONS) {
      if (migration.version <= current) continue;
      if (migration.sql !== '') await query(migration.sql);
      await migration.run?.(client);
      await client.query(
        'INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)',
        [migration.version, migration.name, Date.now()],
      );
      applied.push(`${String(migration.version).padStart(4, '0')}_${migration.name}`);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  }
  // After the commit: the migrations stay applied while the rows are repaired.
  await checkStoredQuantities(client);
  return applied;
}

/** The start-up check of store/quantity-check.ts, through the partial indexes of migration 12. */
async function checkStoredQuantities(client: pg.PoolClient): Promise<void> {
  const queries = nonFiniteQueries(POSTGRES_NON_FINITE);
  const count = async (sql: string) => Number((await client.query(sql)).rows[0]?.n ?? 0);
  const example = (await client.query(queries.example)).rows[0] as
    | { organization_id: string; id: string }
    | undefined;
  refuseNonFinite(
    {
      items: await count(queries.items),
      stockRows: await count(queries.stockRows),
      example: example ? { organizationId: example.organization_id, itemId: example.id } : null,
    },
    POSTGRES_NON_FINITE,
  );
}
