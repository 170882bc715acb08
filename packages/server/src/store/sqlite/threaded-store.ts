import { collectSlices } from '../turns.js';
import type {
  ApiKeyRecord,
  AuditEvent,
  ChangedItem,
  ChangePage,
  ChangeQuery,
  Item,
  ItemFields,
  ItemQuery,
  ItemRef,
  ItemScope,
  ItemWriteOutcome,
  KeyContext,
  KeySecret,
  KeyView,
  Location,
  LocationRemoval,
  NewApiKey,
  NewAuditEvent,
  Organization,
  OrganizationDeletion,
  Store,
  User,
  WebhookStore,
} from '../types.js';
import { StoreUnavailableError } from '../types.js';
import { BULK_PAUSE_MS, LOCK_POLL_MS } from './lock-sharing.js';
import { SqliteStore } from './sqlite-store.js';
import { SqliteThreads, type SqliteThreadsOptions } from './sqlite-threads.js';

/**
 * Point lookups answered on the serving thread itself, through an index, a handful of pages:
 * a key by hash (both its hashes are unique indexes), an item by (organization, id), an
 * organization by id, a membership, a key's uses left. Measured (BENCHMARKS.md at `695938c`, "Stalls"):
 * the hop to a thread and back cost item detail about 80 µs of CPU per request (≈190 → 270
 * µs) and a fifth of its throughput. Their connection has busy_timeout 0 and only reads (WAL
 * readers take no lock a writer holds): when SQLite still answers SQLITE_BUSY (another
 * connection recovering the WAL, or holding the file in exclusive mode) the call goes to a
 * reader thread instead, so the serving thread never waits for a lock.
 */
const LOCAL_READS = new Set([
  'loadKeyContext',
  'getItem',
  'getOrganization',
  'isMember',
  'getRemaining',
]);

/** How long a quota charge waiting for the lock tries every LOCK_POLL_MS (then less often). */
const POLL_QUICKLY_MS = 50;

/** A query as it can cross to a thread: its callbacks stay here. */
function withoutCallbacks<T extends object>(query: T): T {
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(query)) {
    if (typeof value !== 'function') copy[key] = value;
  }
  return copy as T;
}

/** The SQLite Store of a serving process: the same contract, its statements on threads. */
export class ThreadedSqliteStore implements Store {
  readonly engine = 'sqlite' as const;
  readonly seedsDemoWhenEmpty = true;
  readonly threads: SqliteThreads;
  readonly webhooks: WebhookStore;

  /** The serving thread's own connection for LOCAL_READS (null: every read on threads). */
  private readonly local: SqliteStore | null;

  /**
   * The serving thread's connection for quota charges and refunds (null: on the writer
   * thread). A charge is one short statement that every request of a key with a quota makes;
   * on the writer thread it queued behind whatever that thread ran, at a lower priority, and
   * waited for another process's bulk write through busy_timeout, whose sleeps grow to 100 ms.
   * Here it never waits inside SQLite (busy_timeout 0): when the lock is taken it tries again
   * every LOCK_POLL_MS on the event loop until DATABASE_TIMEOUT_MS, so it gets in within a
   * bulk write's first pause (lock-sharing.ts).
   */
  private readonly charger: SqliteStore | null;

  private constructor(
    threads: SqliteThreads,
    local: SqliteStore | null,
    charger: SqliteStore | null,
  ) {
    this.threads = threads;
    this.local = local;
    this.charger = charger;
    const call = (method: string) =>
      ((...args: unknown[]) => threads.call('webhooks', method, args)) as never;
    this.webhooks = {
      create: call('create'),
      get: call('get'),
      list: call('list'),
      setEnabled: call('setEnabled'),
      delete: call('delete'),
      listDeliveries: call('listDeliveries'),
      listDue: call('listDue'),
      advance: call('advance'),
      claim: call('claim'),
      recordAttempt: call('recordAttempt'),
      purgeFinished: call('purgeFinished'),
    };
  }

  /** Opens the writer, then the readers; rejects with StoreUnavailableError when the file cannot be opened. */
  static async open(
    file: string,
    options: SqliteThreadsOptions = {},
  ): Promise<ThreadedSqliteStore> {
    const threads = new SqliteThreads(file, options);
    let local: SqliteStore | null = null;
    let charger: SqliteStore | null = null;
    try {
      await threads.start();
      if (options.localPointReads !== false) {
        local = new SqliteStore(file, {
          role: 'reader',
          busyTimeoutMs: 0,
          ...(options.cacheMiB === undefined ? {} : { cacheMiB: options.cacheMiB }),
        });
      }
      if (options.localCharges !== false) {
        charger = new SqliteStore(file, { role: 'charger', busyTimeoutMs: 0, cacheMiB: 1 });
      }
    } catch (error) {
      await local?.close();
      await threads.close();
      throw error;
    }
    return new ThreadedSqliteStore(threads, local, charger);
  }

