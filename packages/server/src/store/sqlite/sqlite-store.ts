import fs from 'node:fs';
import path from 'node:path';
import { newId, newIdAfter } from '../../ids.js';
import { newAuditEvent, toAuditEvent } from '../audit.js';
import { ChangePageBuilder, mergeChanges } from '../changes.js';
import { searchText } from '../search.js';
import { unsearchable, unstorableReason } from '../storable.js';
import { nextTurn } from '../turns.js';
import {
  type ApiKeyRecord,
  type AuditEvent,
  type ChangedItem,
  type ChangePage,
  type ChangeQuery,
  type Item,
  type ItemFields,
  type ItemQuery,
  type ItemRef,
  type ItemStatus,
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
import { type BackupSummary, backupDatabase } from './backup.js';
import Database, { type SqliteDatabase, type SqliteStatement } from './driver.js';
import {
  CommonNeedles,
  DEFAULT_SEARCH_LIMITS,
  OrganizationExtents,
  organizationRange,
  type SearchLimits,
  searchItems,
  TrigramStats,
  walkSlice,
} from './item-search.js';
import { SQLITE_MIGRATIONS } from './migrations.js';
import { SqliteWebhookStore } from './webhook-store.js';

type Row = Record<string, unknown>;

const ITEM_COLUMNS =
  'id, organization_id, name, description, sku, barcode, status, quantity, custom_fields, created_at, updated_at';
/** ITEM_COLUMNS qualified with the alias `i`, for joins. */
const ITEM_COLUMNS_I = ITEM_COLUMNS.split(', ')
  .map((column) => `i.${column}`)
  .join(', ');
const KEY_COLUMNS =
  'k.id, k.organization_id, k.user_id, k.type, k.name, k.prefix, k.hash, k.permissions, k.expires_at, k.remaining, k.rate_limit_max, k.rate_limit_window, k.enabled, k.revoked_at, k.created_at, k.last_used_at, k.previous_hash, k.previous_hash_expires_at';

function toOrganization(row: Row): Organization {
  return {
    id: row.id as string,
    name: row.name as string,
    slug: row.slug as string,
    features: JSON.parse(row.features as string) as string[],
    createdAt: row.created_at as number,
  };
}

function toUser(row: Row): User {
  return {
    id: row.id as string,
    email: row.email as string,
    name: (row.name as string | null) ?? null,
    createdAt: row.created_at as number,
  };
}

function toKey(row: Row): ApiKeyRecord {
  const max = row.rate_limit_max as number | null;
  return {
    id: row.id as string,
    organizationId: row.organization_id as string,
    userId: (row.user_id as string | null) ?? null,
    type: row.type as ApiKeyRecord['type'],
    name: row.name as string,
    prefix: row.prefix as string,
    hash: row.hash as string,
    permissions: JSON.parse(row.permissions as string) as string[],
    expiresAt: (row.expires_at as number | null) ?? null,
    remaining: (row.remaining as number | null) ?? null,
    rateLimit: max === null ? null : { max, windowSeconds: row.rate_limit_window as number },
    enabled: row.enabled === 1,
    revokedAt: (row.revoked_at as number | null) ?? null,
    createdAt: row.created_at as number,
    lastUsedAt: (row.last_used_at as number | null) ?? null,
    previousHash: (row.previous_hash as string | null) ?? null,
    previousHashExpiresAt: (row.previous_hash_expires_at as number | null) ?? null,
  };
}

/** An item from a raw row of ITEM_COLUMNS (arrays are cheaper to make than objects). */
function toItemFromRaw(row: unknown[]): Item {
  return {
    id: row[0] as string,
    organizationId: row[1] as string,
    name: row[2] as string,
    description: row[3] as string | null,
    sku: row[4] as string | null,
    barcode: row[5] as string | null,
    status: row[6] as ItemStatus,
    quantity: row[7] as number,
    customFields: row[8] as string,
    createdAt: row[9] as number,
    updatedAt: row[10] as number,
  };
}

/**
 * A changed item from a raw row of ITEM_COLUMNS, change_seq, created_seq. One object literal,
 * not a spread of toItemFromRaw: spreading a fresh object into another made each 1,000-row sync
 * page twice as slow to read and left about 0.6 MB of it in the old generation, which grew the
 * heap by ~75 MB a second under load (BENCHMARKS.md, RSS).
 */
function toChangedItemFromRaw(row: unknown[]): ChangedItem {
  return {
    id: row[0] as string,
    organizationId: row[1] as string,
    name: row[2] as string,
    description: row[3] as string | null,
    sku: row[4] as string | null,
    barcode: row[5] as string | null,
    status: row[6] as ItemStatus,
    quantity: row[7] as number,
    customFields: row[8] as string,
    createdAt: row[9] as number,
    updatedAt: row[10] as number,
    changeSeq: row[11] as number,
    createdSeq: (row[12] as number | null) ?? null,
  };
}

function toItem(row: Row): Item {
  return {
    id: row.id as string,
    organizationId: row.organization_id as string,
    name: row.name as string,
    description: row.description as string | null,
    sku: row.sku as string | null,
    barcode: row.barcode as string | null,
    status: row.status as ItemStatus,
    quantity: row.quantity as number,
    customFields: row.custom_fields as string,
    createdAt: row.created_at as number,
    updatedAt: row.updated_at as number,
  };
}

const ITEM_FIELD_NAMES = [
  'name',
  'description',
  'sku',
  'barcode',
  'status',
  'quantity',
  'customFields',
] as const;

/**
 * A write of at least this many rows is taken for part of a bulk load: its rows stay queued for
 * the search index, which is then built in one batch (at close, or once PENDING_INDEX_ROWS are
 * queued) instead of row by row, several times faster. Smaller writes index their rows at once.
 */
const BULK_WRITE_ROWS = 500;
const PENDING_INDEX_ROWS = 1_000_000;

/**
 * Deleting an organization's items rebuilds the search index instead of taking each row out of
 * it when the organization holds more than this many times the rows of all the others. Measured
 * (200,000 items): taking a row out through the trigger costs about 16 µs; deleting it with the
 * trigger skipped about 10 µs, and rebuilding costs about 12 µs per row that stays.
 */
const REBUILD_INDEX_RATIO = 2;

/**
 * Rows per keyset slice of a large list page (see listItems). Two large pages are built at
 * once and a turn of the event loop runs one slice of each, so this bounds how long another
 * request waits: about 1 ms per 100 rows read and turned into bytes (bench: item-detail p50
 * under limit=1000 pages 2.9 ms with 200-row slices, 1.9 ms with 100).
 */
const LIST_SLICE_ROWS = 100;

/**
 * SQLite's page cache of a server, in MiB. Bench, 1M-item database (`--only '^(item
 * detail|organization)$'`, two runs each): 32 MiB gave item detail 36-39% of the ceiling at an
 * RSS of 182 MB, 16 MiB 34-41% at 166 MB, 8 MiB 34-36% at 157 MB. The file's pages stay in the
 * operating system's cache either way; a larger cache only saves `pread` calls, and the 70 MB
 * (organization_id, id) index fits in neither.
 */
export const DEFAULT_CACHE_MIB = 16;

/** Where statement journals and sorts are kept outside migrations (see the constructor). */
const TEMP_STORE = 'MEMORY';

/** Tombstones deleted per statement by purgeTombstones. */
const PURGE_BATCH = 10_000;

/** Thrown inside a transaction to roll it back while keeping the computed outcomes. */
class Rollback extends Error {}

function hasExactFilter(query: ItemQuery): boolean {
  return query.sku !== undefined || query.barcode !== undefined || query.ids !== undefined;
}

function isBusy(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED' || code === 'SQLITE_CANTOPEN';
}

export interface SqliteStoreOptions {
  /** How long a writer waits for a lock before the request fails with 503. */
  busyTimeoutMs?: number;
  /** Bounds of one search request (item-search.ts); tests lower them to reach every plan. */
  searchLimits?: Partial<SearchLimits>;
  /** SQLite's page cache, in MiB (DEFAULT_CACHE_MIB unless given). */
  cacheMiB?: number;
  /**
   * `reader`: a connection that only reads (a reader thread of sqlite-threads.ts): it refuses
   * every write (query_only), never indexes the search queue, and reads an organization's
   * number afresh each time (the writer thread may delete the organization, and a new one
   * reuse its number). `writer` (the default): everything.
   */
  role?: 'reader' | 'writer';
}

/** The embedded engine: one SQLite file in WAL mode through better-sqlite3. */
export class SqliteStore implements Store {
  readonly engine = 'sqlite' as const;
  readonly file: string;
  private readonly db: SqliteDatabase;
  private readonly statements = new Map<string, SqliteStatement>();
  private readonly searchLimits: SearchLimits;
  private readonly reader: boolean;
  private busyTimeoutMs: number;
  readonly webhooks: SqliteWebhookStore;
  /** Statistics that choose search plans (item-search.ts). */
  private readonly searchStats = {
    extents: new OrganizationExtents({ stmt: (sql) => this.rawStmt(sql) }),
    trigrams: new TrigramStats({ stmt: (sql) => this.rawStmt(sql) }),
    common: new CommonNeedles(),
  };

  constructor(file: string, options: SqliteStoreOptions = {}) {
    this.file = file;
    this.searchLimits = { ...DEFAULT_SEARCH_LIMITS, ...options.searchLimits };
    if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
    try {
      this.db = new Database(file);
    } catch (error) {
      throw new StoreUnavailableError(
        `cannot open the SQLite database at ${file}: ${(error as Error).message}`,
      );
    }
    this.reader = options.role === 'reader';
    this.busyTimeoutMs = options.busyTimeoutMs ?? 5000;
    this.db.pragma(`busy_timeout = ${this.busyTimeoutMs}`);
    // A reader opens a file its writer has already put in WAL mode (the mode is kept in it).
    if (!this.reader) this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('foreign_keys = ON');
    // A bounded page cache: memory stays flat however many items the file holds; the
    // operating system's file cache does the rest. (No mmap: it would count every page
    // touched in the process's RSS.)
    this.db.pragma(`cache_size = -${(options.cacheMiB ?? DEFAULT_CACHE_MIB) * 1024}`);
    // Checkpoint every 64 MiB of WAL rather than 4 MiB: a bulk load rewrites the same index
    // pages batch after batch, and each checkpoint copies them and syncs. The file is cut back
    // to that size after a checkpoint.
    this.db.pragma('wal_autocheckpoint = 16384');
    this.db.pragma(`journal_size_limit = ${64 * 1024 * 1024}`);
    // Statement journals in memory. Every row of a write is one INSERT or UPDATE whose trigger
    // (the search queue) makes SQLite keep a statement journal: a copy of each page the
    // statement touches that the transaction had already changed. Kept in a temporary file,
    // that is several system calls per row and per index; 100,000 rows imported with the
    // change-feed and barcode indexes took 13.5 s instead of 3.5 s (1.3 s without them). The
    // journal of one statement is bounded by what its transaction wrote before it. (Sorts spill
    // to memory too in this mode: migrate() builds its indexes with files instead.)
    this.db.pragma(`temp_store = ${TEMP_STORE}`);
    if (this.reader) this.db.pragma('query_only = ON');
    // Bound now: the webhook store works apart from this store's methods (a test counting the
    // calls a request makes wraps those, and the dispatcher's background work is not one).
    this.webhooks = new SqliteWebhookStore({
      db: this.db,
      stmt: this.stmt.bind(this),
      run: this.run.bind(this),
    });
  }

  /** Rows this store queued for the search index since it last indexed the queue. */
  private queued = 0;

  /** organization id → its number, which never changes (rowid ranges, see migration 2). */
  private readonly organizationSeqs = new Map<string, number>();

  private organizationSeq(organizationId: string): number | null {
    const cached = this.organizationSeqs.get(organizationId);
    if (cached !== undefined) return cached;
    const row = this.stmt('SELECT seq FROM organizations WHERE id = ?').get(organizationId) as
      | { seq: number }
      | undefined;
    if (!row) return null;
    if (!this.reader) this.organizationSeqs.set(organizationId, row.seq);
    return row.seq;
  }

  /**
   * How long the next statements wait for another connection's lock before failing with
   * StoreUnavailableError (busy_timeout). The writer thread sets what is left of each call's
   * deadline (sqlite-threads.ts).
   */
  setBusyTimeout(ms: number): void {
    const next = Math.max(0, Math.ceil(ms));
    if (next === this.busyTimeoutMs || !this.db.open) return;
    this.busyTimeoutMs = next;
    this.db.pragma(`busy_timeout = ${next}`);
  }

  /**
   * Indexes the rows queued in items_search_pending (see migration 2), in the caller's
   * transaction or its own. One statement for the whole queue: FTS5 builds an index far
   * faster in one large batch than row by row.
   */
  private indexPending(): void {
    this.queued = 0;
    this.db.transaction(() => {
      this.stmt(
        `INSERT INTO items_search (rowid, search_text)
         SELECT i.seq, i.search_text FROM items_search_pending p JOIN items i ON i.seq = p.seq`,
      ).run();
      this.stmt('DELETE FROM items_search_pending').run();
    })();
  }

  private pendingCount(cap: number): number {
    return (
      this.stmt('SELECT count(*) AS n FROM (SELECT 1 FROM items_search_pending LIMIT ?)').get(
        cap,
      ) as { n: number }
    ).n;
  }

  /** Brings the search index up to date if rows are queued (say, after an interrupted load). */
  private indexPendingIfAny(): void {
    if (this.pendingCount(1) > 0) this.indexPending();
  }

  /** A cached statement in raw mode (rows as arrays), apart from the object-mode ones. */
  private rawStmt(sql: string): SqliteStatement {
    const key = `raw:${sql}`;
    let statement = this.statements.get(key);
    if (!statement) {
      statement = this.db.prepare(sql).raw(true);
      this.statements.set(key, statement);
    }
    return statement;
  }

  private stmt(sql: string): SqliteStatement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** Runs engine work, turning lock timeouts into the error the API answers 503 for. */
  private run<T>(work: () => T): Promise<T> {
    if (!this.db.open) {
      return Promise.reject(new StoreUnavailableError('the database connection is closed'));
    }
    try {
      return Promise.resolve(work());
    } catch (error) {
      if (isBusy(error)) {
        return Promise.reject(new StoreUnavailableError('the database is busy; try again shortly'));
      }
      return Promise.reject(error);
    }
  }

  async migrate(): Promise<string[]> {
    return this.run(() => {
      this.db.exec(
        'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)',
      );
      const applied: string[] = [];
      // IMMEDIATE takes the write lock up front, so two processes migrating at once serialize.
      // Building an index sorts the whole table: on files, so memory stays flat however
      // large the table.
      this.db.pragma('temp_store = FILE');
      const apply = this.db.transaction(() => {
        const current = (
          this.db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as Row
        ).v as number | null;
        const latest = SQLITE_MIGRATIONS[SQLITE_MIGRATIONS.length - 1]?.version ?? 0;
        if (current !== null && current > latest) {
          throw new Error(
            `this database was migrated by a newer version of Stockroom (schema ${current}, this binary knows up to ${latest}); upgrade Stockroom`,
          );
        }
        for (const migration of SQLITE_MIGRATIONS) {
          if (current !== null && migration.version <= current) continue;
          this.db.exec(migration.sql);
          migration.run?.(this.db);
          this.db
            .prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)')
            .run(migration.version, migration.name, Date.now());
          applied.push(`${String(migration.version).padStart(4, '0')}_${migration.name}`);
        }
      });
      try {
        apply.immediate();
      } finally {
        this.db.pragma(`temp_store = ${TEMP_STORE}`);
      }
      this.indexPendingIfAny();
      return applied;
    });
  }

  async ping(): Promise<void> {
    return this.run(() => {
      this.stmt('SELECT 1').get();
    });
  }

  async close(): Promise<void> {
    if (!this.db.open) return;
    if (this.reader) {
      this.db.close();
      return;
    }
    try {
      // A bulk load leaves its rows queued for indexing until its writer closes the store.
      this.indexPendingIfAny();
    } catch {
      // Not migrated, or locked: the rows stay queued (searches still see them) and are
      // indexed by the next write or the next start.
    }
    this.db.close();
  }

  async createOrganization(input: {
    name: string;
    slug: string;
    features: string[];
  }): Promise<Organization> {
    return this.run(() => {
      const now = Date.now();
      const org: Organization = { id: newId(now), ...input, createdAt: now };
      try {
        this.stmt(
          `INSERT INTO organizations (id, name, slug, features, created_at, updated_at, seq)
           VALUES (?, ?, ?, ?, ?, ?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM organizations))`,
        ).run(org.id, org.name, org.slug, JSON.stringify(org.features), now, now);
      } catch (error) {
        if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') {
          throw new StoreConflictError(`an organization with slug "${input.slug}" already exists`);
        }
        throw error;
      }
      return org;
    });
  }

  async getOrganization(id: string): Promise<Organization | null> {
    return this.run(() => {
      const row = this.stmt('SELECT * FROM organizations WHERE id = ?').get(id) as Row | undefined;
      return row ? toOrganization(row) : null;
    });
  }

  async findOrganization(ref: string): Promise<Organization | null> {
    return this.run(() => {
      const row = this.stmt('SELECT * FROM organizations WHERE id = ? OR slug = ?').get(ref, ref) as
        | Row
        | undefined;
      return row ? toOrganization(row) : null;
    });
  }

  async listOrganizations(): Promise<Organization[]> {
    return this.run(() =>
      (this.stmt('SELECT * FROM organizations ORDER BY id').all() as Row[]).map(toOrganization),
    );
  }

  async countOrganizations(): Promise<number> {
    return this.run(
      () => (this.stmt('SELECT COUNT(*) AS n FROM organizations').get() as Row).n as number,
    );
  }

  async updateOrganization(
    id: string,
    patch: { name?: string; features?: string[] },
  ): Promise<Organization> {
    return this.run(() => {
      const row = this.stmt('SELECT * FROM organizations WHERE id = ?').get(id) as Row | undefined;
      if (!row) throw new StoreConflictError(`organization ${id} does not exist`);
      const current = toOrganization(row);
      const next = { ...current, ...patch };
      this.stmt('UPDATE organizations SET name = ?, features = ?, updated_at = ? WHERE id = ?').run(
        next.name,
        JSON.stringify(next.features),
        Date.now(),
        id,
      );
      return next;
    });
  }

  async createUser(input: { email: string; name: string | null }): Promise<User> {
    return this.run(() => {
      const now = Date.now();
      const user: User = { id: newId(now), email: input.email, name: input.name, createdAt: now };
      try {
        this.stmt(
          'INSERT INTO users (id, email, email_normalized, name, created_at) VALUES (?, ?, ?, ?, ?)',
        ).run(user.id, user.email, user.email.toLowerCase(), user.name, now);
      } catch (error) {
        if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') {
          throw new StoreConflictError(`a user with email ${input.email} already exists`);
        }
        throw error;
      }
      return user;
    });
  }

  async findUser(ref: string): Promise<User | null> {
    return this.run(() => {
      const row = this.stmt('SELECT * FROM users WHERE id = ? OR email_normalized = ?').get(
        ref,
        ref.toLowerCase(),
      ) as Row | undefined;
      return row ? toUser(row) : null;
    });
  }

  async addMember(organizationId: string, userId: string): Promise<void> {
    return this.run(() => {
      this.stmt(
        'INSERT OR IGNORE INTO memberships (organization_id, user_id, created_at) VALUES (?, ?, ?)',
      ).run(organizationId, userId, Date.now());
    });
  }

  async removeMember(organizationId: string, userId: string): Promise<boolean> {
    return this.run(
      () =>
        this.stmt('DELETE FROM memberships WHERE organization_id = ? AND user_id = ?').run(
          organizationId,
          userId,
        ).changes > 0,
    );
  }

  async isMember(organizationId: string, userId: string): Promise<boolean> {
    return this.run(
      () =>
        this.stmt('SELECT 1 FROM memberships WHERE organization_id = ? AND user_id = ?').get(
          organizationId,
          userId,
        ) !== undefined,
    );
  }

  async listMembers(organizationId: string): Promise<User[]> {
    return this.run(() =>
      (
        this.stmt(
          'SELECT u.* FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.organization_id = ? ORDER BY u.id',
        ).all(organizationId) as Row[]
      ).map(toUser),
    );
  }

  async createApiKey(key: NewApiKey): Promise<ApiKeyRecord> {
    return this.run(() => {
      this.stmt(
        `INSERT INTO api_keys (organization_id, id, user_id, type, name, prefix, hash, permissions,
           expires_at, remaining, rate_limit_max, rate_limit_window, enabled, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?)`,
      ).run(
        key.organizationId,
        key.id,
        key.userId,
        key.type,
        key.name,
        key.prefix,
        key.hash,
        JSON.stringify(key.permissions),
        key.expiresAt,
        key.remaining,
        key.rateLimit?.max ?? null,
        key.rateLimit?.windowSeconds ?? null,
        key.createdAt,
      );
      return {
        ...key,
        enabled: true,
        revokedAt: null,
        lastUsedAt: null,
        previousHash: null,
        previousHashExpiresAt: null,
      };
    });
  }

  private keyById(id: string): ApiKeyRecord | null {
    const row = this.stmt(`SELECT ${KEY_COLUMNS} FROM api_keys k WHERE k.id = ?`).get(id) as
      | Row
      | undefined;
    return row ? toKey(row) : null;
  }

  async getApiKey(id: string): Promise<ApiKeyRecord | null> {
    return this.run(() => this.keyById(id));
  }

  async listApiKeys(organizationId: string): Promise<ApiKeyRecord[]> {
    return this.run(() =>
      (
        this.stmt(
          `SELECT ${KEY_COLUMNS} FROM api_keys k WHERE k.organization_id = ? ORDER BY k.id`,
        ).all(organizationId) as Row[]
      ).map(toKey),
    );
  }

  async setApiKeyEnabled(id: string, enabled: boolean): Promise<ApiKeyRecord | null> {
    return this.run(() => {
      this.stmt('UPDATE api_keys SET enabled = ? WHERE id = ?').run(enabled ? 1 : 0, id);
      return this.keyById(id);
    });
  }

  async revokeApiKey(id: string): Promise<ApiKeyRecord | null> {
    return this.run(() => {
      this.stmt('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(
        Date.now(),
        id,
      );
      return this.keyById(id);
    });
  }

  async rotateApiKey(
    id: string,
    secret: KeySecret,
    previousValidUntil: number | null,
  ): Promise<ApiKeyRecord | null> {
    return this.run(() => {
      const changed = this.stmt(
        `UPDATE api_keys SET previous_hash = CASE WHEN ? IS NULL THEN NULL ELSE hash END,
           previous_hash_expires_at = ?, hash = ?, prefix = ?
         WHERE id = ? AND revoked_at IS NULL`,
      ).run(previousValidUntil, previousValidUntil, secret.hash, secret.prefix, id).changes;
      return changed > 0 ? this.keyById(id) : null;
    });
  }

  async appendAuditEvent(event: NewAuditEvent): Promise<AuditEvent> {
    return this.run(() => {
      const recorded = newAuditEvent(event);
      this.stmt(
        `INSERT INTO audit_events (organization_id, id, at, actor, action, target, details)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        recorded.organizationId,
        recorded.id,
        recorded.at,
        recorded.actor,
        recorded.action,
        recorded.target,
        JSON.stringify(recorded.details),
      );
      return recorded;
    });
  }

  async listAuditEvents(
    organizationId: string,
    options: { limit?: number } = {},
  ): Promise<AuditEvent[]> {
    return this.run(() => {
      const rows = this.stmt(
        `SELECT * FROM audit_events WHERE organization_id = ?
         ORDER BY at DESC, id DESC LIMIT ?`,
      ).all(organizationId, options.limit ?? -1) as Row[];
      return rows.reverse().map(toAuditEvent);
    });
  }

  async loadKeyContext(hash: string): Promise<KeyContext | null> {
    return this.run(() => {
      const row = this.stmt(
        `SELECT ${KEY_COLUMNS},
           o.name AS org_name, o.slug AS org_slug, o.features AS org_features, o.created_at AS org_created_at,
           (k.user_id IS NULL OR EXISTS (
             SELECT 1 FROM memberships m WHERE m.organization_id = k.organization_id AND m.user_id = k.user_id
           )) AS member
         FROM api_keys k JOIN organizations o ON o.id = k.organization_id
         WHERE (k.hash = ? OR (k.previous_hash = ? AND k.previous_hash_expires_at > ?))
           AND k.revoked_at IS NULL`,
      ).get(hash, hash, Date.now()) as Row | undefined;
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
        member: row.member === 1,
      };
    });
  }

  async consumeQuota(keyId: string): Promise<number | null> {
    return this.run(() => {
      const row = this.stmt(
        'UPDATE api_keys SET remaining = remaining - 1 WHERE id = ? AND remaining > 0 RETURNING remaining',
      ).get(keyId) as Row | undefined;
      return row ? (row.remaining as number) : null;
    });
  }

  async refundQuota(keyId: string): Promise<number | null> {
    return this.run(() => {
      const row = this.stmt(
        'UPDATE api_keys SET remaining = remaining + 1 WHERE id = ? AND remaining IS NOT NULL RETURNING remaining',
      ).get(keyId) as Row | undefined;
      return row ? (row.remaining as number) : null;
    });
  }

  async getRemaining(keyId: string): Promise<number | null> {
    return this.run(() => {
      const row = this.stmt('SELECT remaining FROM api_keys WHERE id = ?').get(keyId) as
        | Row
        | undefined;
      return (row?.remaining as number | null | undefined) ?? null;
    });
  }

  async recordKeyUse(uses: Map<string, number>): Promise<void> {
    if (uses.size === 0) return;
    return this.run(() => {
      const update = this.stmt(
        'UPDATE api_keys SET last_used_at = MAX(COALESCE(last_used_at, 0), ?) WHERE id = ?',
      );
      this.db.transaction(() => {
        for (const [id, at] of uses) update.run(at, id);
      })();
    });
  }

  async listItems(organizationId: string, query: ItemQuery): Promise<Item[]> {
    const items: Item[] = [];
    for await (const slice of this.listItemSlices(organizationId, query)) {
      for (const item of slice) items.push(item);
    }
    return items;
  }

  /**
   * A large page is read in keyset slices with a turn of the event loop between them, so a
   * limit=1000 request never holds the loop for its whole length: other requests are served in
   * between, and the caller can turn each slice into bytes before the next (short-lived
   * strings are cheap to collect). Same rows as one query: each slice continues from the last
   * id. A search page read by an index plan (item-search.ts), bounded by it, is one slice; a
   * search that walks the organization is walked in slices too (searchWalk).
   */
  async *listItemSlices(organizationId: string, query: ItemQuery): AsyncGenerator<Item[]> {
    if (query.search !== undefined && !hasExactFilter(query)) {
      const needle = query.search;
      const plan = await this.run(() => {
        // U+0000 separates the fields of search_text and is never stored in them.
        if (unsearchable(needle)) return { rows: [] };
        // Scoped by the organization's rowid range and bounded: see item-search.ts.
        const seq = this.organizationSeq(organizationId);
        if (seq === null) return { rows: [] };
        return searchItems(
          { stmt: (sql) => this.rawStmt(sql) },
          this.searchStats,
          ITEM_COLUMNS_I,
          organizationId,
          seq,
          needle,
          query,
          this.searchLimits,
        );
      });
      if ('rows' in plan) yield plan.rows.map(toItemFromRaw);
      else yield* this.searchWalk(organizationId, needle, query, plan.walk.budget);
      return;
    }
    let afterId = query.afterId;
    let remaining = query.limit;
    for (;;) {
      const want = Math.min(LIST_SLICE_ROWS, remaining);
      const slice = await this.run(() => this.itemSlice(organizationId, query, afterId, want));
      yield slice;
      remaining -= slice.length;
      const last = slice[slice.length - 1];
      if (slice.length < want || remaining <= 0 || !last) return;
      afterId = last.id;
      await nextTurn();
    }
  }

  /**
   * The ordered walk of a search (item-search.ts), `walkSliceRows` rows per turn of the event
   * loop: at most `budget` rows examined (null: to the organization's end), and a short page
   * reported through onPartialPage when the budget runs out first. Between slices other
   * requests run, and may write: like the list's keyset slices, each slice continues after
   * the last `_id` examined, so every match is still returned once.
   */
  private async *searchWalk(
    organizationId: string,
    needle: string,
    query: ItemQuery,
    budget: number | null,
  ): AsyncGenerator<Item[]> {
    const sliceRows = this.searchLimits.walkSliceRows;
    let afterId = query.afterId;
    let examined = 0;
    let found = 0;
    for (;;) {
      const examine = budget === null ? sliceRows : Math.min(sliceRows, budget - examined);
      const slice = await this.run(() =>
        walkSlice(
          { stmt: (sql) => this.rawStmt(sql) },
          ITEM_COLUMNS_I,
          organizationId,
          needle,
          query,
          afterId,
          examine,
          query.limit - found,
        ),
      );
      examined += examine;
      found += slice.rows.length;
      if (slice.rows.length > 0) yield slice.rows.map(toItemFromRaw);
      if (found >= query.limit || slice.lastExamined === null) return;
      if (budget !== null && examined >= budget) {
        query.onPartialPage?.(slice.lastExamined);
        return;
      }
      afterId = slice.lastExamined;
      await nextTurn();
    }
  }

  private itemSlice(
    organizationId: string,
    query: ItemQuery,
    afterId: string | undefined,
    limit: number,
  ): Item[] {
    const where = ['organization_id = ?'];
    const params: unknown[] = [organizationId];
    if (query.status !== undefined) {
      where.push('status = ?');
      params.push(query.status);
    }
    // Exact filters go through their indexes: (organization_id, sku) (unique), (organization_id,
    // barcode, id) and (organization_id, id); a search beside them only filters those few rows.
    if (query.sku !== undefined) {
      where.push('sku = ?');
      params.push(query.sku);
    }
    if (query.barcode !== undefined) {
      where.push('barcode = ?');
      params.push(query.barcode);
    }
    if (query.ids !== undefined) {
      // One statement whatever the number of ids (a JSON array), not one per list length.
      where.push('id IN (SELECT value FROM json_each(?))');
      params.push(JSON.stringify(query.ids));
    }
    if (query.search !== undefined) {
      if (unsearchable(query.search)) return [];
      where.push('instr(search_text, ?) > 0');
      params.push(query.search);
    }
    if (afterId !== undefined) {
      where.push('id > ?');
      params.push(afterId);
    }
    params.push(limit);
    const sql = `SELECT ${ITEM_COLUMNS} FROM items WHERE ${where.join(' AND ')} ORDER BY id LIMIT ?`;
    return (this.rawStmt(sql).all(...params) as unknown[][]).map(toItemFromRaw);
  }

  async getItem(organizationId: string, id: string): Promise<Item | null> {
    return this.run(() => {
      const row = this.rawStmt(
        `SELECT ${ITEM_COLUMNS} FROM items WHERE organization_id = ? AND id = ?`,
      ).get(organizationId, id) as unknown[] | undefined;
      return row ? toItemFromRaw(row) : null;
    });
  }

  /**
   * Nothing to do: the SQLite store never runs ANALYZE, so its plans come from the schema and
   * the statements alone (item-search.test.ts holds them to their indexes) and do not change
   * when the data does.
   */
  async refreshItemStatistics(_changedItems: number): Promise<boolean> {
    return false;
  }

  async countItems(organizationId: string): Promise<number> {
    return this.run(
      () =>
        (
          this.stmt('SELECT COUNT(*) AS n FROM items WHERE organization_id = ?').get(
            organizationId,
          ) as Row
        ).n as number,
    );
  }

  /**
   * The change numbers of one write transaction of an organization (run it under the write
   * lock): the first is max(the organization's last + 1, now × 1000), then one more per change,
   * so numbers never go backwards and a number divided by 1000 is never before its change's
   * `now`. `commit` records the last one taken on the organization, in the same transaction.
   */
  private changeClock(organizationId: string, now: number): { next(): number; commit(): void } {
    let next: number | undefined;
    let last: number | undefined;
    return {
      next: () => {
        if (next === undefined) {
          const row = this.stmt('SELECT change_seq FROM organizations WHERE id = ?').get(
            organizationId,
          ) as { change_seq: number } | undefined;
          // An unknown organization writes nothing: its rows fail on their foreign key.
          next = Math.max((row?.change_seq ?? 0) + 1, now * 1000);
        }
        last = next++;
        return last;
      },
      commit: () => {
        if (last === undefined) return;
        this.stmt('UPDATE organizations SET change_seq = ? WHERE id = ?').run(last, organizationId);
      },
    };
  }

  async writeItems(
    organizationId: string,
    rows: ItemFields[],
    options: { dryRun?: boolean; allOrNothing?: boolean; now?: number } = {},
  ): Promise<ItemWriteOutcome[]> {
    return this.run(() => {
      const now = options.now ?? Date.now();
      const outcomes: ItemWriteOutcome[] = [];
      const bySku = this.stmt(
        `SELECT ${ITEM_COLUMNS} FROM items WHERE organization_id = ? AND sku = ?`,
      );
      const insert = this.stmt(
        `INSERT INTO items (seq, organization_id, id, name, description, sku, barcode, status,
           quantity, custom_fields, search_text, created_at, updated_at, change_seq, created_seq)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      // New rows take the next rowids of the organization's range (migration 2), read once
      // per transaction. An unknown organization gets none and fails on its foreign key.
      let nextSeq: number | null | undefined;
      let lastSeq = 0;
      const allocateSeq = (): number | null => {
        if (nextSeq === undefined) {
          const organizationSeq = this.organizationSeq(organizationId);
          if (organizationSeq === null) nextSeq = null;
          else {
            const [lo, hi] = organizationRange(organizationSeq);
            const max = (
              this.stmt('SELECT MAX(seq) AS m FROM items WHERE seq BETWEEN ? AND ?').get(
                lo,
                hi,
              ) as {
                m: number | null;
              }
            ).m;
            nextSeq = (max ?? lo) + 1;
            lastSeq = Math.min(hi, Number.MAX_SAFE_INTEGER);
          }
        }
        if (nextSeq === null) return null;
        if (nextSeq > lastSeq) {
          throw new StoreConflictError('this organization has used up its range of item rows');
        }
        return nextSeq++;
      };
      // SQLite rewrites the entries of every index holding a column the statement sets, equal
      // value or not: barcode and status are set only when they change, so an update of, say,
      // quantities leaves their indexes alone (the barcode index's entries are scattered: a
      // rewrite dirties a page per row; 100,000 updates took 3.7 s with it, 1.5 s without).
      const update = (barcode: boolean, status: boolean) =>
        this.stmt(
          `UPDATE items SET name = ?, description = ?, ${barcode ? 'barcode = ?, ' : ''}${status ? 'status = ?, ' : ''}
             quantity = ?, custom_fields = ?, search_text = ?, updated_at = ?, change_seq = ?
           WHERE organization_id = ? AND id = ?`,
        );
      // Every created or updated row takes the organization's next change number (read once,
      // under the write lock); the organization keeps the last one when the write commits.
      const changes = this.changeClock(organizationId, now);
      // New ids sort after every id of the organization, as their rowids do (item-search.ts
      // relies on rowid order being _id order); read once per transaction, under the write lock.
      let idFloor: string | null | undefined;
      const nextId = (): string => {
        if (idFloor === undefined) {
          idFloor =
            (
              this.stmt('SELECT MAX(id) AS m FROM items WHERE organization_id = ?').get(
                organizationId,
              ) as { m: string | null }
            ).m ?? null;
        }
        idFloor = newIdAfter(idFloor, now);
        return idFloor;
      };
      // Rows this write leaves queued for the search index (a bulk load), once committed.
      let queuedNow = 0;
      const transaction = this.db.transaction(() => {
        for (const row of rows) {
          const unstorable = unstorableReason(row);
          if (unstorable) {
            outcomes.push({ error: unstorable });
            continue;
          }
          const existing =
            typeof row.sku === 'string'
              ? (bySku.get(organizationId, row.sku) as Row | undefined)
              : undefined;
          if (existing) {
            const current = toItem(existing);
            const next = { ...current };
            for (const field of ITEM_FIELD_NAMES) {
              const value = row[field];
              if (value !== undefined) (next as Record<string, unknown>)[field] = value;
            }
            if (ITEM_FIELD_NAMES.every((field) => next[field] === current[field])) {
              outcomes.push('unchanged');
              continue;
            }
            const barcode = next.barcode !== current.barcode;
            const status = next.status !== current.status;
            update(barcode, status).run(
              next.name,
              next.description,
              ...(barcode ? [next.barcode] : []),
              ...(status ? [next.status] : []),
              next.quantity,
              next.customFields,
              searchText(next),
              now,
              changes.next(),
              organizationId,
              current.id,
            );
            outcomes.push('updated');
            continue;
          }
          if (row.name === undefined) {
            outcomes.push({
              error: 'name is required to create an item (no item has this sku yet)',
            });
            continue;
          }
          const item = {
            name: row.name,
            description: row.description ?? null,
            sku: row.sku ?? null,
            barcode: row.barcode ?? null,
            status: row.status ?? 'Draft',
            quantity: row.quantity ?? 0,
            customFields: row.customFields ?? '{}',
          };
          // Its creation's number is also its first change's (webhooks tell created from updated).
          const createdSeq = changes.next();
          insert.run(
            allocateSeq(),
            organizationId,
            nextId(),
            item.name,
            item.description,
            item.sku,
            item.barcode,
            item.status,
            item.quantity,
            item.customFields,
            searchText(item),
            now,
            now,
            createdSeq,
            createdSeq,
          );
          outcomes.push('created');
        }
        const failed = outcomes.some((outcome) => typeof outcome === 'object');
        if (options.dryRun || (options.allOrNothing && failed)) throw new Rollback();
        changes.commit();
        const written = outcomes.filter((o) => o === 'created' || o === 'updated').length;
        if (rows.length < BULK_WRITE_ROWS || this.queued + written >= PENDING_INDEX_ROWS) {
          this.indexPending();
        } else queuedNow = written;
      });
      try {
        transaction.immediate();
        this.queued += queuedNow;
      } catch (error) {
        if (!(error instanceof Rollback)) throw error;
      }
      return outcomes;
    });
  }

  async deleteItem(organizationId: string, by: ItemRef): Promise<boolean> {
    return (await this.deleteItems(organizationId, [by]))[0] === true;
  }

  async deleteItems(organizationId: string, refs: readonly ItemRef[]): Promise<boolean[]> {
    return this.run(() => {
      const deleted: boolean[] = [];
      this.db
        .transaction(() => {
          const now = Date.now();
          const changes = this.changeClock(organizationId, now);
          for (const by of refs) {
            const row = (
              'id' in by
                ? this.stmt(
                    'DELETE FROM items WHERE organization_id = ? AND id = ? RETURNING id',
                  ).get(organizationId, by.id)
                : this.stmt(
                    'DELETE FROM items WHERE organization_id = ? AND sku = ? RETURNING id',
                  ).get(organizationId, by.sku)
            ) as { id: string } | undefined;
            deleted.push(row !== undefined);
            if (!row) continue;
            this.stmt(
              'INSERT INTO item_tombstones (organization_id, seq, item_id, deleted_at) VALUES (?, ?, ?, ?)',
            ).run(organizationId, changes.next(), row.id, now);
          }
          changes.commit();
        })
        .immediate();
      return deleted;
    });
  }

  async listChanges(organizationId: string, query: ChangeQuery): Promise<ChangePage> {
    return this.run(() =>
      // One read transaction: the organization's counter and the rows after the position come
      // from the same snapshot, even while another process writes (WAL). A write is one
      // transaction that stamps its rows and the counter together, so the page never holds a
      // change past the counter, nor misses one below it.
      this.db.transaction(() => {
        const organization = this.stmt('SELECT change_seq FROM organizations WHERE id = ?').get(
          organizationId,
        ) as { change_seq: number } | undefined;
        if (!organization) {
          return { items: [], deleted: [], throughSeq: query.afterSeq, more: false };
        }
        // One more of each than the page holds says whether anything follows it.
        const fetch = query.limit + 1;
        // Tombstones first (at most limit + 1), so the items can be read as an iterator and
        // merged with them in one pass. The iterator must be closed before the transaction
        // ends: better-sqlite3 refuses the COMMIT, any write and this statement's next run
        // while it is open (mergeChanges closes it when the page is full).
        const tombstones = query.includeDeleted
          ? (
              this.stmt(
                `SELECT item_id, deleted_at, seq FROM item_tombstones
                 WHERE organization_id = ? AND seq > ? ORDER BY seq LIMIT ?`,
              ).all(organizationId, query.afterSeq, fetch) as Row[]
            ).map((row) => ({
              id: row.item_id as string,
              deletedAt: row.deleted_at as number,
              seq: row.seq as number,
            }))
          : [];
        // Items one row at a time, each handed on before the next is read (see onItem).
        const rows = this.rawStmt(
          `SELECT ${ITEM_COLUMNS}, change_seq, created_seq FROM items
           WHERE organization_id = ? AND change_seq > ?${query.status === undefined ? '' : ' AND status = ?'}
           ORDER BY change_seq LIMIT ?`,
        ).iterate(
          organizationId,
          query.afterSeq,
          ...(query.status === undefined ? [] : [query.status]),
          fetch,
        ) as IterableIterator<unknown[]>;
        const builder = new ChangePageBuilder(query);
        mergeChanges(builder, rows, toChangedItemFromRaw, tombstones);
        return builder.finish(organization.change_seq);
      })(),
    );
  }

  async purgeTombstones(before: number): Promise<number> {
    let purged = 0;
    // In batches, each its own short write transaction, with a turn of the event loop between
    // them: a large purge never holds the write lock, or this process, for long.
    for (;;) {
      const removed = await this.run(
        () =>
          this.stmt(
            `DELETE FROM item_tombstones WHERE (organization_id, seq) IN (
               SELECT organization_id, seq FROM item_tombstones WHERE deleted_at < ? LIMIT ?)`,
          ).run(before, PURGE_BATCH).changes,
      );
      purged += removed;
      if (removed < PURGE_BATCH) return purged;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  async deleteOrganization(id: string): Promise<OrganizationDeletion | null> {
    return this.run(() => {
      let deleted: OrganizationDeletion | null = null;
      this.db
        .transaction(() => {
          const organization = this.stmt('SELECT seq FROM organizations WHERE id = ?').get(id) as
            | { seq: number }
            | undefined;
          if (!organization) return;
          const items = this.deleteOrganizationItems(id, organization.seq);
          this.stmt('DELETE FROM item_tombstones WHERE organization_id = ?').run(id);
          this.stmt('DELETE FROM webhook_deliveries WHERE organization_id = ?').run(id);
          this.stmt('DELETE FROM webhooks WHERE organization_id = ?').run(id);
          const apiKeys = this.stmt('DELETE FROM api_keys WHERE organization_id = ?').run(id);
          const memberships = this.stmt('DELETE FROM memberships WHERE organization_id = ?').run(
            id,
          );
          this.stmt('DELETE FROM organizations WHERE id = ?').run(id);
          deleted = { items, apiKeys: apiKeys.changes, memberships: memberships.changes };
        })
        .immediate();
      this.organizationSeqs.delete(id);
      return deleted;
    });
  }

  /**
   * Deletes an organization's items and their search index entries, in the caller's
   * transaction: one statement over its rowid range (migration 2), whose delete trigger takes
   * each row out of the index. Taking a row out of the index costs more than indexing one
   * afresh, so when the organization holds most of the rows (REBUILD_INDEX_RATIO) its rows are
   * queued first (the trigger then leaves the index alone) and the index is rebuilt from the
   * rows that stay, which also leaves it compact. Returns the rows deleted.
   */
  private deleteOrganizationItems(organizationId: string, organizationSeq: number): number {
    const [lo, hi] = organizationRange(organizationSeq);
    const count = (sql: string, ...params: unknown[]) =>
      (this.stmt(sql).get(...params) as { n: number }).n;
    const own = count('SELECT count(*) AS n FROM items WHERE organization_id = ?', organizationId);
    const others = count('SELECT count(*) AS n FROM items') - own;
    const rebuild = own > REBUILD_INDEX_RATIO * others;
    if (rebuild) {
      this.stmt(
        `INSERT OR IGNORE INTO items_search_pending (seq)
         SELECT seq FROM items WHERE seq BETWEEN ? AND ? AND organization_id = ?`,
      ).run(lo, hi, organizationId);
    }
    const inRange = 'DELETE FROM items WHERE seq BETWEEN ? AND ? AND organization_id = ?';
    let deleted = this.stmt(inRange).run(lo, hi, organizationId).changes;
    // Every item lies in the range; this finds none unless a row was written outside it.
    deleted += this.stmt('DELETE FROM items WHERE organization_id = ?').run(organizationId).changes;
    if (rebuild) {
      this.queued = 0;
      this.stmt("INSERT INTO items_search (items_search) VALUES ('rebuild')").run();
      this.stmt('DELETE FROM items_search_pending').run();
    }
    return deleted;
  }

  /**
   * A consistent copy of the database at `file`, safe while servers and other commands read
   * and write it (see backup.ts). Refuses an existing `file` unless `overwrite`.
   */
  async backupTo(file: string, options: { overwrite?: boolean } = {}): Promise<BackupSummary> {
    return this.run(() => backupDatabase(this.db, this.file, file, options));
  }
}
