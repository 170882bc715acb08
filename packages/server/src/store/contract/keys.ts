import type { Organization } from './organizations.js';

/** API keys: records, secrets, rate limits, and what authentication reads. */

export type KeyType = 'organization' | 'user';

export interface RateLimitPolicy {
  max: number;
  windowSeconds: number;
}

/**
 * What one key may see (docs/architecture.md#key-views), as its operator wrote it, canonical
 * (domain/view.ts): `where` expressions that must all hold, fields hidden, a quantity cap.
 */
export interface KeyView {
  where: string[];
  hideFields: string[];
  quantityCap: number | null;
}

export interface ApiKeyRecord {
  id: string;
  organizationId: string;
  userId: string | null;
  type: KeyType;
  name: string;
  /** Display prefix: the type prefix and the first 4 random characters. */
  prefix: string;
  /** SHA-256 of the full key, hex. The plaintext is never stored. */
  hash: string;
  permissions: string[];
  expiresAt: number | null;
  /** Uses left; null when the key has no quota. */
  remaining: number | null;
  rateLimit: RateLimitPolicy | null;
  enabled: boolean;
  revokedAt: number | null;
  createdAt: number;
  lastUsedAt: number | null;
  /**
   * After a rotation with a grace period: the SHA-256 of the secret the key had before, which
   * authenticates as this key until previousHashExpiresAt (epoch ms). Null otherwise.
   */
  previousHash: string | null;
  previousHashExpiresAt: number | null;
  /** What the key may see; null: every item, every field. */
  view: KeyView | null;
  /** When the view was last set or cleared (epoch ms); null if it never had one. */
  viewUpdatedAt: number | null;
}

export type NewApiKey = Omit<
  ApiKeyRecord,
  | 'enabled'
  | 'revokedAt'
  | 'lastUsedAt'
  | 'previousHash'
  | 'previousHashExpiresAt'
  | 'viewUpdatedAt'
>;

/** A new secret for an existing key (rotation). */
export interface KeySecret {
  hash: string;
  prefix: string;
}

/** Everything authentication needs about a key, read in one round trip. */
export interface KeyContext {
  key: ApiKeyRecord;
  organization: Organization;
  /** For user keys: whether the user is still a member. Always true for organization keys. */
  member: boolean;
}

/** API keys: their records, authentication's lookup, quotas and last use. */
export interface KeyStore {
  createApiKey(key: NewApiKey): Promise<ApiKeyRecord>;
  getApiKey(id: string): Promise<ApiKeyRecord | null>;
  listApiKeys(organizationId: string): Promise<ApiKeyRecord[]>;
  setApiKeyEnabled(id: string, enabled: boolean): Promise<ApiKeyRecord | null>;
  /** Revoked keys are unknown to authentication from then on. */
  revokeApiKey(id: string): Promise<ApiKeyRecord | null>;
  /** Key, organization and membership by key hash; null for unknown or revoked keys. */
  loadKeyContext(hash: string): Promise<KeyContext | null>;
  /**
   * Atomically takes one use of a quota-limited key. Returns the uses left after this one,
   * or null when none was left (a concurrent request took the last).
   */
  consumeQuota(keyId: string): Promise<number | null>;
  /**
   * Gives back a use taken by a request that then failed on our side. Returns the uses left
   * after the refund (null: the key has no quota, or no longer exists).
   */
  refundQuota(keyId: string): Promise<number | null>;
  /** Current uses left (null: no quota). */
  getRemaining(keyId: string): Promise<number | null>;
  /**
   * Gives a key a new secret. With `previousValidUntil` (epoch ms) the current secret keeps
   * authenticating until then (a secret kept from an earlier rotation is dropped); with null
   * it stops at once. Null when the key does not exist or is revoked.
   */
  rotateApiKey(
    id: string,
    secret: KeySecret,
    previousValidUntil: number | null,
  ): Promise<ApiKeyRecord | null>;
  /**
   * Sets (or, with null, clears) a key's view, stamping viewUpdatedAt with `at`, or one more
   * than its last stamp when that is not earlier (a version that only grows). Null when the
   * key does not exist or is revoked.
   */
  setApiKeyView(id: string, view: KeyView | null, at: number): Promise<ApiKeyRecord | null>;
  /** Batched last-use tracking: keyId → epoch ms. */
  recordKeyUse(uses: Map<string, number>): Promise<void>;
}
