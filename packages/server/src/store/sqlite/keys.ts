import {
  KEY_COLUMNS,
  KEY_CONTEXT_SELECT,
  NEW_KEY_COLUMNS,
  newKeyRecord,
  newKeyValues,
  type Row,
  toKey,
  toKeyContext,
} from '../rows.js';
import type {
  ApiKeyRecord,
  KeyContext,
  KeySecret,
  KeyStore,
  KeyView,
  NewApiKey,
} from '../types.js';
import { SqliteConnection } from './connection.js';

/** API keys on SQLite: records, authentication's lookup, quotas and last use. */
export abstract class SqliteKeys extends SqliteConnection implements KeyStore {
  async createApiKey(key: NewApiKey): Promise<ApiKeyRecord> {
    return this.run(() => {
      this.stmt(
        `INSERT INTO api_keys (${NEW_KEY_COLUMNS}, enabled)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1)`,
      ).run(...newKeyValues(key, JSON.stringify(key.permissions)));
      return newKeyRecord(key);
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

  async setApiKeyView(id: string, view: KeyView | null, at: number): Promise<ApiKeyRecord | null> {
    return this.run(() => {
      const changed = this.stmt(
        // A version that only grows, even for two changes within one millisecond (api/sync.ts).
        'UPDATE api_keys SET view = ?, view_updated_at = MAX(COALESCE(view_updated_at, 0) + 1, ?) WHERE id = ? AND revoked_at IS NULL',
      ).run(view === null ? null : JSON.stringify(view), at, id).changes;
      return changed > 0 ? this.keyById(id) : null;
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

  async loadKeyContext(hash: string): Promise<KeyContext | null> {
    return this.run(() => {
      const row = this.stmt(
        `${KEY_CONTEXT_SELECT}
         WHERE (k.hash = ? OR (k.previous_hash = ? AND k.previous_hash_expires_at > ?))
           AND k.revoked_at IS NULL`,
      ).get(hash, hash, Date.now()) as Row | undefined;
      return row ? toKeyContext(row) : null;
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
}