  private call<T>(method: string, ...args: unknown[]): Promise<T> {
    if (this.local && LOCAL_READS.has(method) && !this.threads.closing) {
      const local = this.local as unknown as Record<string, (...a: unknown[]) => Promise<T>>;
      // SqliteStore runs the statement now, on this thread; busy (never waited for) goes on.
      return (local[method] as (...a: unknown[]) => Promise<T>)
        .apply(this.local, args)
        .catch((error: unknown) => {
          if (!(error instanceof StoreUnavailableError)) throw error;
          return this.threads.call('store', method, args) as Promise<T>;
        });
    }
    return this.threads.call('store', method, args) as Promise<T>;
  }

  migrate(): Promise<string[]> {
    // Migrations may take long and wait for another process's: the configured busy_timeout.
    return this.threads.write('store', 'migrate', [], { lockDeadline: false }) as Promise<string[]>;
  }
  ping(): Promise<void> {
    return this.call('ping');
  }
  async close(): Promise<void> {
    await this.local?.close();
    await this.charger?.close();
    await this.threads.close();
  }
  createOrganization(input: {
    name: string;
    slug: string;
    features: string[];
  }): Promise<Organization> {
    return this.call('createOrganization', input);
  }
  getOrganization(id: string): Promise<Organization | null> {
    return this.call('getOrganization', id);
  }
  findOrganization(ref: string): Promise<Organization | null> {
    return this.call('findOrganization', ref);
  }
  listOrganizations(): Promise<Organization[]> {
    return this.call('listOrganizations');
  }
  countOrganizations(): Promise<number> {
    return this.call('countOrganizations');
  }
  updateOrganization(
    id: string,
    patch: { name?: string; features?: string[] },
  ): Promise<Organization> {
    return this.call('updateOrganization', id, patch);
  }
  createUser(input: { email: string; name: string | null }): Promise<User> {
    return this.call('createUser', input);
  }
  findUser(ref: string): Promise<User | null> {
    return this.call('findUser', ref);
  }
  addMember(organizationId: string, userId: string): Promise<void> {
    return this.call('addMember', organizationId, userId);
  }
  removeMember(organizationId: string, userId: string): Promise<boolean> {
    return this.call('removeMember', organizationId, userId);
  }
  isMember(organizationId: string, userId: string): Promise<boolean> {
    return this.call('isMember', organizationId, userId);
  }
  listMembers(organizationId: string): Promise<User[]> {
    return this.call('listMembers', organizationId);
  }
  createApiKey(key: NewApiKey): Promise<ApiKeyRecord> {
    return this.call('createApiKey', key);
  }
  getApiKey(id: string): Promise<ApiKeyRecord | null> {
    return this.call('getApiKey', id);
  }
  listApiKeys(organizationId: string): Promise<ApiKeyRecord[]> {
    return this.call('listApiKeys', organizationId);
  }
  setApiKeyEnabled(id: string, enabled: boolean): Promise<ApiKeyRecord | null> {
    return this.call('setApiKeyEnabled', id, enabled);
  }
  revokeApiKey(id: string): Promise<ApiKeyRecord | null> {
    return this.call('revokeApiKey', id);
  }
  loadKeyContext(hash: string): Promise<KeyContext | null> {
    return this.call('loadKeyContext', hash);
  }
  consumeQuota(keyId: string): Promise<number | null> {
    return this.charge('consumeQuota', keyId);
  }
  refundQuota(keyId: string): Promise<number | null> {
    return this.charge('refundQuota', keyId);
  }

  /** The last charge in line: charges wait for the lock one at a time (see `charge`). */
  private chargeLine: Promise<unknown> = Promise.resolve();

  /**
   * A quota charge or refund on `charger` (see there), or on the writer thread without one.
   * Charges take their turn in one line, so only the first of them polls while another
   * connection holds the lock (a dozen charges polling each every millisecond kept the serving
   * thread busy while another process held the lock for seconds); each fails with
   * StoreUnavailableError DATABASE_TIMEOUT_MS after it arrived, its time in line included.
   */
  private charge(method: 'consumeQuota' | 'refundQuota', keyId: string): Promise<number | null> {
    const charger = this.charger;
    if (!charger || this.threads.closing) return this.call(method, keyId);
    const deadline = Date.now() + this.threads.timeoutMs;
    const turn = this.chargeLine.then(() => this.chargeWhenFree(charger, method, keyId, deadline));
    this.chargeLine = turn.catch(() => {});
    return turn;
  }

  /**
   * Tries the statement until the lock is free: every LOCK_POLL_MS for the first
   * POLL_QUICKLY_MS (a bulk write's transaction), then every BULK_PAUSE_MS, which still
   * finds each of its pauses.
   */
  private async chargeWhenFree(
    charger: SqliteStore,
    method: 'consumeQuota' | 'refundQuota',
    keyId: string,
    deadline: number,
  ): Promise<number | null> {
    const started = Date.now();
    for (;;) {
      try {
        return await charger[method](keyId);
      } catch (error) {
        // Busy (the lock is another connection's): the statement wrote nothing; try again.
        if (!(error instanceof StoreUnavailableError) || Date.now() >= deadline) throw error;
        if (this.threads.closing) throw error;
      }
      const waited = Date.now() - started;
      const pause = waited < POLL_QUICKLY_MS ? LOCK_POLL_MS : BULK_PAUSE_MS;
      await new Promise((resolve) => setTimeout(resolve, Math.min(pause, deadline - Date.now())));
    }
  }
  getRemaining(keyId: string): Promise<number | null> {
    return this.call('getRemaining', keyId);
  }
  setApiKeyView(id: string, view: KeyView | null, at: number): Promise<ApiKeyRecord | null> {
    return this.call('setApiKeyView', id, view, at);
  }
  rotateApiKey(
    id: string,
    secret: KeySecret,
    previousValidUntil: number | null,
  ): Promise<ApiKeyRecord | null> {
    return this.call('rotateApiKey', id, secret, previousValidUntil);
  }
  recordKeyUse(uses: Map<string, number>): Promise<void> {
    if (uses.size === 0) return Promise.resolve();
    return this.call('recordKeyUse', uses);
  }

