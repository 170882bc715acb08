import type pg from 'pg';
import type { Row } from '../rows.js';
import { type Store, StoreUnavailableError } from '../types.js';
import type { PostgresStoreOptions } from './connection.js';
import { migrate } from './migrate.js';
import { PostgresOrganizations } from './organizations.js';
import { rowsOn, transactionOn } from './queries.js';
import { PostgresWebhookStore } from './webhook-store.js';

export type { PostgresStoreOptions } from './connection.js';

/** How long `ping` waits for the database (readiness and health must never hang). */
const PING_TIMEOUT_MS = 1000;

/**
 * The scale-out engine: PostgreSQL through a node-postgres pool. Same semantics as the SQLite
 * engine (the store contract suite runs both); what differs is only what the dialect forces.
 * Its aggregates are the layers below it (connection.ts); this last one adds the schema, the
 * pool's life, the webhooks and raw access for tools that move whole databases.
 */
export class PostgresStore extends PostgresOrganizations implements Store {
  readonly engine = 'postgres' as const;
  readonly seedsDemoWhenEmpty = false;
  readonly webhooks: PostgresWebhookStore;

  constructor(connectionString: string, options: PostgresStoreOptions = {}) {
    super(connectionString, options);
    // On the pool itself: the webhook store works apart from this store's methods, helpers
    // included (a test counting the calls a request makes wraps every method of the instance,
    // and the dispatcher's background polls are not a request's calls).
    const pool = this.pool;
    this.webhooks = new PostgresWebhookStore({
      rows: (sql, params) => rowsOn(pool, sql, params),
      transaction: (work) => transactionOn(pool, work),
    });
  }

  async migrate(): Promise<string[]> {
    return this.run(async () => {
      const client = await this.pool.connect();
      try {
        return await migrate(client);
      } finally {
        client.release();
      }
    });
  }

  /**
   * Fails within PING_TIMEOUT_MS when the database does not answer (a refused connection fails
   * at once): readiness and health probes build on it and must never hang.
   */
  async ping(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new StoreUnavailableError(
              `the database did not answer within ${PING_TIMEOUT_MS} ms (${this.availability.target})`,
            ),
          ),
        PING_TIMEOUT_MS,
      );
    });
    const query = this.rows('SELECT 1');
    // The query goes on past the deadline (bounded by the pool's own); its outcome is unused.
    query.catch(() => {});
    try {
      await Promise.race([query, deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    if (!this.pool.ended) await this.pool.end();
  }

  poolStats(): { total: number; idle: number; waiting: number } {
    return {
      total: this.pool.totalCount,
      idle: this.pool.idleCount,
      waiting: this.pool.waitingCount,
    };
  }

  /** Raw SQL for tools that move whole databases (`stockroom db copy`). */
  async query(sql: string, params: unknown[] = []): Promise<Row[]> {
    return this.rows(sql, params);
  }

  /** A transaction for such tools. */
  async inTransaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return this.transaction(work);
  }
}
