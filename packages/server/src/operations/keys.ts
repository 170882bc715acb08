import { byCreation } from '../domain/creation-order.js';
import {
  type IssuedKey,
  issueKey,
  type RotatedKey,
  rotateKey as rotateSecret,
} from '../keys/issue.js';
import type {
  ApiKeyRecord,
  KeyView,
  Organization,
  RateLimitPolicy,
  Store,
  User,
} from '../store/types.js';
import { iso } from '../time.js';
import { type Actor, recordAudit } from './audit.js';
import { OperationError } from './errors.js';

/**
 * Key changes shared by `stockroom key …` and the admin API: the same checks, the same store
 * calls, the same audit events. Callers resolve the organization and the key, and check the
 * shape of values (name length, permissions, bounds of expiry, quota and rate limit) first,
 * with the rules in ../domain/.
 */

export interface NewKey {
  /** A user id or email: makes a user key for that member. */
  user?: string;
  name?: string;
  permissions?: string[];
  /** Epoch ms, or null for a key that never expires. */
  expiresAt: number | null;
  /** Uses left, or null for no quota. */
  remaining: number | null;
  /** Absent: the default (600 per 60 s); null: no rate limit. */
  rateLimit?: RateLimitPolicy | null;
  /** What the key may see (domain/view.ts makeView/parseView); absent or null: everything. */
  view?: KeyView | null;
}

/** `--expires-in` (seconds from now) or `--expires-at` (epoch ms): when the key expires. */
export function expiryFrom(input: { expiresIn?: number; expiresAt?: number }): number | null {
  if (input.expiresIn !== undefined) return Date.now() + input.expiresIn * 1000;
  return input.expiresAt ?? null;
}

/** Creates a key (a user key when `user` names a member); the plaintext is in the result only. */
export async function createKey(
  store: Store,
  actor: Actor,
  organization: Organization,
  input: NewKey,
): Promise<{ issued: IssuedKey; user: User | null }> {
  let user: User | null = null;
  if (input.user !== undefined) {
    user = await store.findUser(input.user);
    if (!user) throw new OperationError({ code: 'USER_NOT_FOUND', ref: input.user });
    if (!(await store.isMember(organization.id, user.id))) {
      throw new OperationError({ code: 'NOT_A_MEMBER', user, organization });
    }
  }
  if (input.view) await checkViewLocations(store, organization, input.view);
  const issued = await issueKey(store, {
    organizationId: organization.id,
    userId: user?.id ?? null,
    ...(input.name !== undefined && { name: input.name }),
    ...(input.permissions !== undefined && { permissions: input.permissions }),
    expiresAt: input.expiresAt,
    remaining: input.remaining,
    ...(input.rateLimit !== undefined && { rateLimit: input.rateLimit }),
    ...(input.view !== undefined && { view: input.view }),
  });
  const { record } = issued;
  await recordAudit(store, actor, {
    organizationId: organization.id,
    action: 'key.created',
    target: record.id,
    details: {
      name: record.name,
      type: record.type,
      prefix: record.prefix,
      userId: record.userId,
      permissions: record.permissions,
      expiresAt: iso(record.expiresAt),
      remaining: record.remaining,
      rateLimit: record.rateLimit,
      view: record.view,
    },
  });
  return { issued, user };
}

/**
 * A view may only name locations the organization has: a typo would otherwise hide every
 * item from the key without a word.
 */
async function checkViewLocations(
  store: Store,
  organization: Organization,
  view: KeyView,
): Promise<void> {
  for (const expression of view.where) {
    if (!expression.startsWith('location=')) continue;
    const code = expression.slice('location='.length);
    if (!(await store.findLocation(organization.id, code))) {
      throw new OperationError({ code: 'LOCATION_NOT_FOUND', organization, location: code });
    }
  }
}

/**
 * Sets or clears a key's view (`key update`, the admin API's PATCH): it applies to the key's
 * next requests on every process within the key cache's second. Recorded as `key.updated`
 * with the view before and after; a view equal to the current one changes nothing and is
 * refused as NOTHING_TO_UPDATE.
 */
