import type { ApiKeyRecord } from '../store/types.js';
import { iso } from '../time.js';
import { formatRateLimit } from './rate-limit-spec.js';

export type KeyState = 'active' | 'disabled' | 'expired' | 'exhausted' | 'revoked';

/** One state per key, in the order the API checks them (a revoked key is simply unknown to it). */
export function keyState(key: ApiKeyRecord, now = Date.now()): KeyState {
  if (key.revokedAt !== null) return 'revoked';
  if (!key.enabled) return 'disabled';
  if (key.expiresAt !== null && key.expiresAt <= now) return 'expired';
  if (key.remaining === 0) return 'exhausted';
  return 'active';
}

/**
 * What an operator is shown of a key, by the CLI and the admin API alike: everything but the
 * hash (and the secret, which is never stored).
 */
export function describeKey(key: ApiKeyRecord, userEmail: string | null = null) {
  return {
    id: key.id,
    prefix: key.prefix,
    name: key.name,
    type: key.type,
    organizationId: key.organizationId,
    userId: key.userId,
    userEmail,
    permissions: key.permissions,
    state: keyState(key),
    expiresAt: iso(key.expiresAt),
    remaining: key.remaining,
    rateLimit: key.rateLimit,
    createdAt: iso(key.createdAt),
    lastUsedAt: iso(key.lastUsedAt),
    revokedAt: iso(key.revokedAt),
    /** After a rotation with a grace period: until when the previous secret still works. */
    previousSecretValidUntil:
      key.previousHashExpiresAt !== null && key.previousHashExpiresAt > Date.now()
        ? iso(key.previousHashExpiresAt)
        : null,
    /** What the key may see (domain/view.ts); null: every item, every field. */
    view: key.view,
    /** When the view was last set or cleared; null if it never had one. */
    viewUpdatedAt: iso(key.viewUpdatedAt),
  };
}

/** The key's rate limit as written (`600/1m`, or `none`). */
export function rateLimitText(key: ApiKeyRecord): string {
  return formatRateLimit(key.rateLimit);
}
