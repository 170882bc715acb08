import type { Row } from '../rows.js';
import type { Store } from '../types.js';
import { type BackupSummary, backupDatabase } from './backup.js';
import { type SqliteStoreOptions, TEMP_STORE } from './connection.js';
import { SQLITE_MIGRATIONS } from './migrations.js';
import { SqliteOrganizations } from './organizations.js';
import { checkStoredQuantities } from './quantity-check.js';
import { SqliteWebhookStore } from './webhook-store.js';

export { DEFAULT_CACHE_MIB, type SqliteStoreOptions } from './connection.js';

/**
 * The embedded engine: one SQLite file in WAL mode through better-sqlite3. Its aggregates are
 * the layers below it (connection.ts); this last one adds the schema, the connection's life
 * and the webhooks.
 */
export class SqliteStore extends SqliteOrganizations implements Store {
  readonly engine = 'sqlite' as const;
  readonly seedsDemoWhenEmpty = true;
  readonly webhooks: SqliteWebhookStore;

  constructor(file: string, options: SqliteStoreOptions = {}) {
    super(file, options);
    // Bound now: the webhook store works apart from this store's methods (a test counting the
    // calls a request makes wraps those, and the dispatcher's background work is not one).
    this.webhooks = new SqliteWebhookStore({
      db: this.db,
      stmt: this.stmt.bind(this),
      run: this.run.bind(this),
    });
  }

  async migrate(): Promise<string[]> {
    const applied = await this.run(() => {
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
      // After the commit: the migrations stay applied while the rows are repaired.
      checkStoredQuantities(this.db);
      return applied;
    });
    await this.indexPendingInParts();
    return applied;
  }

  async ping(): Promise<void> {
    return this.run(() => {
      this.stmt('SELECT 1').get();
    });
  }

  async close(): Promise<void> {
    if (!this.db.open) return;
    if (!this.indexesQueue) {
      this.db.close();
      return;
    }
    try {
      // A bulk load leaves its rows queued for indexing until its writer closes the store.
      await this.indexPendingInParts();
    } catch {
      // Not migrated, or locked: the rows stay queued (searches still see them) and are
      // indexed by the next write or the next start.
    }
    this.db.close();
  }

  /**
   * A consistent copy of the database at `file`, safe while servers and other commands read
   * and write it (see backup.ts). Refuses an existing `file` unless `overwrite`.
   */
  async backupTo(file: string, options: { overwrite?: boolean } = {}): Promise<BackupSummary> {
    return this.run(() => backupDatabase(this.db, this.file, file, options));
  }
}
