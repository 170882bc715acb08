/**
 * The storage contract every engine implements (SQLite now, PostgreSQL later).
 * Every item method takes the organization first: scoping is structural, so another
 * organization's item is simply not found. Times are epoch milliseconds.
 */

export const ITEM_STATUSES = ['Draft', 'Active', 'Inactive', 'Discontinued'] as const;
export type ItemStatus = (typeof ITEM_STATUSES)[number];

export interface Item {
  id: string;
  organizationId: string;
  name: string;
  description: string | null;
  sku: string | null;
  barcode: string | null;
  status: ItemStatus;
  quantity: number;
  /** The stored JSON text of the object, returned as is. */
  customFields: string;
  createdAt: number;
  updatedAt: number;
}

/** The writable fields of an item; `undefined` means "leave as stored". */
export interface ItemFields {
  name?: string;
  description?: string | null;
  sku?: string | null;
  barcode?: string | null;
  status?: ItemStatus;
  quantity?: number;
  customFields?: string;
}

/** An item named by its id or by its sku. */
export type ItemRef = { id: string } | { sku: string };

export type ItemWriteOutcome = 'created' | 'updated' | 'unchanged' | { error: string };

export interface Organization {
  id: string;
  name: string;
  slug: string;
  features: string[];
  createdAt: number;
}

export interface User {
  id: string;
  email: string;
  name: string | null;
  createdAt: number;
}

export type KeyType = 'organization' | 'user';

export interface RateLimitPolicy {
  max: number;
  windowSeconds: number;
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
}

export type NewApiKey = Omit<
  ApiKeyRecord,
  'enabled' | 'revokedAt' | 'lastUsedAt' | 'previousHash' | 'previousHashExpiresAt'
>;

/** A new secret for an existing key (rotation). */
export interface KeySecret {
  hash: string;
  prefix: string;
}

