import type { ApiKeyRecord, ChangedItem, Item, ItemStatus, Organization, User } from '../types.js';

/** Row shapes as node-postgres returns them with the type parsers of pool.ts. */
export type Row = Record<string, unknown>;

export const ITEM_COLUMNS =
  'organization_id, id, name, description, sku, barcode, status, quantity, custom_fields, created_at, updated_at';
export const KEY_COLUMNS =
  'k.organization_id, k.id, k.user_id, k.type, k.name, k.prefix, k.hash, k.permissions, k.expires_at, k.remaining, k.rate_limit_max, k.rate_limit_window, k.enabled, k.revoked_at, k.created_at, k.last_used_at, k.previous_hash, k.previous_hash_expires_at';

export function toOrganization(row: Row): Organization {
  return {
    id: row.id as string,
    name: row.name as string,
    slug: row.slug as string,
    features: row.features as string[],
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
    permissions: row.permissions as string[],
    expiresAt: (row.expires_at as number | null) ?? null,
    remaining: (row.remaining as number | null) ?? null,
    rateLimit: max === null ? null : { max, windowSeconds: row.rate_limit_window as number },
    enabled: row.enabled as boolean,
    revokedAt: (row.revoked_at as number | null) ?? null,
    createdAt: row.created_at as number,
    lastUsedAt: (row.last_used_at as number | null) ?? null,
    previousHash: (row.previous_hash as string | null) ?? null,
    previousHashExpiresAt: (row.previous_hash_expires_at as number | null) ?? null,
  };
}

export function toItem(row: Row): Item {
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

/**
 * A changed item from a row with the item columns, change_seq and created_seq. One object
 * literal, not a spread of toItem: spreading a fresh object into another was twice as slow and
 * left each sync page's items in the old generation (see the SQLite store's twin).
 */
export function toChangedItem(row: Row): ChangedItem {
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
    changeSeq: row.change_seq as number,
    createdSeq: (row.created_seq as number | null) ?? null,
  };
}
