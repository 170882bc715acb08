import { existsSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { StoreConflictError, StoreUnavailableError } from '../types.js';
import type { SqliteStoreOptions } from './sqlite-store.js';

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
  /**
   * Whether quota charges and refunds run on the caller's thread, on a connection of their own
   * that never waits inside SQLite for the lock (default true; see ThreadedSqliteStore.charger).
   */
  localCharges?: boolean;
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
  'findLocation',
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
  'listLocations',
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
