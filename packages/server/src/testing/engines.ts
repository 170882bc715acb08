import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PostgresStore } from '../store/postgres/postgres-store.js';
import { SqliteStore } from '../store/sqlite/sqlite-store.js';
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
