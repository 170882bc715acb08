import { existsSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
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
  ItemWriteOutcome,
  KeyContext,
  KeySecret,
  NewApiKey,
  NewAuditEvent,
  Organization,
  OrganizationDeletion,
  Store,
  User,
  WebhookStore,
} from '../types.js';
import { StoreConflictError, StoreUnavailableError } from '../types.js';
import { SqliteStore, type SqliteStoreOptions } from './sqlite-store.js';

/**
 * The SQLite store of a serving process, off its event loop. better-sqlite3 runs each statement
 * to its end on the thread that calls it, so on the serving thread one long statement (a search
 * of a pathological needle, an organization delete, a write waiting for another process's lock
 * through busy_timeout) held every request of every host. Here the statements run on threads
 * of their own, each with its own connection to the file:
 *
 * - one writer thread runs every write (quota charges, key-usage and webhook bookkeeping,
 *   tombstone purges, admin writes, organization deletes, migrations), in the order they come,
 *   as the one connection of the process did (SQLite has one write lock per file anyway);
 * - reader threads run the reads (WAL lets them read while a writer, here or in another
 *   process, writes). Reader 0 takes point lookups only (a key by hash, an item by id, a ping):
 *   they never queue behind a long read. The others take the longer reads.
 *
 * The writer and the long-read readers run at a lower priority (LONG_WORK_NICE) than the
 * serving thread and reader 0. The serving thread only posts calls and decodes replies; a large reply (a page of items, a
 * change page) comes in messages of CHUNK_ROWS rows so that no single decode holds it long.
 *
 * Deadlines (DATABASE_TIMEOUT_MS): a read still running past it fails with
 * StoreUnavailableError (the API answers 503) and its thread is terminated and replaced, with
 * whatever other calls it held (they fail the same way). A write waits for a lock, in the queue
 * and in busy_timeout, only until its deadline, then fails the same way; a write that got the
 * lock runs to its end. A thread that dies is replaced; its calls fail with
 * StoreUnavailableError.
 */

/** Rows per message of a large reply. */
export const CHUNK_ROWS = 100;

/** What a thread is started with. */
export interface ThreadData {
  file: string;
  options: SqliteStoreOptions;
  /** The thread's nice value (Linux; 0: as the process). */
  nice: number;
}

/**
 * The nice value of the threads that run long statements (the writer and the long-read
 * readers): on a busy machine the serving thread, and the point-lookup reader, get the CPU
 * before a long search, delete or import does (Linux schedules threads apart; elsewhere this
 * is a no-op).
 */
export const LONG_WORK_NICE = 10;

export interface ThreadCall {
  id: number;
  target: 'store' | 'webhooks' | 'testing';
  method: string;
  args: unknown[];
  /** Epoch ms past which a write must not wait for a lock (null: the configured busy_timeout). */
  deadline: number | null;
}

export interface ThreadError {
  name: string;
  message: string;
  code?: string;
}

export type ThreadReply =
  | { id: number; ok: unknown }
  | { id: number; error: ThreadError }
  | { id: number; chunk: unknown[] };

/**
 * The worker's script, built beside this module. Run from the TypeScript sources (the test
 * runner) there is none: openStore then opens the synchronous store, and the thread tests load
 * the built script (sqlite-threads.test.ts).
 */
export const THREAD_SCRIPT = new URL('./sqlite-thread-worker.js', import.meta.url);

export function threadScriptBuilt(script: URL = THREAD_SCRIPT): boolean {
  return existsSync(fileURLToPath(script));
}

export interface SqliteThreadsOptions {
  /** DATABASE_TIMEOUT_MS: a read's deadline, and how long a write may wait for a lock. */
  timeoutMs?: number;
  /** Reader threads (at least 2: one for point lookups, the rest for longer reads). */
  readers?: number;
  cacheMiB?: number;
  /** Bounds of one search (tests lower them, see SqliteStoreOptions). */
  searchLimits?: SqliteStoreOptions['searchLimits'];
  /** The worker's script (tests: the built one). */
  script?: URL;
  /**
   * Whether the cheapest point lookups (LOCAL_READS) run on the caller's thread, on a
   * connection that never waits for a lock (default true; see LOCAL_READS).
   */
  localPointReads?: boolean;
  /** Called when a thread dies or is cut at its deadline (for the log). */
  onThreadLost?: (info: { role: 'reader' | 'writer'; reason: string }) => void;
}

