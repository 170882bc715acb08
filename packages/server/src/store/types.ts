/**
 * The storage contract both engines implement (SQLite and PostgreSQL): one interface per
 * aggregate (contract/), composed into Store. Every item method takes the organization first:
 * scoping is structural, so another organization's item is simply not found. Times are epoch
 * milliseconds.
 */
import type { AuditStore } from './contract/audit.js';
import type { ChangeFeedStore } from './contract/change-feed.js';
import type { InstallationStore } from './contract/installation.js';
import type { ItemStore } from './contract/items.js';
import type { KeyStore } from './contract/keys.js';
import type { LocationStore } from './contract/locations.js';
import type { OrganizationStore } from './contract/organizations.js';
import type { WebhookStore } from './contract/webhooks.js';

export * from './contract/audit.js';
export * from './contract/change-feed.js';
export * from './contract/installation.js';
export * from './contract/items.js';
export * from './contract/keys.js';
export * from './contract/locations.js';
export * from './contract/organizations.js';
export * from './contract/webhooks.js';

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

/** The storage contract: every aggregate of one engine, behind one object. */
export interface Store
  extends StoreEngine,
    OrganizationStore,
    KeyStore,
    ItemStore,
    LocationStore,
    ChangeFeedStore,
    InstallationStore,
    AuditStore {
  /** Webhooks and their deliveries (issue 8). */
  readonly webhooks: WebhookStore;
}
