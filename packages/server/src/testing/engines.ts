import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PostgresStore } from '../store/postgres/postgres-store.js';
import type { SearchLimits } from '../store/sqlite/item-search.js';
import { SqliteStore } from '../store/sqlite/sqlite-store.js';
import { threadScriptBuilt } from '../store/sqlite/sqlite-threads.js';
import { ThreadedSqliteStore } from '../store/sqlite/threaded-store.js';
import type { Store } from '../store/types.js';
import { createTestSchema, postgresUnavailable } from './postgres.js';
import { announceSkip } from './services.js';

export type EngineName = 'sqlite' | 'postgres';

/** A fresh, empty (unmigrated) store of one engine, and how to throw it away. */
export interface TestStore {
  store: Store;
  /** DATABASE_URL of this store: a SQLite file path or a postgres:// URL with its schema. */
  url: string;
  cleanup(): Promise<void>;
}

export interface TestEngine {
  name: EngineName;
  /** How tests name this leg when it differs from the engine's name. */
  label?: string;
  /** Why this engine cannot run here, or null. */
  unavailable(): Promise<string | null>;
  open(): Promise<TestStore>;
}

/** Every engine the store contract and the API suite run on (Kysely's DIALECTS pattern). */
export const ENGINES: TestEngine[] = [
  {
    name: 'sqlite',
    unavailable: async () => null,
    async open() {
      const dir = mkdtempSync(path.join(tmpdir(), 'stockroom-store-'));
      const file = path.join(dir, 'stockroom.db');
      const store = new SqliteStore(file);
      return {
        store,
        url: file,
        async cleanup() {
          await store.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  },
  {
    name: 'postgres',
    unavailable: postgresUnavailable,
    async open() {
      const schema = await createTestSchema();
      const store = new PostgresStore(schema.url, { poolSize: 8 });
      return {
        store,
        url: schema.url,
        async cleanup() {
          await store.close();
          await schema.drop();
        },
      };
    },
  },
];

/**
 * The worker script of the SQLite threads, built (`npm run build`): the test runner runs the
 * TypeScript sources, which have none.
 */
export const BUILT_THREAD_SCRIPT = new URL(
  '../../dist/store/sqlite/sqlite-thread-worker.js',
  import.meta.url,
);

/** A fresh SQLite file behind the thread-backed store of a serving process (sqlite-threads.ts). */
export async function openThreadedSqlite(
  options: { timeoutMs?: number; readers?: number; searchLimits?: Partial<SearchLimits> } = {},
): Promise<TestStore & { store: ThreadedSqliteStore }> {
  if (!threadScriptBuilt(BUILT_THREAD_SCRIPT)) {
    throw new Error('packages/server is not built: run `npm run build`');
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'stockroom-store-'));
  const file = path.join(dir, 'stockroom.db');
  const store = await ThreadedSqliteStore.open(file, { ...options, script: BUILT_THREAD_SCRIPT });
  return {
    store,
    url: file,
    async cleanup() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The store contract's extra leg: SQLite as a server runs it, on threads. */
export const SQLITE_THREADS_ENGINE: TestEngine = {
  name: 'sqlite',
  label: 'sqlite (threads)',
  unavailable: async () => null,
  open: () => openThreadedSqlite(),
};

/**
 * Whether each engine can run, printed once per test file for the skipped ones, so
 * `npm test` says which legs it left out and why (under CI=true a missing engine fails).
 */
export async function engineAvailability(
  label: string,
): Promise<Array<{ engine: TestEngine; skip: string | null }>> {
  return Promise.all(
    ENGINES.map(async (engine) => {
      const skip = await engine.unavailable();
      announceSkip(`${label}: the ${engine.name} leg`, skip);
      return { engine, skip };
    }),
  );
}