/** Readers of a process: one for point lookups, and one or more for the rest. */
export function defaultReaders(): number {
  return Math.min(4, Math.max(3, os.availableParallelism()));
}

/** Reads a point lookup serves (cheap, bounded): they go to reader 0. */
const POINT_READS = new Set([
  'ping',
  'getOrganization',
  'findOrganization',
  'findUser',
  'isMember',
  'getApiKey',
  'loadKeyContext',
  'getRemaining',
  'getItem',
]);
/**
 * Point lookups answered on the serving thread itself, through an index, a handful of pages:
 * a key by hash (both its hashes are unique indexes), an item by (organization, id), an
 * organization by id, a membership, a key's uses left. Measured (BENCHMARKS.md, "Stalls"):
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

/** Every other read of the store (the rest are writes). */
const READS = new Set([
  ...POINT_READS,
  'listOrganizations',
  'countOrganizations',
  'listMembers',
  'listApiKeys',
  'listItemSlices',
  'countItems',
  'listChanges',
  'listAuditEvents',
]);
const WEBHOOK_READS = new Set(['get', 'list', 'listDeliveries', 'listDue']);

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  /** Rows of a reply sent in several messages. */
  onChunk?: (rows: unknown[]) => void;
  timer?: NodeJS.Timeout;
}

/** A thread, its connection, and the calls it holds. */
export class Thread {
  worker!: Worker;
  readonly pending = new Map<number, Pending>();
  private ready!: Promise<void>;
  /** When set, the thread is being replaced or closed: its exit is expected. */
  private retired = false;
  private startedAt = 0;
  /** Whether the current worker is running (false between a death and its replacement). */
  private alive = false;
  private exited: Promise<void> = Promise.resolve();
  private restart: NodeJS.Timeout | undefined;

  constructor(
    private readonly owner: SqliteThreads,
    readonly role: 'reader' | 'writer',
    private readonly nice: number,
  ) {
    this.start();
  }

  private start(): void {
    this.startedAt = Date.now();
    const data: ThreadData = {
      file: this.owner.file,
      options: { ...this.owner.storeOptions, role: this.role },
      nice: this.nice,
    };
    const worker = new Worker(this.owner.script, { workerData: data });
    worker.unref();
    this.worker = worker;
    this.alive = true;
    this.exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    let opened = false;
    this.ready = new Promise<void>((resolve, reject) => {
      const first = (reply: ThreadReply) => {
        if (reply.id !== 0) return;
        worker.off('message', first);
        if ('error' in reply) reject(toError(reply.error));
        else {
          opened = true;
          resolve();
        }
      };
      worker.on('message', first);
      worker.once('exit', () => {
        if (!opened)
          reject(new StoreUnavailableError('a SQLite thread could not open the database'));
      });
    });
    this.ready.catch(() => {});
    worker.on('message', (reply: ThreadReply) => this.receive(reply));
    worker.on('error', () => {});
    worker.once('exit', (code) => {
      if (this.worker !== worker) return;
      this.alive = false;
      const reason = `exited with code ${code}`;
      this.failAll(new StoreUnavailableError(`a SQLite ${this.role} thread stopped (${reason})`));
      if (this.retired || this.owner.closing) return;
      this.owner.onThreadLost?.({ role: this.role, reason });
      // A thread that died at once (the file is gone, say) is not restarted in a tight loop.
      if (Date.now() - this.startedAt >= 1000) this.start();
      else {
        this.restart = setTimeout(() => {
          this.restart = undefined;
          if (!this.retired && !this.owner.closing) this.start();
        }, 1000);
        this.restart.unref();
      }
    });
  }

  whenReady(): Promise<void> {
    return this.ready;
  }

  /** Calls in flight; a thread being replaced counts as fully loaded. */
  get load(): number {
    return this.alive ? this.pending.size : Number.MAX_SAFE_INTEGER;
  }

  private receive(reply: ThreadReply): void {
    if (reply.id === 0) return;
    const call = this.pending.get(reply.id);
    if (!call) return;
    if ('chunk' in reply) {
      call.onChunk?.(reply.chunk);
      return;
    }
    this.pending.delete(reply.id);
    if (call.timer) clearTimeout(call.timer);
    if ('error' in reply) call.reject(toError(reply.error));
    else call.resolve(reply.ok);
  }

