import type pg from 'pg';
import { MIGRATION_LOCK, POSTGRES_MIGRATIONS } from './migrations.js';

/**
 * Applies pending migrations in one transaction (PostgreSQL DDL is transactional: all or
 * nothing), under an advisory lock so processes starting together migrate one at a time.
 * Refuses a database migrated by a newer Stockroom rather than guessing at its schema.
 */
export async function migrate(client: pg.PoolClient): Promise<string[]> {
  const applied: string[] = [];
  await client.query('BEGIN');
  try {
    await client.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`);
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
      if (migration.sql !== '') await client.query(migration.sql);
      await migration.run?.(client);
      await client.query(
        'INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)',
        [migration.version, migration.name, Date.now()],
      );
      applied.push(`${String(migration.version).padStart(4, '0')}_${migration.name}`);
    }
    await client.query('COMMIT');
    return applied;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  }
}
