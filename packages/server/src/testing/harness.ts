import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { type Env, loadConfig } from '../config.js';
import { seedDemo } from '../demo.js';
import { type IssueKeyInput, issueKey } from '../keys/issue.js';
import { type RunningServer, startServer } from '../server.js';
import Database from '../store/sqlite/driver.js';
import type { ApiKeyRecord, ItemFields, Organization, Store, User } from '../store/types.js';
import { createTestSchema, execInSchema, holdLocks } from './postgres.js';
import { dropRedisPrefix, testRedisPrefix } from './services.js';

/**
 * A real server (API + docs hosts) on a fresh database: a SQLite file in a temp directory, or a
 * PostgreSQL schema of its own (see `testEngine`), seeded with the demo organization. Tests
 * talk HTTP to it and use `store` only to arrange data.
 */
export interface TestServer {
  apiUrl: string;
  docsUrl: string;
  engine: TestEngineName;
  /** DATABASE_URL of the server: the SQLite file, or a postgres:// URL with its own schema. */
  dbPath: string;
  store: Store;
  logs: Record<string, unknown>[];
  server: RunningServer;
  demo: { organizationId: string; key: string; itemId: string };
  createOrganization(input?: {
    name?: string;
    slug?: string;
    features?: string[];
  }): Promise<Organization>;
  createUser(organizationId: string, email?: string): Promise<User>;
  createKey(input: IssueKeyInput): Promise<{ key: string; record: ApiKeyRecord }>;
  createItems(organizationId: string, rows: ItemFields[]): Promise<void>;
  /** Runs SQL on the server's database through a connection of its own (either engine). */
  exec(sql: string): Promise<void>;
  /**
   * Holds the write lock of the key and item tables from another connection until released,
   * so the server's next write waits past its deadline (DATABASE_TIMEOUT_MS).
   */
  lockWrites(): Promise<() => Promise<void>>;
  /** HTTP to the API host; `key` goes in x-api-key. */
  request(pathAndQuery: string, init?: RequestInit & { key?: string }): Promise<TestResponse>;
  close(): Promise<void>;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests inspect arbitrary JSON
  body: any;
}

let counter = 0;

export type TestEngineName = 'sqlite' | 'postgres';

/**
 * The engine of test servers: STOCKROOM_TEST_ENGINE, set per vitest project, so the whole API
 * suite runs on SQLite and again on PostgreSQL (a schema of TEST_DATABASE_URL per server).
 * On PostgreSQL, STOCKROOM_TEST_REDIS_URL (when set) adds Redis-backed rate limits.
 */
export function testEngine(): TestEngineName {
  return process.env.STOCKROOM_TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite';
}

export interface TestServerOptions {
  engine?: TestEngineName;
  env?: Env;
  keyCacheTtlMs?: number;
  /** Collect the server's log lines (parsed JSON) into `logs`. */
  captureLogs?: boolean;
  /**
   * The DATABASE_URL the server gets, from the one of its fresh database (e.g. through a TCP
   * proxy a test can cut). `store` is the server's own (through it); `exec` and `lockWrites`
   * use the database directly.
   */
  serverDatabaseUrl?: (url: string) => string;
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const engine = options.engine ?? testEngine();
  const dir = mkdtempSync(path.join(tmpdir(), 'stockroom-test-'));
  const schema = engine === 'postgres' ? await createTestSchema() : null;
  const dbPath = schema ? schema.url : path.join(dir, 'stockroom.db');
  const redisUrl = engine === 'postgres' ? process.env.STOCKROOM_TEST_REDIS_URL : undefined;
  const config = loadConfig({
    DATABASE_URL: options.serverDatabaseUrl ? options.serverDatabaseUrl(dbPath) : dbPath,
    ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
    // Never the production prefix: the shared Redis is others' too, and this server's keys
    // are dropped when it closes.
    REDIS_PREFIX: testRedisPrefix(),
    PORT: '0',
    DOCS_PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    NODE_ENV: 'test',
    ...options.env,
  });
  const logs: Record<string, unknown>[] = [];
  const logger = options.captureLogs
    ? pino(
        { level: 'info' },
        { write: (line: string) => void logs.push(JSON.parse(line) as Record<string, unknown>) },
      )
    : false;
  const server = await startServer(config, {
    demo: true,
    logger,
    ...(options.keyCacheTtlMs === undefined ? {} : { keyCacheTtlMs: options.keyCacheTtlMs }),
  }).catch(async (error: unknown) => {
    await schema?.drop();
    throw error;
  });
  const store = server.services.store;
  // The server seeds the demo only into an empty SQLite file; on PostgreSQL the tests do.
  const demo = server.demo ?? (schema ? await seedDemo(store) : null);
  if (!demo) throw new Error('the test server did not seed its demo organization');
  const demoOrg = demo.organization;
  const firstItem = (await store.listItems(demoOrg.id, { limit: 1 }))[0];
  if (!firstItem) throw new Error('demo organization has no items');

  async function request(pathAndQuery: string, init: RequestInit & { key?: string } = {}) {
    const { key, ...rest } = init;
    const headers = new Headers(rest.headers);
    if (key !== undefined) headers.set('x-api-key', key);
    const response = await fetch(server.apiUrl + pathAndQuery, { ...rest, headers });
    const text = await response.text();
    let body: unknown = null;
    if (text !== '' && response.headers.get('content-type')?.includes('json'))
      body = JSON.parse(text);
    return { status: response.status, headers: response.headers, text, body };
  }

  return {
    apiUrl: server.apiUrl,
    docsUrl: server.docsUrl,
    engine,
    dbPath,
    store,
    logs,
    server,
    demo: { organizationId: demoOrg.id, key: demo.key, itemId: firstItem.id },
    async createOrganization(input = {}) {
      counter += 1;
      return store.createOrganization({
        name: input.name ?? `Test Org ${counter}`,
        slug: input.slug ?? `test-org-${process.pid}-${counter}`,
        features: input.features ?? ['inventory'],
      });
    },
    async createUser(organizationId, email) {
      counter += 1;
      const user = await store.createUser({
        email: email ?? `user${counter}@example.test`,
        name: null,
      });
      await store.addMember(organizationId, user.id);
      return user;
    },
    createKey: (input) => issueKey(store, input),
    async createItems(organizationId, rows) {
      const outcomes = await store.writeItems(organizationId, rows);
      const failed = outcomes.find((outcome) => typeof outcome === 'object');
      if (failed) throw new Error(`could not create test items: ${JSON.stringify(failed)}`);
    },
    async exec(sql) {
      if (schema) return execInSchema(schema.url, sql);
      const other = new Database(dbPath);
      try {
        other.exec(sql);
      } finally {
        other.close();
      }
    },
    async lockWrites() {
      if (schema) return holdLocks(schema.url, 'LOCK TABLE api_keys, items IN EXCLUSIVE MODE');
      // BEGIN IMMEDIATE takes SQLite's one write lock; readers carry on (WAL).
      const other = new Database(dbPath);
      other.exec('BEGIN IMMEDIATE');
      return async () => {
        other.exec('ROLLBACK');
        other.close();
      };
    },
    request,
    async close() {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
      await schema?.drop();
      // The shared Redis only: a test's private Redis may already be gone.
      if (redisUrl && config.redisUrl === redisUrl) {
        await dropRedisPrefix(redisUrl, config.redisPrefix);
      }
    },
  };
}
