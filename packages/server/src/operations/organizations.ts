import { slugify, slugProblem } from '../domain/slug.js';
import { DEFAULT_FEATURES, FEATURES } from '../keys/permissions.js';
import type { Organization, OrganizationDeletion, Store, User } from '../store/types.js';
import { type Actor, recordAudit } from './audit.js';
import { OperationError } from './errors.js';

/**
 * Organization changes shared by `stockroom org …` and the admin API: the same rules, the same
 * store calls, the same audit events. Callers resolve the organization (each says "not found"
 * in its own words) and check the shape of values (name length, known features) first.
 */

export interface NewOrganization {
  /** Already trimmed, 1-200 characters. */
  name: string;
  /** Derived from the name when absent. */
  slug?: string;
  /** Known features; absent: the default (inventory). */
  features?: string[];
}

/** The slug to use: the one given, or one derived from the name (which must yield a valid one). */
export function chooseSlug(name: string, slug: string | undefined): string {
  if (slug !== undefined) {
    const problem = slugProblem(slug);
    if (problem) throw new OperationError({ code: 'INVALID_SLUG', message: problem });
    return slug;
  }
  const derived = slugify(name);
  if (slugProblem(derived)) throw new OperationError({ code: 'SLUG_UNDERIVABLE', name });
  return derived;
}

/** Creates an organization; a slug already taken throws StoreConflictError. */
export async function createOrganization(
  store: Store,
  actor: Actor,
  input: NewOrganization,
): Promise<Organization> {
  const slug = chooseSlug(input.name, input.slug);
  const created = await store.createOrganization({
    name: input.name,
    slug,
    features: input.features ?? [...DEFAULT_FEATURES],
  });
  await recordAudit(store, actor, {
    organizationId: created.id,
    action: 'organization.created',
    target: created.id,
    details: { name: created.name, slug: created.slug, features: created.features },
  });
  return created;
}

export interface OrganizationUpdate {
  name?: string;
  enable?: string[];
  disable?: string[];
}

/**
 * The checks an update passes before anything is looked up: it changes something, and no
 * feature is both enabled and disabled.
 */
export function checkOrganizationUpdate(update: OrganizationUpdate): void {
  const enable = update.enable ?? [];
  const disable = update.disable ?? [];
  if (update.name === undefined && enable.length === 0 && disable.length === 0) {
    throw new OperationError({ code: 'NOTHING_TO_UPDATE' });
  }
  const both = enable.find((feature) => disable.includes(feature));
  if (both) throw new OperationError({ code: 'FEATURE_CONFLICT', feature: both });
}

/** One audit event per real change: a rename, each feature turned on or off. */
async function recordOrganizationChanges(
  store: Store,
  actor: Actor,
  before: Organization,
  after: Organization,
): Promise<void> {
  const event = { organizationId: after.id, target: after.id };
  if (before.name !== after.name) {
    await recordAudit(store, actor, {
      ...event,
      action: 'organization.renamed',
      details: { from: before.name, to: after.name },
    });
  }
  for (const feature of before.features.filter((f) => !after.features.includes(f))) {
    await recordAudit(store, actor, {
      ...event,
      action: 'feature.disabled',
      details: { feature },
    });
  }
  for (const feature of after.features.filter((f) => !before.features.includes(f))) {
    await recordAudit(store, actor, { ...event, action: 'feature.enabled', details: { feature } });
  }
}

/** Renames an organization and turns features on and off; one audit event per real change. */
export async function updateOrganization(
  store: Store,
  actor: Actor,
  current: Organization,
  update: OrganizationUpdate,
): Promise<Organization> {
  checkOrganizationUpdate(update);
  const wanted = new Set([...current.features, ...(update.enable ?? [])]);
  for (const feature of update.disable ?? []) wanted.delete(feature);
  // Known features in their canonical order, then anything else already stored.
  const features = [
    ...FEATURES.filter((f) => wanted.has(f)),
    ...[...wanted].filter((f) => !(FEATURES as readonly string[]).includes(f)),
  ];
  const updated = await store.updateOrganization(current.id, {
    ...(update.name !== undefined && { name: update.name }),
    features,
  });
  await recordOrganizationChanges(store, actor, current, updated);
  return updated;
}

/** What deleting the organization would remove with it (nothing is deleted). */
export async function previewOrganizationDeletion(
  store: Store,
  organization: Organization,
): Promise<OrganizationDeletion> {
  const [items, keys, members] = await Promise.all([
    store.countItems(organization.id),
    store.listApiKeys(organization.id),
    store.listMembers(organization.id),
  ]);
  return { items, apiKeys: keys.length, memberships: members.length };
}

/**
 * Deletes an organization with its items, keys and memberships (its users and audit log stay):
 * on PostgreSQL in one transaction, on SQLite its items in parts first so that other writers
 * get in between (Store.deleteOrganization). Throws ORGANIZATION_GONE when it was deleted since
 * the caller found it.
 */
export async function deleteOrganization(
  store: Store,
  actor: Actor,
  organization: Organization,
): Promise<OrganizationDeletion> {
  const deleted = await store.deleteOrganization(organization.id);
  if (!deleted) throw new OperationError({ code: 'ORGANIZATION_GONE', organization });
  await recordAudit(store, actor, {
    organizationId: organization.id,
    action: 'organization.deleted',
    target: organization.id,
    details: { name: organization.name, slug: organization.slug, deleted },
  });
  return deleted;
}

/** What `org show` and the admin API's organization detail show beside the organization. */
export interface OrganizationDetail {
  members: User[];
  itemCount: number;
  /** Keys not revoked. */
  keyCount: number;
}

export async function organizationDetail(
  store: Store,
  organization: Organization,
): Promise<OrganizationDetail> {
  const [members, itemCount, keys] = await Promise.all([
    store.listMembers(organization.id),
    store.countItems(organization.id),
    store.listApiKeys(organization.id),
  ]);
  return { members, itemCount, keyCount: keys.filter((key) => key.revokedAt === null).length };
}
