import {
  KEY_COLUMNS,
  KEY_CONTEXT_SELECT,
  NEW_KEY_COLUMNS,
  newKeyRecord,
  newKeyValues,
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
import { PostgresConnection } from './connection.js';
import { prepared } from './prepared.js';

// The statements of every request's path, prepared (prepared.ts): lookups by a unique key,
// whose plan cannot depend on the values. Their columns are listed, never `*`, so a
// migration that adds a column leaves their result type, and the prepared plans, valid.
const KEY_CONTEXT_BY_HASH = prepared(
  'key_context_by_hash',
  `${KEY_CONTEXT_SELECT}
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
// One atomic increment of a fixed-window counter: hits from every process queue on the row lock.
const COUNT_RATE_LIMIT_HIT = prepared(
  'count_rate_limit_hit',
  `INSERT INTO rate_limit_counters (organization_id, key_id, window_seconds, window_index, hits, expires_at)
   VALUES ($1, $2, $3, $4, 1, $5)
   ON CONFLICT (organization_id, key_id, window_seconds, window_index)
   DO UPDATE SET hits = rate_limit_counters.hits + 1
   RETURNING hits`,
);

/** API keys on PostgreSQL: records, authentication's lookup, quotas, last use, rate counters. */
export abstract class PostgresKeys extends PostgresConnection implements KeyStore {
  async createApiKey(key: NewApiKey): Promise<ApiKeyRecord> {
    await this.rows(
      `INSERT INTO api_keys (${NEW_KEY_COLUMNS}, enabled)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, true)`,
      newKeyValues(key, key.permissions),
    );
    return newKeyRecord(key);
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

  async setApiKeyView(id: string, view: KeyView | null, at: number): Promise<ApiKeyRecord | null> {
    const [row] = await this.rows(
      // A version that only grows, even for two changes within one millisecond (api/sync.ts).
      `UPDATE api_keys k SET view = $2,
         view_updated_at = GREATEST(COALESCE(k.view_updated_at, 0) + 1, $3)
       WHERE k.id = $1 AND k.revoked_at IS NULL RETURNING ${KEY_COLUMNS}`,
      [id, view === null ? null : JSON.stringify(view), at],
    );
    return row ? toKey(row) : null;
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

  async loadKeyContext(hash: string): Promise<KeyContext | null> {
    const [row] = await this.rows(KEY_CONTEXT_BY_HASH, [hash, Date.now()]);
    return row ? toKeyContext(row) : null;
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
}