  private failAll(error: Error): void {
    const calls = [...this.pending.values()];
    this.pending.clear();
    for (const call of calls) {
      if (call.timer) clearTimeout(call.timer);
      call.reject(error);
    }
  }

  /**
   * Posts a call. A reader's call past `deadlineMs` fails, and the thread is terminated and
   * replaced (its statement cannot be interrupted otherwise).
   */
  send(
    call: Omit<ThreadCall, 'id'>,
    options: { deadlineMs?: number; onChunk?: (rows: unknown[]) => void } = {},
  ): Promise<unknown> {
    if (!this.alive) {
      return Promise.reject(
        new StoreUnavailableError(`a SQLite ${this.role} thread is restarting; try again shortly`),
      );
    }
    const id = this.owner.nextId();
    return new Promise((resolve, reject) => {
      const pending: Pending = { resolve, reject };
      if (options.onChunk) pending.onChunk = options.onChunk;
      if (options.deadlineMs !== undefined) {
        pending.timer = setTimeout(
          () => this.expire(id, options.deadlineMs ?? 0),
          options.deadlineMs,
        );
      }
      this.pending.set(id, pending);
      try {
        this.worker.postMessage({ id, ...call } satisfies ThreadCall);
      } catch (error) {
        this.pending.delete(id);
        if (pending.timer) clearTimeout(pending.timer);
        reject(error);
      }
    });
  }

  /** A call ran past its deadline: this thread is replaced, every call it held fails. */
  private expire(id: number, deadlineMs: number): void {
    if (!this.pending.has(id) || this.owner.closing) return;
    const old = this.worker;
    this.failAll(
      new StoreUnavailableError(
        `the database did not answer within ${deadlineMs} ms (DATABASE_TIMEOUT_MS); try again shortly`,
      ),
    );
    this.owner.onThreadLost?.({ role: this.role, reason: `a call ran past ${deadlineMs} ms` });
    old.removeAllListeners('exit');
    void old.terminate();
    this.start();
  }

  async close(): Promise<void> {
    this.retired = true;
    clearTimeout(this.restart);
    if (!this.alive) return;
    const worker = this.worker;
    const exited = this.exited;
    // The close waits behind the call the thread is running (a long write, say) at most the
    // deadline of a call; a thread still busy then is terminated (a write in progress rolls
    // back; a bulk load's queue is indexed at the next start).
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, this.owner.timeoutMs);
    });
    try {
      await Promise.race([
        this.whenReady().then(() =>
          this.send({ target: 'store', method: 'close', args: [], deadline: null }),
        ),
        bound,
      ]);
    } catch {
      // Never opened, or already gone: terminated below.
    }
    clearTimeout(timer);
    // A thread that does not leave at once (a statement still running) is terminated.
    timer = setTimeout(() => void worker.terminate(), 2000);
    await exited;
    clearTimeout(timer);
  }

  /** Test hook: the live worker. */
  get current(): Worker {
    return this.worker;
  }
}

function toError(error: ThreadError): Error {
  let result: Error;
  if (error.name === 'StoreUnavailableError') result = new StoreUnavailableError(error.message);
  else if (error.name === 'StoreConflictError') result = new StoreConflictError(error.message);
  else {
    result = new Error(error.message);
    result.name = error.name;
  }
  if (error.code !== undefined) (result as Error & { code?: string }).code = error.code;
  return result;
}

/** A query as it can cross to a thread: its callbacks stay here. */
function withoutCallbacks<T extends object>(query: T): T {
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(query)) {
    if (typeof value !== 'function') copy[key] = value;
  }
  return copy as T;
}

/** The threads and the routing of calls; see the module comment. */
export class SqliteThreads {
  readonly file: string;
  readonly script: URL;
  readonly storeOptions: SqliteStoreOptions;
  readonly timeoutMs: number;
  readonly onThreadLost: SqliteThreadsOptions['onThreadLost'];
  closing = false;
  private ids = 0;
  private readonly readerCount: number;
  readonly writer: Thread;
  readonly readers: Thread[] = [];

  constructor(file: string, options: SqliteThreadsOptions = {}) {
    this.file = file;
    this.script = options.script ?? THREAD_SCRIPT;
    this.timeoutMs = options.timeoutMs ?? 5000;
    this.onThreadLost = options.onThreadLost;
    this.storeOptions = {
      busyTimeoutMs: this.timeoutMs,
      ...(options.cacheMiB === undefined ? {} : { cacheMiB: options.cacheMiB }),
      ...(options.searchLimits === undefined ? {} : { searchLimits: options.searchLimits }),
    };
    this.readerCount = Math.max(2, options.readers ?? defaultReaders());
    this.writer = new Thread(this, 'writer', LONG_WORK_NICE);
  }

