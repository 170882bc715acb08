import type { ApiKeyRecord, KeyContext, KeyView, NewApiKey, Organization, User } from './types.js';

export { toChangedItem, toItem } from './items/rows.js';

/**
 * Rows as either engine's driver returns them, by column name. The columns that differ by
 * engine are decoded here: lists are JSON text on SQLite and arrays on PostgreSQL, flags 0/1
 * on SQLite and booleans on PostgreSQL.
 */
export type Row = Record<string, unknown>;

function list(value: unknown): string[] {
  return (typeof value === 'string' ? JSON.parse(value) : value) as string[];
}

function flag(value: unknown): boolean {
  return value === true || value === 1;
}

/** The key columns every key mapper reads, qualified with the alias `k`. */
export const KEY_COLUMNS =
  'k.organization_id, k.id, k.user_id, k.type, k.name, k.prefix, k.hash, k.permissions, k.expires_at, k.remaining, k.rate_limit_max, k.rate_limit_window, k.enabled, k.revoked_at, k.created_at, k.last_used_at, k.previous_hash, k.previous_hash_expires_at, k.view, k.view_updated_at';

/**
 * The statement of loadKeyContext without its WHERE clause: the key, its organization (as
 * `org_*`) and whether a user key's user is still a member.
 */
export const KEY_CONTEXT_SELECT = `SELECT ${KEY_COLUMNS},
     o.name AS org_name, o.slug AS org_slug, o.features AS org_features, o.created_at AS org_created_at,
     (k.user_id IS NULL OR EXISTS (
       SELECT 1 FROM memberships m WHERE m.organization_id = k.organization_id AND m.user_id = k.user_id
     )) AS member
   FROM api_keys k JOIN organizations o ON o.id = k.organization_id`;

export function toOrganization(row: Row): Organization {
  return {
    id: row.id as string,
    name: row.name as string,
    slug: row.slug as string,
    features: list(row.features),
    createdAt: row.created_at as number,
  };
}

export function toUser(row: Row): User {
  return {
    id: row.id as string,
    email: row.email as string,
    name: (row.name as string | null) ?? null,
    createdAt: row.created_at as number,
  };
}

export function toKey(row: Row): ApiKeyRecord {
  const max = row.rate_limit_max as number | null;
  return {
    id: row.id as string,
    organizationId: row.organization_id as string,
    userId: (row.user_id as string | null) ?? null,
    type: row.type as ApiKeyRecord['type'],
    name: row.name as string,
    prefix: row.prefix as string,
    hash: row.hash as string,
    permissions: list(row.permissions),
    expiresAt: (row.expires_at as number | null) ?? null,
    remaining: (row.remaining as number | null) ?? null,
    rateLimit: max === null ? null : { max, windowSeconds: row.rate_limit_window as number },
    enabled: flag(row.enabled),
    revokedAt: (row.revoked_at as number | null) ?? null,
    createdAt: row.created_at as number,
    lastUsedAt: (row.last_used_at as number | null) ?? null,
    previousHash: (row.previous_hash as string | null) ?? null,
    previousHashExpiresAt: (row.previous_hash_expires_at as number | null) ?? null,
    view: viewOf(row.view),
    viewUpdatedAt: (row.view_updated_at as number | null) ?? null,
  };
}

/** A stored view: JSON text (SQLite) or an already parsed json value (PostgreSQL). */
function viewOf(stored: unknown): KeyView | null {
  if (stored === null || stored === undefined) return null;
  return (typeof stored === 'string' ? JSON.parse(stored) : stored) as KeyView;
}

/** A row of KEY_CONTEXT_SELECT. */
export function toKeyContext(row: Row): KeyContext {
  return {
    key: toKey(row),
    organization: toOrganization({
      id: row.organization_id,
      name: row.org_name,
      slug: row.org_slug,
      features: row.org_features,
      created_at: row.org_created_at,
    }),
    member: flag(row.member),
  };
}

/** The columns a new key is written with, in the order of newKeyValues (`enabled` aside). */
export const NEW_KEY_COLUMNS =
  'organization_id, id, user_id, type, name, prefix, hash, permissions, expires_at, remaining, rate_limit_max, rate_limit_window, created_at, view, view_updated_at';

/** A new key's values, in the order of NEW_KEY_COLUMNS; `permissions` as the engine stores lists. */
export function newKeyValues(key: NewApiKey, permissions: unknown): unknown[] {
  return [
    key.organizationId,
    key.id,
    key.userId,
    key.type,
    key.name,
    key.prefix,
    key.hash,
    permissions,
    key.expiresAt,
    key.remaining,
    key.rateLimit?.max ?? null,
    key.rateLimit?.windowSeconds ?? null,
    key.createdAt,
    key.view === null ? null : JSON.stringify(key.view),
    key.view === null ? null : key.createdAt,
  ];
}

/** The record of a key just created: enabled, never used, never rotated. */
export function newKeyRecord(key: NewApiKey): ApiKeyRecord {
  return {
    ...key,
    enabled: true,
    revokedAt: null,
    lastUsedAt: null,
    previousHash: null,
    previousHashExpiresAt: null,
    viewUpdatedAt: key.view === null ? null : key.createdAt,
  };
}
