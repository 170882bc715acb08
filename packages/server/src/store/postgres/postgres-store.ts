import type pg from 'pg';
import Cursor from 'pg-cursor';
import { newId } from '../../ids.js';
import { newAuditEvent, toAuditEvent } from '../audit.js';
import { ChangePageBuilder } from '../changes.js';
import { DEFAULT_SCAN_BUDGET } from '../search.js';
import { inTurns, nextTurn } from '../turns.js';
import {
  type ApiKeyRecord,
  type AuditEvent,
  type ChangePage,
  type ChangeQuery,
  type Item,
  type ItemFields,
  type ItemQuery,
  type ItemRef,
  type ItemWriteOutcome,
  type KeyContext,
  type KeySecret,
  type NewApiKey,
  type NewAuditEvent,
  type Organization,
  type OrganizationDeletion,
  type Store,
  StoreConflictError,
  StoreUnavailableError,
  type User,
} from '../types.js';
import { DatabaseAvailability, databaseTarget } from './availability.js';
import { isUniqueViolation, toStoreError } from './errors.js';
import { changeListStatement, itemListStatement, type Statement } from './item-query.js';
import { migrate } from './migrate.js';
import { createPool, type PostgresOptions, ROW_TYPES } from './pool.js';
import { type PreparedStatement, prepared } from './prepared.js';
import {
  ITEM_COLUMNS,
  KEY_COLUMNS,
  type Row,
  toChangedItem,
  toItem,
  toKey,
  toOrganization,
  toUser,
} from './rows.js';
import { postgresSearchText } from './search-text.js';
import { PostgresWebhookStore } from './webhook-store.js';
import { planWrites } from './write-plan.js';

type Queryable = Pick<pg.Pool, 'query'>;

/** SQLSTATE of a lock not granted within lock_timeout. */
const LOCK_NOT_AVAILABLE = '55P03';

/** Rows per statement when writing items: bounded memory and statement size. */
const WRITE_BATCH = 2000;

/** Rows per fetch of a list page, a turn of the event loop between fetches (listItemSlices). */
const LIST_SLICE_ROWS = 100;

/** Items per statement when deleting an organization: each statement well within its deadline. */
const DELETE_BATCH = 10_000;

// The statements of every request's path, prepared (prepared.ts): lookups by a unique key,
// whose plan cannot depend on the values. Their columns are listed, never `*`, so a
// migration that adds a column leaves their result type, and the prepared plans, valid.
const KEY_CONTEXT_BY_HASH = prepared(
  'key_context_by_hash',
  `SELECT ${KEY_COLUMNS},
     o.name AS org_name, o.slug AS org_slug, o.features AS org_features, o.created_at AS org_created_at,
     (k.user_id IS NULL OR EXISTS (
       SELECT 1 FROM memberships m WHERE m.organization_id = k.organization_id AND m.user_id = k.user_id
     )) AS member
   FROM api_keys k JOIN organizations o ON o.id = k.organization_id
   WHERE (k.hash = $1 OR (k.previous_hash = $1 AND k.previous_hash_expires_at > $2))
     AND k.revoked_at IS NULL`,
);
// One statement: the row lock makes concurrent takers queue, and READ COMMITTED re-checks
// `remaining > 0` after the wait, so the last use is taken exactly once.
const CONSUME_QUOTA = prepared(
  'consume_quota',
  'UPDATE api_keys SET remaining = remaining - 1 WHERE id = $1 AND remaining > 0 RETURNING remaining',
);
const REFUND_QUOTA = prepared(
  'refund_quota',
  'UPDATE api_keys SET remaining = remaining + 1 WHERE id = $1 AND remaining IS NOT NULL RETURNING remaining',
);
const REMAINING_QUOTA = prepared('remaining_quota', 'SELECT remaining FROM api_keys WHERE id = $1');
const ITEM_BY_ID = prepared(
  'item_by_id',
  `SELECT ${ITEM_COLUMNS} FROM items WHERE organization_id = $1 AND id = $2`,
);
// One atomic increment of a fixed-window counter: hits from every process queue on the row lock.
const COUNT_RATE_LIMIT_HIT = prepared(
  'count_rate_limit_hit',
  `INSERT INTO rate_limit_counters (organization_id, key_id, window_seconds, window_index, hits, expires_at)
   VALUES ($1, $2, $3, $4, 1, $5)
   ON CONFLICT (organization_id, key_id, window_seconds, window_index)
   DO UPDATE SET hits = rate_limit_counters.hits + 1
   RETURNING hits`,
);

/** How long `ping` waits for the database (readiness and health must never hang). */
const PING_TIMEOUT_MS = 1000;

/** Each pool's availability tracker (runOn reports every operation's outcome to it). */
const availabilityOf = new WeakMap<pg.Pool, DatabaseAvailability>();

/** Thrown inside a transaction to roll it back while keeping the computed outcomes. */
class Rollback extends Error {}