  /** Starts the readers once the writer has the file open (and in WAL mode). */
  async start(): Promise<void> {
    await this.writer.whenReady();
    for (let i = 0; i < this.readerCount; i++) {
      this.readers.push(new Thread(this, 'reader', i === 0 ? 0 : LONG_WORK_NICE));
    }
    await Promise.all(this.readers.map((reader) => reader.whenReady()));
  }

  nextId(): number {
    this.ids = (this.ids % 2_000_000_000) + 1;
    return this.ids;
  }

  private closedError(): StoreUnavailableError {
    return new StoreUnavailableError('the database connection is closed');
  }

  /** The reader for a call: point lookups on reader 0 unless another is idler; the rest never on it. */
  private reader(point: boolean): Thread {
    const [first, ...rest] = this.readers;
    if (!first) throw this.closedError();
    let best = rest[0] ?? first;
    for (const reader of rest) if (reader.load < best.load) best = reader;
    if (point && first.load <= best.load) return first;
    return best;
  }

  read(
    target: 'store' | 'webhooks',
    method: string,
    args: unknown[],
    onChunk?: (rows: unknown[]) => void,
  ): Promise<unknown> {
    if (this.closing) return Promise.reject(this.closedError());
    const thread = this.reader(target === 'store' && POINT_READS.has(method));
    return thread.send(
      { target, method, args, deadline: null },
      { deadlineMs: this.timeoutMs, ...(onChunk ? { onChunk } : {}) },
    );
  }

  write(
    target: 'store' | 'webhooks',
    method: string,
    args: unknown[],
    options: { lockDeadline?: boolean } = {},
  ): Promise<unknown> {
    if (this.closing) return Promise.reject(this.closedError());
    const deadline = options.lockDeadline === false ? null : Date.now() + this.timeoutMs;
    return this.writer.send({ target, method, args, deadline });
  }

  call(target: 'store' | 'webhooks', method: string, args: unknown[]): Promise<unknown> {
    const isRead = target === 'store' ? READS.has(method) : WEBHOOK_READS.has(method);
    return isRead ? this.read(target, method, args) : this.write(target, method, args);
  }

  /**
   * Test hooks: holds a thread as a statement that never returns would (`spin`), or makes it
   * die (`crash`). A reader's call has the reads' deadline.
   */
  testCall(thread: Thread, method: 'spin' | 'crash', args: unknown[] = []): Promise<unknown> {
    return thread.send(
      { target: 'testing', method, args, deadline: null },
      thread.role === 'reader' ? { deadlineMs: this.timeoutMs } : {},
    );
  }

  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    // Readers first: the writer's close may index a bulk load's queue.
    await Promise.all(this.readers.map((reader) => reader.close()));
    await this.writer.close();
  }
}

/** The SQLite Store of a serving process: the same contract, its statements on threads. */
export class ThreadedSqliteStore implements Store {
  readonly engine = 'sqlite' as const;
  readonly seedsDemoWhenEmpty = true;
  readonly threads: SqliteThreads;
  readonly webhooks: WebhookStore;

  /** The serving thread's own connection for LOCAL_READS (null: every read on threads). */
  private readonly local: SqliteStore | null;

  private constructor(threads: SqliteThreads, local: SqliteStore | null) {
    this.threads = threads;
    this.local = local;
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
    try {
      await threads.start();
      if (options.localPointReads !== false) {
        local = new SqliteStore(file, {
          role: 'reader',
          busyTimeoutMs: 0,
          ...(options.cacheMiB === undefined ? {} : { cacheMiB: options.cacheMiB }),
        });
      }
    } catch (error) {
      await threads.close();
      throw error;
    }
    return new ThreadedSqliteStore(threads, local);
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
    return this.call('consumeQuota', keyId);
  }
  refundQuota(keyId: string): Promise<number | null> {
    return this.call('refundQuota', keyId);
  }
  getRemaining(keyId: string): Promise<number | null> {
    return this.call('getRemaining', keyId);
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

  getItem(organizationId: string, id: string): Promise<Item | null> {
    return this.call('getItem', organizationId, id);
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
