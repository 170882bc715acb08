import type { ApiKeyRecord } from '../store/types.js';
import { iso } from './output.js';
import { formatDuration } from './values.js';

export type KeyState = 'active' | 'disabled' | 'expired' | 'exhausted' | 'revoked';

/** One state per key, in the order the API checks them (a revoked key is simply unknown to it). */
export function keyState(key: ApiKeyRecord, now = Date.now()): KeyState {
  if (key.revokedAt !== null) return 'revoked';
  if (!key.enabled) return 'disabled';
  if (key.expiresAt !== null && key.expiresAt <= now) return 'expired';
  if (key.remaining === 0) return 'exhausted';
  return 'active';
}

/** What the CLI shows of a key: everything but the hash (and the secret, which is never stored). */
export function keyView(key: ApiKeyRecord, userEmail: string | null = null) {
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
    /** After `key rotate --grace`: until when the previous secret still works. */
    previousSecretValidUntil:
      key.previousHashExpiresAt !== null && key.previousHashExpiresAt > Date.now()
        ? iso(key.previousHashExpiresAt)
        : null,
  };
}

export function rateLimitText(key: ApiKeyRecord): string {
  return key.rateLimit
    ? `${key.rateLimit.max}/${formatDuration(key.rateLimit.windowSeconds)}`
    : 'none';
}