/** What an operator did, kept in the audit log (which outlives the organization). */
export const AUDIT_ACTIONS = [
  'organization.created',
  'organization.renamed',
  'organization.deleted',
  'feature.enabled',
  'feature.disabled',
  'member.added',
  'member.removed',
  'key.created',
  'key.disabled',
  'key.enabled',
  'key.revoked',
  'key.rotated',
  'items.imported',
  'items.deleted',
  'webhook.created',
  'webhook.enabled',
  'webhook.disabled',
  'webhook.deleted',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export interface AuditEvent {
  id: string;
  organizationId: string;
  at: number;
  /** Who did it, e.g. `cli:alice` (the operating-system user running the CLI). */
  actor: string;
  action: AuditAction;
  /** The id of what was acted on (key, user, item, organization), when there is one. */
  target: string | null;
  /** What changed, as a JSON object (never a secret or a hash). */
  details: Record<string, unknown>;
}

export type NewAuditEvent = Omit<AuditEvent, 'id' | 'at'> & { at?: number };

/** What deleting an organization removed with it. */
export interface OrganizationDeletion {
  items: number;
  apiKeys: number;
  memberships: number;
}

/** Everything authentication needs about a key, read in one round trip. */
export interface KeyContext {
  key: ApiKeyRecord;
  organization: Organization;
  /** For user keys: whether the user is still a member. Always true for organization keys. */
  member: boolean;
}

export interface ItemQuery {
  limit: number;
  /** Keyset position: only items with a greater id. */
  afterId?: string;
  status?: ItemStatus;
  /** Already case-folded with `foldCase`; matched as a literal substring. */
  search?: string;
  /**
   * A search page with a needle of 1–2 characters examines at most the scan budget of rows
   * (store/search.ts: the same rule on every engine). When the budget runs out before `limit`
   * matches are found, this is called with the last `_id` examined: the page holds every match
   * up to that id, and the walk continues after it. Not called when the page is complete, nor
   * ever for longer needles (their pages are always full).
   */
  onPartialPage?: (resumeAfterId: string) => void;
  /** Exact, case-sensitive match on the stored sku (indexed). */
  sku?: string;
  /** Exact, case-sensitive match on the stored barcode (indexed). */
  barcode?: string;
  /** Only items with one of these ids (at most 100; unknown ids are simply absent). */
  ids?: readonly string[];
}

/**
 * Position in an organization's change feed (issue 8). Every write that creates or changes an
 * item, and every deletion, takes the next change sequence number of its organization, in
 * commit order (so a reader that has seen number N has seen every change up to N). Numbers are
 * a hybrid logical clock: max(previous + 1, wall-clock ms × 1000), so `seq / 1000` is never
 * earlier than the change's wall-clock time and an instant maps to a position without an index.
 */
export interface ChangeQuery {
  /** Only changes with a greater sequence number. */
  afterSeq: number;
  /** At most this many changes (items and tombstones together). */
  limit: number;
  /** Only items with this status now (tombstones are never filtered). */
  status?: ItemStatus;
  /** Whether tombstones of deleted items are read too. */
  includeDeleted: boolean;
  /**
   * When given, each item of the page is handed to it as it is read, in change order, and the
   * page's `items` stays empty: the caller can turn each into bytes at once, so a large page's
   * items need not all be alive together (on PostgreSQL a page is read over several fetches,
   * and held whole it outlived young-generation collections). Called synchronously between
   * reads; it must not use the store.
   */
  onItem?: (item: ChangedItem) => void;
}

/** A deleted item, kept for the retention period so sync clients learn of the deletion. */
export interface Tombstone {
  id: string;
  deletedAt: number;
  seq: number;
}

/** An item as the change feed reads it: with the number of its last change and of its creation. */
export type ChangedItem = Item & {
  changeSeq: number;
  /**
   * The number its creation took; null for items created before the feed recorded it
   * (migration 8), which were all created before any webhook existed.
   */
  createdSeq: number | null;
};

export interface ChangePage {
  /**
   * Items changed after `afterSeq`, in change order, each with its change sequence number
   * (empty when the query's `onItem` took them).
   */
  items: ChangedItem[];
  /** Tombstones after `afterSeq`, in change order (empty unless includeDeleted). */
  deleted: Tombstone[];
  /**
   * Continue after this number: the last change on the page when `more`, else the
   * organization's latest change sequence number (every change up to it has been read).
   */
  throughSeq: number;
  /** Whether more changes follow right now. */
  more: boolean;
}

export const WEBHOOK_EVENTS = ['item.created', 'item.updated', 'item.deleted'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

/** An endpoint that receives an organization's item changes (webhooks/dispatcher.ts). */
export interface Webhook {
  id: string;
  organizationId: string;
  url: string;
  events: WebhookEventType[];
  description: string | null;
  /** The signing secret (`whsec_…`). Stored as is: the server must sign with it. */
  secret: string;
  enabled: boolean;
  /** Why the webhook was disabled (by an operator, or after a delivery failed for good). */
  disabledReason: string | null;
  /** The organization's change number up to which changes were read into deliveries. */
  cursor: number;
  /**
   * The cursor when the webhook last caught up with its organization (a delivery read every
   * change there was): every item that existed then has been sent, or predates the webhook.
   * An item created after it is sent as `item.created` (see webhooks/payload.ts).
   */
  caughtUpSeq: number;
  createdAt: number;
}

export type WebhookDeliveryState = 'pending' | 'delivered' | 'failed';

export interface WebhookDelivery {
  id: string;
  webhookId: string;
  organizationId: string;
  state: WebhookDeliveryState;
  /** The JSON body, signed and sent as is on every attempt. */
  payload: string;
  eventCount: number;
  attempts: number;
  createdAt: number;
  /** When the next attempt is due (pending only). */
  nextAttemptAt: number | null;
  lastAttemptAt: number | null;
  /** The HTTP status of the last attempt; null when it got no answer. */
  lastStatus: number | null;
  lastError: string | null;
}

/** How an attempt ended, and what happens next. */
export interface WebhookAttempt {
  at: number;
  status: number | null;
  error: string | null;
  /** `delivered`; a retry at an epoch ms; or `failed` for good (the webhook is then disabled). */
  next: 'delivered' | 'failed' | { retryAt: number };
  /** Recorded as the webhook's disabledReason when `next` is `failed`. */
  disabledReason?: string;
}

/** The webhooks of every organization, and their deliveries (the same on every engine). */
export interface WebhookStore {
  /** Starts at the organization's latest change: only later changes are delivered. */
  create(input: {
    organizationId: string;
    url: string;
    events: WebhookEventType[];
    description: string | null;
    secret: string;
  }): Promise<Webhook>;
  get(id: string): Promise<Webhook | null>;
  list(organizationId: string): Promise<Webhook[]>;
  /**
   * Null when there is no such webhook. A reason is kept only while disabled. Enabling gives
   * the webhook's last delivery, when it failed for good, a new round of attempts (due now):
   * the webhook resumes where it stopped, nothing skipped.
   */
  setEnabled(id: string, enabled: boolean, reason: string | null): Promise<Webhook | null>;
  /** Deletes the webhook and its deliveries; false when there was none. */
  delete(id: string): Promise<boolean>;
  /** Newest first. */
  listDeliveries(webhookId: string, limit: number): Promise<WebhookDelivery[]>;
  /**
   * Enabled webhooks with no pending delivery whose organization changed after their cursor,
   * and whose changes have settled: the last change is at least `settleMs` old, or the
   * cursor lags it by at least `maxLagMs` (a long bulk import).
   */
  listDue(
    now: number,
    options: { settleMs: number; maxLagMs: number; limit: number },
  ): Promise<Webhook[]>;
  /**
   * Moves a webhook's cursor from `from` to `to` (and its caughtUpSeq too when `caughtUp`: the
   * page read every change there was) and, with a delivery, adds it as pending (due at once),
   * in one transaction. False, writing nothing, when the cursor was no longer `from` or a
   * delivery of the webhook is pending (another process got there first).
   */
  advance(
    webhookId: string,
    from: number,
    to: number,
    delivery: { id: string; payload: string; eventCount: number; createdAt: number } | null,
    caughtUp: boolean,
  ): Promise<boolean>;
  /**
   * Leases the pending delivery of an enabled webhook that has been due longest (its next
   * attempt at or before `now`, no other process holding it) until `leaseUntil`, with its webhook.
   */
  claim(
    now: number,
    leaseUntil: number,
  ): Promise<{ delivery: WebhookDelivery; webhook: Webhook } | null>;
  /** Records an attempt and releases the lease; `failed` also disables the webhook. */
  recordAttempt(deliveryId: string, attempt: WebhookAttempt): Promise<void>;
  /** Drops finished (delivered or failed) deliveries created before `before`; returns how many. */
  purgeFinished(before: number): Promise<number>;
}

export class StoreConflictError extends Error {
  override name = 'StoreConflictError';
}

export class StoreUnavailableError extends Error {
  override name = 'StoreUnavailableError';
}

/** See Store.availability (store/postgres/availability.ts). */
export interface StoreAvailability {
  /** host:port of the database, for log lines. */
  readonly target: string;
  readonly down: boolean;
  /** Counts a request answered 503 because of the database (reported when it is back). */
  requestFailed(): void;
  /** Where its two log lines go. */
  setLog(log: { warn(object: Record<string, unknown>, message: string): void } | null): void;
}

/** The engine itself: which it is, what it can do, its schema and its connection. */
export interface StoreEngine {
  /** Which engine this is: for log lines and tests, never for choosing behaviour. */
  readonly engine: 'sqlite' | 'postgres';
  /**
   * Whether `serve --demo` fills this store with demo data when it holds no organization: an
   * embedded database of one machine, not a shared one that other processes may be setting up.
   */
  readonly seedsDemoWhenEmpty: boolean;
  /** Connections of an engine with a pool (PostgreSQL), for metrics; absent on SQLite. */
  poolStats?(): { total: number; idle: number; waiting: number };
  /**
   * Whether the database is reachable, as this process finds it (PostgreSQL; absent on
   * SQLite): it logs one line when the database goes away and one when it is back.
   */
  readonly availability?: StoreAvailability;
  /** Applies pending migrations; returns the names of those it applied. */
  migrate(): Promise<string[]>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Organizations, users and their memberships. */
export interface OrganizationStore {
  createOrganization(input: {
    name: string;
    slug: string;
    features: string[];
  }): Promise<Organization>;
  getOrganization(id: string): Promise<Organization | null>;
  /** By id or slug. */
  findOrganization(ref: string): Promise<Organization | null>;
  listOrganizations(): Promise<Organization[]>;
  countOrganizations(): Promise<number>;
  updateOrganization(
    id: string,
    patch: { name?: string; features?: string[] },
  ): Promise<Organization>;

  createUser(input: { email: string; name: string | null }): Promise<User>;
  /** By id or email (case-insensitive). */
  findUser(ref: string): Promise<User | null>;
  addMember(organizationId: string, userId: string): Promise<void>;
  /** Returns false when the user was not a member. */
  removeMember(organizationId: string, userId: string): Promise<boolean>;
  isMember(organizationId: string, userId: string): Promise<boolean>;
  listMembers(organizationId: string): Promise<User[]>;
  /**
   * Deletes an organization with its items, keys, memberships and webhooks, in one transaction (users,
   * who may belong to other organizations, and the audit log stay). Null when it did not exist.
   */
  deleteOrganization(id: string): Promise<OrganizationDeletion | null>;
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
  /** Batched last-use tracking: keyId → epoch ms. */
  recordKeyUse(uses: Map<string, number>): Promise<void>;
}

/** Items of an organization: pages, search, lookups and writes. */
export interface ItemStore {
  listItems(organizationId: string, query: ItemQuery): Promise<Item[]>;
  /**
   * The same rows as listItems, in slices with turns of the event loop between them, so that
   * a large page lets other requests run while it is read and encoded (the API turns each
   * slice into bytes as it comes).
   */
  listItemSlices(organizationId: string, query: ItemQuery): AsyncIterable<Item[]>;
  getItem(organizationId: string, id: string): Promise<Item | null>;
  countItems(organizationId: string): Promise<number>;
  /**
   * Called after a bulk write (an import) that created or changed `changedItems` items, so that
   * the planner's picture of the items table keeps up with it. Returns whether statistics were
   * gathered. PostgreSQL gathers them when autovacuum would (more than 50 + 10% of the rows
   * changed), without waiting for it; SQLite's statements are planned without statistics.
   */
  refreshItemStatistics(changedItems: number): Promise<boolean>;
  /**
   * Upserts by sku (rows without a sku are created) in one transaction. A row whose fields
   * equal what is stored is `unchanged` and keeps its updatedAt. With `dryRun` nothing is kept;
   * with `allOrNothing`, one failed row rolls back the whole call.
   */
  writeItems(
    organizationId: string,
    rows: ItemFields[],
    options?: { dryRun?: boolean; allOrNothing?: boolean; now?: number },
  ): Promise<ItemWriteOutcome[]>;
  /** Deletes one item and leaves a tombstone in the change feed. */
  deleteItem(organizationId: string, by: ItemRef): Promise<boolean>;
  /**
   * Deletes items in one transaction, each leaving a tombstone: all of them or, on failure,
   * none. Returns, per ref, whether an item went (false: there was none).
   */
  deleteItems(organizationId: string, refs: readonly ItemRef[]): Promise<boolean[]>;
}

/** The change feed: items and tombstones in change order. */
export interface ChangeFeedStore {
  /** Changes of an organization after a position, in change order (see ChangeQuery). */
  listChanges(organizationId: string, query: ChangeQuery): Promise<ChangePage>;
  /** Drops tombstones of deletions before `before` (epoch ms); returns how many. */
  purgeTombstones(before: number): Promise<number>;
}

/** The audit log of operators' actions (it outlives the organization). */
export interface AuditStore {
  appendAuditEvent(event: NewAuditEvent): Promise<AuditEvent>;
  /** Oldest first; with `limit`, the most recent `limit` events (still oldest first). */
  listAuditEvents(organizationId: string, options?: { limit?: number }): Promise<AuditEvent[]>;
}

/** The storage contract: every aggregate of one engine, behind one object. */
export interface Store
  extends StoreEngine,
    OrganizationStore,
    KeyStore,
    ItemStore,
    ChangeFeedStore,
    AuditStore {
  /** Webhooks and their deliveries (issue 8). */
  readonly webhooks: WebhookStore;
}
