import { readlinkSync } from 'node:fs';
import os from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import type { ChangedItem, ChangeQuery, ItemQuery } from '../types.js';
import { SqliteStore } from './sqlite-store.js';
import {
  CHUNK_ROWS,
  type ThreadCall,
  type ThreadData,
  type ThreadError,
  type ThreadReply,
} from './sqlite-threads.js';

/**
 * One SQLite connection in a thread of its own (see sqlite-threads.ts): the writer, or one of
 * the readers. Runs the SqliteStore method each message names and posts the outcome back; the
 * event loop of this thread is the only one its statements ever hold.
 */
const port = parentPort;
if (!port) throw new Error('sqlite-thread-worker.ts runs as a worker thread');
const data = workerData as ThreadData;

function threadError(error: unknown): ThreadError {
  const { name, message, code } = error as { name?: string; message?: string; code?: unknown };
  return {
    name: typeof name === 'string' ? name : 'Error',
    message: typeof message === 'string' ? message : String(error),
    ...(typeof code === 'string' ? { code } : {}),
  };
}

/** This thread's nice value: on Linux a thread's id (from /proc/thread-self) names it alone. */
function setNice(nice: number): void {
  if (nice === 0 || process.platform !== 'linux') return;
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) os.setPriority(tid, nice);
  } catch {
    // No /proc, or not allowed: the thread keeps the process's priority.
  }
}
setNice(data.nice);

let store: SqliteStore;
try {
  store = new SqliteStore(data.file, data.options);
} catch (error) {
  port.postMessage({ id: 0, error: threadError(error) } satisfies ThreadReply);
  process.exit(1);
}
port.postMessage({ id: 0, ok: 'ready' } satisfies ThreadReply);

const post = (reply: ThreadReply) => port.postMessage(reply);

async function call(message: ThreadCall): Promise<unknown> {
  const { id, method, args } = message;
  if (message.deadline !== null) {
    // A write waits for another process's lock only until its deadline (queued calls included).
    const left = message.deadline - Date.now();
    if (left <= 0) throw busy();
    store.setBusyTimeout(left);
  } else store.setBusyTimeout(data.options.busyTimeoutMs ?? 5000);
  if (message.target === 'webhooks') {
    const webhooks = store.webhooks as unknown as Record<string, (...a: unknown[]) => unknown>;
    return await webhooks[method]?.(...args);
  }
  if (message.target === 'testing') {
    // Holds this thread as a statement that never ends would (deadline and crash tests).
    if (method === 'spin') {
      const until = Date.now() + (args[0] as number);
      while (Date.now() < until) {}
      return null;
    }
    if (method === 'crash') throw Object.assign(new Error('thread crash for a test'), { fatal: 1 });
    throw new Error(`unknown testing call ${method}`);
  }
  if (method === 'listItemSlices') {
    // Each slice is its own message: the serving thread decodes one bounded piece at a time.
    const query = { ...(args[1] as ItemQuery) };
    let resumeAfterId: string | null = null;
    query.onPartialPage = (after) => {
      resumeAfterId = after;
    };
    for await (const slice of store.listItemSlices(args[0] as string, query)) {
      for (let start = 0; start < slice.length; start += CHUNK_ROWS) {
        post({ id, chunk: slice.slice(start, start + CHUNK_ROWS) });
      }
    }
    return { resumeAfterId };
  }
  if (method === 'listChanges') {
    const query = { ...(args[1] as ChangeQuery) };
    let chunk: ChangedItem[] = [];
    query.onItem = (item) => {
      chunk.push(item);
      if (chunk.length >= CHUNK_ROWS) {
        post({ id, chunk });
        chunk = [];
      }
    };
    const page = await store.listChanges(args[0] as string, query);
    if (chunk.length > 0) post({ id, chunk });
    return page;
  }
  if (method === 'close') {
    await store.close();
    return null;
  }
  const target = store as unknown as Record<string, (...a: unknown[]) => unknown>;
  const fn = target[method];
  if (typeof fn !== 'function') throw new Error(`the store has no method ${method}`);
  if (message.deadline !== null && SMALL_WRITES.has(method)) {
    return await store.writeLocked(message.deadline, async () => fn.apply(store, args));
  }
  return await fn.apply(store, args);
}

/**
 * The writes every request may make (a quota charge, its refund, the keys' last use): one
 * statement or one transaction each, so they take the write lock the quick way
 * (SqliteConnection.writeLocked) and get in between the transactions of a bulk write.
 */
const SMALL_WRITES = new Set(['consumeQuota', 'refundQuota', 'recordKeyUse']);

function busy(): Error {
  const error = new Error('the database is busy; try again shortly');
  error.name = 'StoreUnavailableError';
  return error;
}

port.on('message', (message: ThreadCall) => {
  call(message).then(
    (ok) => {
      post({ id: message.id, ok });
      if (message.method === 'close') port.close();
    },
    (error: unknown) => {
      if ((error as { fatal?: number }).fatal) process.exit(1);
      post({ id: message.id, error: threadError(error) });
    },
  );
});