export async function updateKeyView(
  store: Store,
  actor: Actor,
  organization: Organization,
  current: ApiKeyRecord,
  view: KeyView | null,
): Promise<ApiKeyRecord> {
  refuseRevoked(current, 'updated');
  if (JSON.stringify(view) === JSON.stringify(current.view)) {
    throw new OperationError({ code: 'NOTHING_TO_UPDATE', key: current });
  }
  if (view) await checkViewLocations(store, organization, view);
  const changed = await store.setApiKeyView(current.id, view, Date.now());
  if (!changed) throw new OperationError({ code: 'KEY_REVOKED', key: current, action: 'updated' });
  await recordAudit(store, actor, {
    organizationId: changed.organizationId,
    action: 'key.updated',
    target: changed.id,
    details: { name: changed.name, prefix: changed.prefix, previousView: current.view, view },
  });
  return changed;
}

function refuseRevoked(
  key: ApiKeyRecord,
  action: 'disabled' | 'enabled' | 'rotated' | 'updated',
): void {
  if (key.revokedAt !== null) throw new OperationError({ code: 'KEY_REVOKED', key, action });
}

async function recordState(
  store: Store,
  actor: Actor,
  key: ApiKeyRecord,
  action: 'key.disabled' | 'key.enabled' | 'key.revoked',
): Promise<void> {
  await recordAudit(store, actor, {
    organizationId: key.organizationId,
    action,
    target: key.id,
    details: { name: key.name, prefix: key.prefix },
  });
}

/** Disables or enables a key (a revoked one is refused); recorded even when already so. */
export async function setKeyEnabled(
  store: Store,
  actor: Actor,
  current: ApiKeyRecord,
  enabled: boolean,
): Promise<ApiKeyRecord> {
  refuseRevoked(current, enabled ? 'enabled' : 'disabled');
  const changed = (await store.setApiKeyEnabled(current.id, enabled)) ?? current;
  await recordState(store, actor, changed, enabled ? 'key.enabled' : 'key.disabled');
  return changed;
}

/** Revokes a key for good: the API treats it as unknown from then on. */
export async function revokeKey(
  store: Store,
  actor: Actor,
  current: ApiKeyRecord,
): Promise<ApiKeyRecord> {
  const changed = (await store.revokeApiKey(current.id)) ?? current;
  await recordState(store, actor, changed, 'key.revoked');
  return changed;
}

/**
 * Gives a key a new secret and keeps everything else; the old secret keeps working for
 * `graceSeconds` (0: it stops at once). A revoked key is refused.
 */
export async function rotateKey(
  store: Store,
  actor: Actor,
  current: ApiKeyRecord,
  graceSeconds: number,
): Promise<RotatedKey> {
  refuseRevoked(current, 'rotated');
  const rotated = await rotateSecret(store, current, graceSeconds);
  if (!rotated) throw new OperationError({ code: 'KEY_REVOKED_DURING_ROTATION', id: current.id });
  const { record } = rotated;
  await recordAudit(store, actor, {
    organizationId: record.organizationId,
    action: 'key.rotated',
    target: record.id,
    details: {
      name: record.name,
      previousPrefix: current.prefix,
      prefix: record.prefix,
      previousSecretValidUntil: iso(record.previousHashExpiresAt),
    },
  });
  return rotated;
}

/** The email of a user key's user (null for organization keys, or a user since deleted). */
export async function keyUserEmail(store: Store, key: ApiKeyRecord): Promise<string | null> {
  return key.userId ? ((await store.findUser(key.userId))?.email ?? null) : null;
}

/** An organization's keys, oldest first, each with its user's email (null for none). */
export async function listKeys(
  store: Store,
  organization: Organization,
): Promise<Array<{ key: ApiKeyRecord; userEmail: string | null }>> {
  const keys = byCreation(await store.listApiKeys(organization.id));
  const emails = new Map<string, string | null>();
  for (const userId of new Set(keys.map((key) => key.userId))) {
    if (userId !== null) emails.set(userId, (await store.findUser(userId))?.email ?? null);
  }
  return keys.map((key) => ({
    key,
    userEmail: key.userId === null ? null : (emails.get(key.userId) ?? null),
  }));
}
