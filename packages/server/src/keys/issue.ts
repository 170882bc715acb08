import { newId } from '../ids.js';
import type { ApiKeyRecord, KeyType, KeyView, RateLimitPolicy, Store } from '../store/types.js';
import { generateKey } from './format.js';
import { DEFAULT_PERMISSIONS, DEFAULT_RATE_LIMIT } from './permissions.js';

export interface IssueKeyInput {
  organizationId: string;
  userId?: string | null;
  name?: string;
  permissions?: string[];
  expiresAt?: number | null;
  remaining?: number | null;
  /** `null` for no rate limit; omitted for the default 600 per 60 s. */
  rateLimit?: RateLimitPolicy | null;
  /** What the key may see (domain/view.ts); omitted or null: everything. */
  view?: KeyView | null;
}

export interface IssuedKey {
  /** The plaintext, shown once and never stored. */
  key: string;
  record: ApiKeyRecord;
}

/** Creates a key: the one place that mints secrets, used by the CLI, the demo seed and tests. */
export async function issueKey(store: Store, input: IssueKeyInput): Promise<IssuedKey> {
  const type: KeyType = input.userId ? 'user' : 'organization';
  const generated = generateKey(type);
  const now = Date.now();
  const record = await store.createApiKey({
    id: newId(now),
    organizationId: input.organizationId,
    userId: input.userId ?? null,
    type,
    name: input.name ?? (type === 'user' ? 'User key' : 'Organization key'),
    prefix: generated.prefix,
    hash: generated.hash,
    permissions: input.permissions ?? [...DEFAULT_PERMISSIONS],
    expiresAt: input.expiresAt ?? null,
    remaining: input.remaining ?? null,
    rateLimit: input.rateLimit === undefined ? { ...DEFAULT_RATE_LIMIT } : input.rateLimit,
    createdAt: now,
    view: input.view ?? null,
  });
  return { key: generated.key, record };
}

export interface RotatedKey {
  /** The new plaintext, shown once and never stored. */
  key: string;
  record: ApiKeyRecord;
}

/**
 * Gives a key a new secret and keeps everything else (id, quota left, rate limit, history).
 * The old secret keeps working for `graceSeconds` (0: it stops at once). Null when the key does
 * not exist or is revoked.
 */
export async function rotateKey(
  store: Store,
  current: Pick<ApiKeyRecord, 'id' | 'type'>,
  graceSeconds: number,
  now = Date.now(),
): Promise<RotatedKey | null> {
  const generated = generateKey(current.type);
  const record = await store.rotateApiKey(
    current.id,
    { hash: generated.hash, prefix: generated.prefix },
    graceSeconds > 0 ? now + graceSeconds * 1000 : null,
  );
  return record ? { key: generated.key, record } : null;
}