/**
 * The scale-out engine: PostgreSQL through a node-postgres pool. Same semantics as the SQLite
 * engine (the store contract suite runs both); what differs is only what the dialect forces.
 */
export interface PostgresStoreOptions extends PostgresOptions {
  /** Rows a search for a needle of 1–2 characters examines (store/search.ts); tests lower it. */
  scanBudget?: number;
  /** Items per statement when deleting an organization (default DELETE_BATCH); tests lower it. */
  deleteBatchSize?: number;
}

export class PostgresStore implements Store {
  readonly engine = 'postgres' as const;
  private readonly pool: pg.Pool;
  private readonly scanBudget: number;
  private readonly deleteBatchSize: number;
  /** How long one cursor step may take: the pool's own client-side deadline (pool.ts). */
  private readonly readDeadlineMs: number;
  readonly webhooks: PostgresWebhookStore;
  /** Whether the database is reachable; logs when it goes away and when it is back. */
  readonly availability: DatabaseAvailability;

  constructor(connectionString: string, options: PostgresStoreOptions = {}) {
    this.pool = createPool(connectionString, options);
    this.availability = new DatabaseAvailability(databaseTarget(connectionString));
    availabilityOf.set(this.pool, this.availability);
    // On the pool itself: the webhook store works apart from this store's methods, helpers
    // included (a test counting the calls a request makes wraps every method of the instance,
    // and the dispatcher's background polls are not a request's calls).
    const pool = this.pool;
    this.webhooks = new PostgresWebhookStore({
      rows: (sql, params) => rowsOn(pool, sql, params),
      transaction: (work) => transactionOn(pool, work),
    });
    this.scanBudget = options.scanBudget ?? DEFAULT_SCAN_BUDGET;
    this.deleteBatchSize = options.deleteBatchSize ?? DELETE_BATCH;
    const timeoutMs = options.timeoutMs ?? 5000;
    this.readDeadlineMs = timeoutMs + Math.max(timeoutMs, 1000);
  }

  private run<T>(work: (db: Queryable) => Promise<T>): Promise<T> {
    return runOn(this.pool, work);
  }

  private rows(sql: string | PreparedStatement, params: unknown[] = []): Promise<Row[]> {
    return rowsOn(this.pool, sql, params);
  }

  private transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return transactionOn(this.pool, work);
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