  async listItems(organizationId: string, query: ItemQuery): Promise<Item[]> {
    return collectSlices(this.listItemSlices(organizationId, query));
  }

  /**
   * The slices as the reader thread reads them (CHUNK_ROWS rows a message at most), each
   * yielded as it arrives; onPartialPage is called here, after the last slice.
   */
  async *listItemSlices(organizationId: string, query: ItemQuery): AsyncGenerator<Item[]> {
    const inbox: Item[][] = [];
    let wake: (() => void) | undefined;
    let outcome: { ok: { resumeAfterId: string | null } } | { error: Error } | undefined;
    this.threads
      .read('store', 'listItemSlices', [organizationId, withoutCallbacks(query)], (rows) => {
        inbox.push(rows as Item[]);
        wake?.();
      })
      .then(
        (ok) => {
          outcome = { ok: ok as { resumeAfterId: string | null } };
          wake?.();
        },
        (error: Error) => {
          outcome = { error };
          wake?.();
        },
      );
    for (;;) {
      while (inbox.length === 0 && outcome === undefined) {
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = undefined;
      }
      const slice = inbox.shift();
      if (slice) {
        yield slice;
        continue;
      }
      if (!outcome) continue;
      if ('error' in outcome) throw outcome.error;
      if (outcome.ok.resumeAfterId !== null) query.onPartialPage?.(outcome.ok.resumeAfterId);
      return;
    }
  }

  getItem(organizationId: string, id: string, scope?: ItemScope): Promise<Item | null> {
    return this.call('getItem', organizationId, id, scope);
  }
  countItems(organizationId: string): Promise<number> {
    return this.call('countItems', organizationId);
  }
  /** Nothing to do on SQLite (see SqliteStore.refreshItemStatistics). */
  async refreshItemStatistics(_changedItems: number): Promise<boolean> {
    return false;
  }
  writeItems(
    organizationId: string,
    rows: ItemFields[],
    options?: { dryRun?: boolean; allOrNothing?: boolean; now?: number },
  ): Promise<ItemWriteOutcome[]> {
    return this.call('writeItems', organizationId, rows, options);
  }
  async deleteItem(organizationId: string, by: ItemRef): Promise<boolean> {
    return (await this.deleteItems(organizationId, [by]))[0] === true;
  }
  deleteItems(organizationId: string, refs: readonly ItemRef[]): Promise<boolean[]> {
    return this.call('deleteItems', organizationId, refs);
  }

  /** Items arrive CHUNK_ROWS a message, handed to onItem (or kept) as they come. */
  createLocation(organizationId: string, input: { code: string; name: string }): Promise<Location> {
    return this.call('createLocation', organizationId, input);
  }
  listLocations(organizationId: string): Promise<Location[]> {
    return this.call('listLocations', organizationId);
  }
  findLocation(organizationId: string, code: string): Promise<Location | null> {
    return this.call('findLocation', organizationId, code);
  }
  deleteLocation(organizationId: string, code: string): Promise<LocationRemoval | null> {
    return this.call('deleteLocation', organizationId, code);
  }
  async listChanges(organizationId: string, query: ChangeQuery): Promise<ChangePage> {
    const items: ChangedItem[] = [];
    const onItem = query.onItem;
    const page = (await this.threads.read(
      'store',
      'listChanges',
      [organizationId, withoutCallbacks(query)],
      (rows) => {
        for (const item of rows as ChangedItem[]) {
          if (onItem) onItem(item);
          else items.push(item);
        }
      },
    )) as ChangePage;
    return { ...page, items };
  }
  purgeTombstones(before: number): Promise<number> {
    return this.call('purgeTombstones', before);
  }
  installationSecret(name: string, candidate: string): Promise<string> {
    return this.call('installationSecret', name, candidate);
  }
  replaceInstallationSecret(name: string, value: string): Promise<number> {
    return this.call('replaceInstallationSecret', name, value);
  }
  deleteOrganization(id: string): Promise<OrganizationDeletion | null> {
    return this.call('deleteOrganization', id);
  }
  appendAuditEvent(event: NewAuditEvent): Promise<AuditEvent> {
    return this.call('appendAuditEvent', event);
  }
  listAuditEvents(organizationId: string, options?: { limit?: number }): Promise<AuditEvent[]> {
    return this.call('listAuditEvents', organizationId, options);
  }
}
