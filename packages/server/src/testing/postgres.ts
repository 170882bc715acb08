import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { MIGRATION_LOCK } from '../store/postgres/migrations.js';

/**
 * PostgreSQL for tests: TEST_DATABASE_URL (default: the local server), one fresh schema per
 * test file or server, dropped afterwards. A schema is selected through the connection's
 * `options=-c search_path=…`, so the code under test needs nothing test-specific.
 */
export const TEST_DATABASE_URL =
  process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

const SCHEMA_PREFIX = 'stockroom_test_';
/** Schemas of crashed runs older than this are swept by the next run. */
const STALE_AFTER_SECONDS = 3600;

let availability: Promise<string | null> | undefined;

function redact(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
}

/** Why PostgreSQL cannot be used (null when it can); checked once per process. */
export function postgresUnavailable(): Promise<string | null> {
  availability ??= (async () => {
    const client = new pg.Client({
      connectionString: TEST_DATABASE_URL,
      connectionTimeoutMillis: 3000,
    });
    client.on('error', () => {});
    try {
      await client.connect();
      await client.query('SELECT 1');
      return null;
    } catch (error) {
      return `PostgreSQL at ${redact(TEST_DATABASE_URL)} is unreachable (${(error as Error).message}); set TEST_DATABASE_URL or start it`;
    } finally {
      await client.end().catch(() => {});
    }
  })();
  return availability;
}

/** The URL with a search_path: unqualified names resolve to `schema`, extensions to public. */
export function urlWithSchema(url: string, schema: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set('options', `-c search_path=${schema},public`);
  return parsed.toString();
}

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  client.on('error', () => {});
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => {});
  }
}

export interface TestSchema {
  schema: string;
  /** TEST_DATABASE_URL narrowed to the schema. */
  url: string;
  drop(): Promise<void>;
}

/**
 * A new empty schema. The extensions go to `public` first (once per database, under the
 * migrations' lock): created by a migration inside a test schema, they would be dropped with
 * that schema, and the trigram indexes of every other test schema with them.
 */
export async function createTestSchema(): Promise<TestSchema> {
  const now = Math.floor(Date.now() / 1000);
  const schema = `${SCHEMA_PREFIX}${now}_${process.pid}_${randomBytes(4).toString('hex')}`;
  await admin(async (client) => {
    await client.query('BEGIN');
    await client.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`);
    await client.query('CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public');
    await client.query('CREATE EXTENSION IF NOT EXISTS btree_gin SCHEMA public');
    await client.query('COMMIT');
    await sweepStaleSchemas(client, now);
    await client.query(`CREATE SCHEMA ${schema}`);
  });
  let dropped = false;
  return {
    schema,
    url: urlWithSchema(TEST_DATABASE_URL, schema),
    async drop() {
      if (dropped) return;
      dropped = true;
      await admin((client) => client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`));
    },
  };
}

async function sweepStaleSchemas(client: pg.Client, now: number): Promise<void> {
  const { rows } = await client.query<{ nspname: string }>(
    'SELECT nspname FROM pg_namespace WHERE nspname LIKE $1',
    [`${SCHEMA_PREFIX}%`],
  );
  for (const { nspname } of rows) {
    const created = Number(nspname.slice(SCHEMA_PREFIX.length).split('_')[0]);
    if (Number.isFinite(created) && now - created > STALE_AFTER_SECONDS) {
      await client.query(`DROP SCHEMA IF EXISTS ${nspname} CASCADE`).catch(() => {});
    }
  }
}

/** Runs SQL on the schema through its own connection (to arrange what the API cannot). */
export async function execInSchema(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end().catch(() => {});
  }
}

/** Opens a transaction that takes `lockSql` and holds it until the returned release is called. */
export async function holdLocks(url: string, lockSql: string): Promise<() => Promise<void>> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  await client.connect();
  await client.query('BEGIN');
  await client.query(lockSql);
  return async () => {
    await client.query('ROLLBACK').catch(() => {});
    await client.end().catch(() => {});
  };
}