  async createOrganization(input: {
    name: string;
    slug: string;
    features: string[];
  }): Promise<Organization> {
    const now = Date.now();
    const org: Organization = { id: newId(now), ...input, createdAt: now };
    try {
      await this.rows(
        'INSERT INTO organizations (id, name, slug, features, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $5)',
        [org.id, org.name, org.slug, org.features, now],
      );
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new StoreConflictError(`an organization with slug "${input.slug}" already exists`);
      }
      throw error;
    }
    return org;
  }

  async getOrganization(id: string): Promise<Organization | null> {
    const [row] = await this.rows('SELECT * FROM organizations WHERE id = $1', [id]);
    return row ? toOrganization(row) : null;
  }

  async findOrganization(ref: string): Promise<Organization | null> {
    const [row] = await this.rows(
      'SELECT * FROM organizations WHERE id = $1 OR slug = $1 ORDER BY id = $1 DESC LIMIT 1',
      [ref],
    );
    return row ? toOrganization(row) : null;
  }

  async listOrganizations(): Promise<Organization[]> {
    return (await this.rows('SELECT * FROM organizations ORDER BY id')).map(toOrganization);
  }

  async countOrganizations(): Promise<number> {
    const [row] = await this.rows('SELECT count(*) AS n FROM organizations');
    return row?.n as number;
  }

  async updateOrganization(
    id: string,
    patch: { name?: string; features?: string[] },
  ): Promise<Organization> {
    const [row] = await this.rows(
      `UPDATE organizations SET name = COALESCE($2, name), features = COALESCE($3, features), updated_at = $4
       WHERE id = $1 RETURNING *`,
      [id, patch.name ?? null, patch.features ?? null, Date.now()],
    );
    if (!row) throw new StoreConflictError(`organization ${id} does not exist`);
    return toOrganization(row);
  }

  async createUser(input: { email: string; name: string | null }): Promise<User> {
    const now = Date.now();
    const user: User = { id: newId(now), email: input.email, name: input.name, createdAt: now };
    try {
      await this.rows(
        'INSERT INTO users (id, email, email_normalized, name, created_at) VALUES ($1, $2, $3, $4, $5)',
        [user.id, user.email, user.email.toLowerCase(), user.name, now],
      );
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new StoreConflictError(`a user with email ${input.email} already exists`);
      }
      throw error;
    }
    return user;
  }

  async findUser(ref: string): Promise<User | null> {
    const [row] = await this.rows(
      'SELECT * FROM users WHERE id = $1 OR email_normalized = $2 ORDER BY id = $1 DESC LIMIT 1',
      [ref, ref.toLowerCase()],
    );
    return row ? toUser(row) : null;
  }

  async addMember(organizationId: string, userId: string): Promise<void> {
    await this.rows(
      `INSERT INTO memberships (organization_id, user_id, created_at) VALUES ($1, $2, $3)
       ON CONFLICT DO NOTHING`,
      [organizationId, userId, Date.now()],
    );
  }

  async removeMember(organizationId: string, userId: string): Promise<boolean> {
    const rows = await this.rows(
      'DELETE FROM memberships WHERE organization_id = $1 AND user_id = $2 RETURNING 1',
      [organizationId, userId],
    );
    return rows.length > 0;
  }

  async isMember(organizationId: string, userId: string): Promise<boolean> {
    const rows = await this.rows(
      'SELECT 1 FROM memberships WHERE organization_id = $1 AND user_id = $2',
      [organizationId, userId],
    );
    return rows.length > 0;
  }

  async listMembers(organizationId: string): Promise<User[]> {
    const rows = await this.rows(
      `SELECT u.* FROM memberships m JOIN users u ON u.id = m.user_id
       WHERE m.organization_id = $1 ORDER BY u.id`,
      [organizationId],
    );
    return rows.map(toUser);
  }

  async createApiKey(key: NewApiKey): Promise<ApiKeyRecord> {
    await this.rows(
      `INSERT INTO api_keys (organization_id, id, user_id, type, name, prefix, hash, permissions,
         expires_at, remaining, rate_limit_max, rate_limit_window, enabled, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, true, $13)`,
      [
        key.organizationId,
        key.id,
        key.userId,
        key.type,
        key.name,
        key.prefix,
        key.hash,
        key.permissions,
        key.expiresAt,
        key.remaining,
        key.rateLimit?.max ?? null,
        key.rateLimit?.windowSeconds ?? null,
        key.createdAt,
      ],
    );
    return {
      ...key,
      enabled: true,
      revokedAt: null,
      lastUsedAt: null,
      previousHash: null,
      previousHashExpiresAt: null,
    };
  }

  async getApiKey(id: string): Promise<ApiKeyRecord | null> {
    const [row] = await this.rows(`SELECT ${KEY_COLUMNS} FROM api_keys k WHERE k.id = $1`, [id]);
    return row ? toKey(row) : null;
  }

  async listApiKeys(organizationId: string): Promise<ApiKeyRecord[]> {
    const rows = await this.rows(
      `SELECT ${KEY_COLUMNS} FROM api_keys k WHERE k.organization_id = $1 ORDER BY k.id`,
      [organizationId],
    );
    return rows.map(toKey);
  }

  async setApiKeyEnabled(id: string, enabled: boolean): Promise<ApiKeyRecord | null> {
    const [row] = await this.rows(
      `UPDATE api_keys k SET enabled = $2 WHERE k.id = $1 RETURNING ${KEY_COLUMNS}`,
      [id, enabled],
    );
    return row ? toKey(row) : null;
  }

  async revokeApiKey(id: string): Promise<ApiKeyRecord | null> {
    await this.rows('UPDATE api_keys SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL', [
      id,
      Date.now(),
    ]);
    return this.getApiKey(id);
  }

  async rotateApiKey(
    id: string,
    secret: KeySecret,
    previousValidUntil: number | null,
  ): Promise<ApiKeyRecord | null> {
    const [row] = await this.rows(
      `UPDATE api_keys k SET previous_hash = CASE WHEN $2::bigint IS NULL THEN NULL ELSE k.hash END,
         previous_hash_expires_at = $2, hash = $3, prefix = $4
       WHERE k.id = $1 AND k.revoked_at IS NULL RETURNING ${KEY_COLUMNS}`,
      [id, previousValidUntil, secret.hash, secret.prefix],
    );
    return row ? toKey(row) : null;
  }

  async appendAuditEvent(event: NewAuditEvent): Promise<AuditEvent> {
    const recorded = newAuditEvent(event);
    await this.rows(
      `INSERT INTO audit_events (organization_id, id, at, actor, action, target, details)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        recorded.organizationId,
        recorded.id,
        recorded.at,
        recorded.actor,
        recorded.action,
        recorded.target,
        JSON.stringify(recorded.details),
      ],
    );
    return recorded;
  }

  async listAuditEvents(
    organizationId: string,
    options: { limit?: number } = {},
  ): Promise<AuditEvent[]> {
    const rows = await this.rows(
      `SELECT * FROM audit_events WHERE organization_id = $1
       ORDER BY at DESC, id DESC LIMIT $2`,
      [organizationId, options.limit ?? null],
    );
    return rows.reverse().map(toAuditEvent);
  }

  async loadKeyContext(hash: string): Promise<KeyContext | null> {
    const [row] = await this.rows(KEY_CONTEXT_BY_HASH, [hash, Date.now()]);
    if (!row) return null;
    return {
      key: toKey(row),
      organization: toOrganization({
        id: row.organization_id,
        name: row.org_name,
        slug: row.org_slug,
        features: row.org_features,
        created_at: row.org_created_at,
      }),
      member: row.member as boolean,
    };
  }

  async consumeQuota(keyId: string): Promise<number | null> {
    const [row] = await this.rows(CONSUME_QUOTA, [keyId]);
    return row ? (row.remaining as number) : null;
  }

  async refundQuota(keyId: string): Promise<number | null> {
    const [row] = await this.rows(REFUND_QUOTA, [keyId]);
    return (row?.remaining as number | undefined) ?? null;
  }

  async getRemaining(keyId: string): Promise<number | null> {
    const [row] = await this.rows(REMAINING_QUOTA, [keyId]);
    return (row?.remaining as number | null | undefined) ?? null;
  }

  async recordKeyUse(uses: Map<string, number>): Promise<void> {
    if (uses.size === 0) return;
    // Sorted, so processes flushing overlapping batches lock rows in one order (no deadlock).
    const entries = [...uses].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    await this.rows(
      `UPDATE api_keys k SET last_used_at = GREATEST(COALESCE(k.last_used_at, 0), u.at)
       FROM unnest($1::text[], $2::bigint[]) AS u(id, at) WHERE k.id = u.id`,
      [entries.map(([id]) => id), entries.map(([, at]) => at)],
    );
  }

  async listItems(organizationId: string, query: ItemQuery): Promise<Item[]> {
    return (await this.listItemRows(organizationId, query)).map(toItem);
  }

  /**
   * A list page is read through a cursor, 100 rows per fetch, with a turn of the event loop
   * between fetches: read as one result, node-postgres parsed a whole 1.4 MB page in the
   * callback that read it (one turn of 2-5 ms), and its rows all lived until the last was
   * encoded. A search page that walks (item-query.ts) and a prepared lookup (a cursor cannot
   * run a named statement) are one query, their rows given in slices all the same.
   */
  async *listItemSlices(organizationId: string, query: ItemQuery): AsyncGenerator<Item[]> {
    const statement = itemListStatement(organizationId, query, this.scanBudget);
    if (!statement) return;
    if (statement.walk || statement.name !== undefined) {
      const rows = await this.listItemRows(organizationId, query);
      for await (const slice of inTurns(rows, LIST_SLICE_ROWS)) yield slice.map(toItem);
      return;
    }
    for await (const rows of this.cursorRows(statement.sql, statement.params)) {
      yield rows.map(toItem);
    }
  }

  /**
   * The rows of one statement through a cursor, 100 per fetch with a turn of the event loop
   * between fetches, so no turn parses a whole large page (pg-cursor runs unnamed statements
   * only). Closed, and its connection given back, also when the reader stops early.
   */
  private async *cursorRows(sql: string, params: unknown[]): AsyncGenerator<Row[]> {
    if (this.pool.ended) throw new StoreUnavailableError('the database connection is closed');
    const startedAt = Date.now();
    // A client broken while idle may still be handed out once (its connection ended without
    // an error event): it is discarded, and another one taken.
    let client: pg.PoolClient | null = null;
    for (let attempt = 0; client === null; attempt++) {
      const candidate = await this.pool.connect().catch((error: unknown) => {
        this.availability.failed(error, startedAt);
        throw toStoreError(error);
      });
      if (isQueryable(candidate)) client = candidate;
      else {
        candidate.release(true);
        if (attempt >= 2) {
          const error = new Error('Connection terminated unexpectedly');
          this.availability.failed(error, startedAt);
          throw toStoreError(error);
        }
      }
    }
    const cursor = client.query(new Cursor<Row>(sql, params, { types: ROW_TYPES }));
    let broken = false;
    try {
      for (;;) {
        // Bounded here too: a cursor on a connection that broke at the wrong moment was seen
        // never to settle (the server gone, no error delivered to it), holding its request
        // and its connection forever.
        const rows = await untilBroken(
          cursor.read(LIST_SLICE_ROWS),
          client,
          this.readDeadlineMs,
        ).catch((error: unknown) => {
          broken = true;
          this.availability.failed(error, startedAt);
          throw toStoreError(error);
        });
        this.availability.succeeded(startedAt);
        if (rows.length > 0) yield rows;
        if (rows.length < LIST_SLICE_ROWS) return;
        await nextTurn();
      }
    } finally {
      // The portal is closed before the connection goes back. On a broken connection nothing
      // would ever answer the close (pg-cursor waits for ReadyForQuery): skip it.
      if (!broken && isQueryable(client)) {
        await untilBroken(cursor.close(), client, this.readDeadlineMs).catch(() => {
          broken = true;
        });
      }
      disarmReadTimeout(cursor);
      client.release(broken || !isQueryable(client));
    }
  }

  private async listItemRows(organizationId: string, query: ItemQuery): Promise<Row[]> {
    const statement = itemListStatement(organizationId, query, this.scanBudget);
    if (!statement) return [];
    const rows = await this.rows(statementOf(statement), statement.params);
    if (!statement.walk) return rows;
    const found = rows.filter((row) => row.id !== null);
    const walkEnd = rows[0]?.walk_end as string | null | undefined;
    if (found.length < query.limit && walkEnd) query.onPartialPage?.(walkEnd);
    return found;
  }

  async getItem(organizationId: string, id: string): Promise<Item | null> {
    const [row] = await this.rows(ITEM_BY_ID, [organizationId, id]);
    return row ? toItem(row) : null;
  }

  async countItems(organizationId: string): Promise<number> {
    const [row] = await this.rows('SELECT count(*) AS n FROM items WHERE organization_id = $1', [
      organizationId,
    ]);
    return row?.n as number;
  }

  async refreshItemStatistics(changedItems: number): Promise<boolean> {
    const [row] = await this.rows("SELECT reltuples FROM pg_class WHERE oid = 'items'::regclass");
    // -1: never analysed. Autovacuum's rule, with its default threshold and scale factor.
    const known = Number(row?.reltuples ?? -1);
    if (known >= 0 && changedItems <= 50 + 0.1 * known) return false;
    return this.analyze(['items', 'item_tombstones']);
  }

  /**
   * Statistics for the planner, gathered now rather than whenever autovacuum gets to the tables
   * (it may be slow, or off): without them every estimate is a default, and a search, list or
   * lookup page may be planned as if each organization held a few hundred rows. Without the
   * deadline of requests: ANALYZE reads a sample of each table (0.7 s at 1,000,000 items here).
   * False when another session holds a table against it for a second (autovacuum analysing
   * the rows just written, most likely): it is gathering the same statistics, and waiting for
   * it would hold the import or the copy for as long as it runs.
   */
  async analyze(tables: readonly string[]): Promise<boolean> {
    return this.transaction(async (client) => {
      await client.query('SET LOCAL statement_timeout = 0');
      await client.query("SET LOCAL lock_timeout = '1s'");
      try {
        await client.query(`ANALYZE ${tables.join(', ')}`);
        return true;
      } catch (error) {
        if ((error as { code?: unknown }).code === LOCK_NOT_AVAILABLE) return false;
        throw error;
      }
    });
  }

  async writeItems(
    organizationId: string,
    rows: ItemFields[],
    options: { dryRun?: boolean; allOrNothing?: boolean; now?: number } = {},
  ): Promise<ItemWriteOutcome[]> {
    const now = options.now ?? Date.now();
    let outcomes: ItemWriteOutcome[] = [];
    try {
      await this.transaction(async (client) => {
        // One writer per organization at a time, as SQLite's single writer gives: two imports
        // of the same new sku cannot both decide to create it.
        await client.query(
          "SELECT pg_advisory_xact_lock(hashtext('stockroom.items'), hashtext($1))",
          [organizationId],
        );
        const existing = await this.lockBySku(client, organizationId, rows);
        const plan = planWrites(organizationId, rows, existing, now);
        outcomes = plan.outcomes;
        const failed = outcomes.some((outcome) => typeof outcome === 'object');
        if (options.dryRun || (options.allOrNothing && failed)) throw new Rollback();
        const seqs = await takeChangeSeqs(client, organizationId, plan.changes, now);
        for (let i = 0; i < plan.inserts.length; i += WRITE_BATCH) {
          await insertItems(client, organizationId, plan.inserts.slice(i, i + WRITE_BATCH), seqs);
        }
        for (let i = 0; i < plan.updates.length; i += WRITE_BATCH) {
          await updateItems(client, organizationId, plan.updates.slice(i, i + WRITE_BATCH), seqs);
        }
      });
    } catch (error) {
      if (!(error instanceof Rollback)) throw error;
    }
    return outcomes;
  }

  /** The stored items of the rows' skus, locked until the transaction ends. */
  private async lockBySku(
    client: pg.PoolClient,
    organizationId: string,
    rows: ItemFields[],
  ): Promise<Map<string, Item>> {
    const skus = [
      ...new Set(rows.flatMap((row) => (typeof row.sku === 'string' ? [row.sku] : []))),
    ];
    const found = new Map<string, Item>();
    for (let i = 0; i < skus.length; i += WRITE_BATCH) {
      const result = await client.query(
        `SELECT ${ITEM_COLUMNS} FROM items WHERE organization_id = $1 AND sku = ANY($2::text[])
         ORDER BY id FOR UPDATE`,
        [organizationId, skus.slice(i, i + WRITE_BATCH).filter((sku) => !sku.includes('\u0000'))],
      );
      for (const row of result.rows as Row[]) {
        const item = toItem(row);
        if (item.sku !== null) found.set(item.sku, item);
      }
    }
    return found;
  }

  async deleteItem(organizationId: string, by: ItemRef): Promise<boolean> {
    return (await this.deleteItems(organizationId, [by]))[0] === true;
  }

  async deleteItems(organizationId: string, refs: readonly ItemRef[]): Promise<boolean[]> {
    return this.transaction(async (client) => {
      // The writers' lock first, as writeItems and deleteOrganization take it: these statements
      // then lock each item before the organization's row, and nothing else of this
      // organization can hold one while waiting for the other.
      await client.query(
        "SELECT pg_advisory_xact_lock(hashtext('stockroom.items'), hashtext($1))",
        [organizationId],
      );
      const now = Date.now();
      const deleted: boolean[] = [];
      for (const by of refs) {
        // PostgreSQL text cannot hold U+0000: no stored sku equals one that does.
        if ('sku' in by && by.sku.includes('\u0000')) {
          deleted.push(false);
          continue;
        }
        // The deletion's change number is taken from the organization's row (locked until the
        // commit, as in writeItems), and the tombstone written, only when an item went.
        const result = await client.query(
          `WITH gone AS (
             DELETE FROM items WHERE organization_id = $1 AND ${'id' in by ? 'id' : 'sku'} = $2
             RETURNING id
           ), taken AS (
             UPDATE organizations SET change_seq = GREATEST(change_seq + 1, $3::bigint)
             WHERE id = $1 AND EXISTS (SELECT 1 FROM gone) RETURNING change_seq
           )
           INSERT INTO item_tombstones (organization_id, seq, item_id, deleted_at)
           SELECT $1, taken.change_seq, gone.id, $4 FROM gone, taken`,
          [organizationId, 'id' in by ? by.id : by.sku, now * 1000, now],
        );
        deleted.push((result.rowCount ?? 0) > 0);
      }
      return deleted;
    });
  }

  async listChanges(organizationId: string, query: ChangeQuery): Promise<ChangePage> {
    const statement = changeListStatement(organizationId, query);
    // Rows come merged in change order; each is handed on as it is read (see onItem), so a
    // page's items need not all be alive at once.
    const builder = new ChangePageBuilder(query);
    let organizationSeq: number | undefined;
    const offer = (rows: Row[]): boolean => {
      for (const row of rows) {
        organizationSeq ??= row.organization_seq as number;
        if (row.change_seq === null) continue;
        const kept =
          row.deleted_at === null
            ? builder.addItem(toChangedItem(row))
            : builder.addTombstone({
                id: row.id as string,
                deletedAt: row.deleted_at as number,
                seq: row.change_seq as number,
              });
        if (!kept) return false;
      }
      return true;
    };
    // A page longer than one fetch goes through a cursor, as list pages do: read as one result,
    // its 1.4 MB were parsed in one callback, and the stall check after sync pages measured
    // p99 16.7 and 31.5 ms instead of 4.6 and 5.0 (BENCHMARKS.md). A shorter one (a sync that
    // has caught up) keeps its prepared statement, which a cursor cannot run.
    if (query.limit > LIST_SLICE_ROWS) {
      for await (const slice of this.cursorRows(statement.sql, statement.params)) {
        if (!offer(slice)) break;
      }
    } else {
      offer(await this.rows(statementOf(statement), statement.params));
    }
    // No row at all: the organization does not exist.
    if (organizationSeq === undefined) {
      return { items: [], deleted: [], throughSeq: query.afterSeq, more: false };
    }
    return builder.finish(organizationSeq);
  }

  async purgeTombstones(before: number): Promise<number> {
    // In batches, each its own statement: every one well within the statement deadline however
    // many tombstones have expired.
    let purged = 0;
    for (;;) {
      const removed = await this.run(async (db) => {
        const result = await db.query(
          `WITH batch AS (
             SELECT organization_id, seq FROM item_tombstones WHERE deleted_at < $1 LIMIT $2
           )
           DELETE FROM item_tombstones t USING batch b
           WHERE t.organization_id = b.organization_id AND t.seq = b.seq`,
          [before, this.deleteBatchSize],
        );
        return result.rowCount ?? 0;
      });
      purged += removed;
      if (removed < this.deleteBatchSize) return purged;
    }
  }

  async deleteOrganization(id: string): Promise<OrganizationDeletion | null> {
    return this.transaction(async (client) => {
      // The lock imports of this organization take (writeItems) first, then the organization's
      // row: a write in flight finishes first, and one that starts now waits and then fails on
      // its foreign key. In the other order, an import holding item locks would deadlock.
      await client.query(
        "SELECT pg_advisory_xact_lock(hashtext('stockroom.items'), hashtext($1))",
        [id],
      );
      const found = await client.query('SELECT 1 FROM organizations WHERE id = $1 FOR UPDATE', [
        id,
      ]);
      if (found.rowCount === 0) return null;
      // Items in keyset batches: each statement stays within statement_timeout however large
      // the organization, and each batch starts where the last one ended.
      let items = 0;
      let after = '';
      for (;;) {
        const result = await client.query(
          `WITH batch AS (
             SELECT id FROM items WHERE organization_id = $1 AND id > $2 ORDER BY id LIMIT $3
           ), gone AS (
             DELETE FROM items i USING batch b WHERE i.organization_id = $1 AND i.id = b.id
             RETURNING i.id
           )
           SELECT count(*)::int AS n, max(id) AS last FROM gone`,
          [id, after, this.deleteBatchSize],
        );
        const { n, last } = result.rows[0] as { n: number; last: string | null };
        items += n;
        if (n < this.deleteBatchSize || last === null) break;
        after = last;
      }
      for (;;) {
        const result = await client.query(
          `WITH batch AS (
             SELECT seq FROM item_tombstones WHERE organization_id = $1 ORDER BY seq LIMIT $2
           )
           DELETE FROM item_tombstones t USING batch b WHERE t.organization_id = $1 AND t.seq = b.seq`,
          [id, this.deleteBatchSize],
        );
        if ((result.rowCount ?? 0) < this.deleteBatchSize) break;
      }
      const count = async (sql: string) => (await client.query(sql, [id])).rowCount ?? 0;
      const apiKeys = await count('DELETE FROM api_keys WHERE organization_id = $1');
      const memberships = await count('DELETE FROM memberships WHERE organization_id = $1');
      await client.query('DELETE FROM rate_limit_counters WHERE organization_id = $1', [id]);
      await client.query('DELETE FROM webhook_deliveries WHERE organization_id = $1', [id]);
      await client.query('DELETE FROM webhooks WHERE organization_id = $1', [id]);
      await client.query('DELETE FROM organizations WHERE id = $1', [id]);
      return { items, apiKeys, memberships };
    });
  }

  /**
   * One atomic increment of a fixed-window counter (the database rate limiter, used when no
   * Redis is configured): concurrent hits from every process queue on the row lock.
   */
  async incrementRateLimitCounter(
    organizationId: string,
    keyId: string,
    windowSeconds: number,
    windowIndex: number,
    expiresAt: number,
  ): Promise<number> {
    const [row] = await this.rows(COUNT_RATE_LIMIT_HIT, [
      organizationId,
      keyId,
      windowSeconds,
      windowIndex,
      expiresAt,
    ]);
    return row?.hits as number;
  }

  /** Forgets counters of windows that have ended. */
  async sweepRateLimitCounters(now: number): Promise<void> {
    await this.rows('DELETE FROM rate_limit_counters WHERE expires_at < $1', [now]);
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

/**
 * Takes the change numbers of one write: `changes.length` consecutive numbers from
 * max(the organization's last + 1, now × 1000), by one UPDATE of the organization's row, which
 * stays locked until the write commits. The next writer of the organization waits on that lock
 * and numbers after this one's commit, so numbers follow commit order: a reader who sees
 * number N has seen every change up to N, and a change committed late is never skipped.
 * Returns each item's number (the last of its changes).
 */
async function takeChangeSeqs(
  client: pg.PoolClient,
  organizationId: string,
  changes: Item[],
  now: number,
): Promise<Map<Item, number>> {
  const seqs = new Map<Item, number>();
  if (changes.length === 0) return seqs;
  const result = await client.query(
    `UPDATE organizations SET change_seq = GREATEST(change_seq + 1, $2::bigint) + $3::bigint - 1
     WHERE id = $1 RETURNING change_seq`,
    [organizationId, now * 1000, changes.length],
  );
  // An unknown organization has no row: its inserts fail on their foreign key.
  const last = (result.rows[0]?.change_seq as number | undefined) ?? now * 1000;
  const first = last - changes.length + 1;
  for (const [k, item] of changes.entries()) seqs.set(item, first + k);
  return seqs;
}

/**
 * Runs database work, turning outages and deadlines into StoreUnavailableError (503), and
 * telling the pool's availability tracker whether the database answered.
 */
async function runOn<T>(pool: pg.Pool, work: (db: Queryable) => Promise<T>): Promise<T> {
  if (pool.ended) throw new StoreUnavailableError('the database connection is closed');
  const availability = availabilityOf.get(pool);
  const startedAt = Date.now();
  try {
    const result = await work(pool);
    availability?.succeeded(startedAt);
    return result;
  } catch (error) {
    availability?.failed(error, startedAt);
    throw toStoreError(error);
  }
}

/** Whether node-postgres still considers the connection usable (its `_queryable` flag). */
function isQueryable(client: pg.PoolClient): boolean {
  const state = client as unknown as { _queryable?: boolean; _ending?: boolean; _ended?: boolean };
  return state._queryable !== false && state._ending !== true && state._ended !== true;
}

/**
 * `work` on `client`, or a StoreUnavailableError when the connection breaks first or nothing
 * settles within `deadlineMs`: pg-cursor waits for the server's answer (its rows, or the
 * ReadyForQuery after a close), which a connection that dies meanwhile never delivers.
 */
function untilBroken<T>(work: Promise<T>, client: pg.PoolClient, deadlineMs: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const settle = () => {
      clearTimeout(timer);
      client.off('error', onGone);
      client.off('end', onGone);
    };
    const onGone = () => {
      settle();
      reject(
        new StoreUnavailableError('the database connection broke', {
          cause: new Error('Connection terminated unexpectedly'),
        }),
      );
    };
    const timer = setTimeout(() => {
      settle();
      reject(new StoreUnavailableError('the database did not answer within its deadline'));
    }, deadlineMs);
    client.once('error', onGone);
    client.once('end', onGone);
    work.then(
      (value) => {
        settle();
        resolve(value);
      },
      (error: unknown) => {
        settle();
        reject(error);
      },
    );
  });
}

/**
 * Ends node-postgres' client-side deadline (query_timeout) of a finished cursor. pg arms a timer
 * for every query and disarms it when the query's `callback` runs, which pg-cursor never calls
 * (node-postgres#3497): the timer, holding the cursor and the last rows it read, lived for the
 * whole deadline (10 s) after every page. At 32 connections of limit=50 pages that kept about
 * ten seconds of pages alive: RSS reached 2.6 GB. pg installs the callback that disarms it.
 */
function disarmReadTimeout(cursor: Cursor<Row>): void {
  (cursor as unknown as { callback?: () => void }).callback?.();
}

/** A page's statement, prepared when its plan cannot depend on its values (item-query.ts). */
function statementOf(statement: Statement): string | PreparedStatement {
  return statement.name === undefined ? statement.sql : prepared(statement.name, statement.sql);
}

function rowsOn(
  pool: pg.Pool,
  sql: string | PreparedStatement,
  params: unknown[] = [],
): Promise<Row[]> {
  const query = typeof sql === 'string' ? { text: sql } : sql;
  return runOn(pool, async (db) => (await db.query({ ...query, values: params })).rows as Row[]);
}

/** One transaction on one connection; rolled back when `work` throws. */
function transactionOn<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  return runOn(pool, async () => {
    const client = await pool.connect();
    let broken = false;
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {
        broken = true;
      });
      throw error;
    } finally {
      // A connection whose rollback failed is not given back to the pool.
      client.release(broken);
    }
  });
}

function itemColumns(items: Item[], seqs: Map<Item, number>) {
  return [
    items.map((item) => item.id),
    items.map((item) => item.name),
    items.map((item) => item.description),
    items.map((item) => item.sku),
    items.map((item) => item.barcode),
    items.map((item) => item.status),
    items.map((item) => item.quantity),
    items.map((item) => item.customFields),
    items.map((item) => postgresSearchText(item)),
    items.map((item) => item.createdAt),
    items.map((item) => item.updatedAt),
    items.map((item) => seqs.get(item)),
  ];
}

const UNNEST_ITEMS = `unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
  $8::float8[], $9::text[], $10::text[], $11::bigint[], $12::bigint[], $13::bigint[])
  AS u(id, name, description, sku, barcode, status, quantity, custom_fields, search_text, created_at,
    updated_at, change_seq)`;

/** Many rows in one statement: arrays of each column, unnested server side. */
async function insertItems(
  client: pg.PoolClient,
  organizationId: string,
  items: Item[],
  seqs: Map<Item, number>,
) {
  if (items.length === 0) return;
  await client.query(
    `INSERT INTO items (organization_id, id, name, description, sku, barcode, status, quantity,
       custom_fields, search_text, created_at, updated_at, change_seq, created_seq)
     SELECT $1, u.id, u.name, u.description, u.sku, u.barcode, u.status, u.quantity,
       u.custom_fields::json, u.search_text, u.created_at, u.updated_at, u.change_seq, u.change_seq
     FROM ${UNNEST_ITEMS}`,
    [organizationId, ...itemColumns(items, seqs)],
  );
}

async function updateItems(
  client: pg.PoolClient,
  organizationId: string,
  items: Item[],
  seqs: Map<Item, number>,
) {
  if (items.length === 0) return;
  await client.query(
    `UPDATE items i SET name = u.name, description = u.description, barcode = u.barcode,
       status = u.status, quantity = u.quantity, custom_fields = u.custom_fields::json,
       search_text = u.search_text, updated_at = u.updated_at, change_seq = u.change_seq
     FROM ${UNNEST_ITEMS}
     WHERE i.organization_id = $1 AND i.id = u.id`,
    [organizationId, ...itemColumns(items, seqs)],
  );
}
