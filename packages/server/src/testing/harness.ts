import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { type Env, loadConfig } from '../config.js';
import type { Services } from '../context.js';
import { seedDemo } from '../demo.js';
import { type IssueKeyInput, issueKey } from '../keys/issue.js';
import {
  createAdminHost,
  createApiHost,
  createDocsHost,
  type RunningServer,
  startServer,
  startServices,
} from '../server.js';
import Database from '../store/sqlite/driver.js';
import type { ApiKeyRecord, ItemFields, Organization, Store, User } from '../store/types.js';
import { type FetchFunction, injectFetch, injectFetchByOrigin } from './inject-fetch.js';
import { createTestSchema, execInSchema, holdLocks } from './postgres.js';
import { dropRedisPrefix, TEST_REDIS_URL, testRedisPrefix } from './services.js';

export { injectFetch, injectFetchByOrigin };

/**
 * The hosts of a test server, built from one set of services as `serve` builds them. Without
 * `listen` they answer through `inject` only (no sockets, no ports: the URLs are names); the
 * docs host is then built on first use (`docs()`), since few tests need it.
 */
export type TestHosts = Pick<
  RunningServer,
  'apiUrl' | 'docsUrl' | 'metricsUrl' | 'adminUrl' | 'services' | 'demo' | 'api' | 'admin' | 'close'
>;

/**
 * A server (API, docs and, when asked, admin hosts) on a fresh database: a SQLite file in a
 * temp directory, or a PostgreSQL schema of its own (see `testEngine`), seeded with the demo
 * organization. Tests talk HTTP to it (`request`, through `inject` unless it listens) and use
 * `store` only to arrange data. Build one per test file; a test that needs data of its own
 * creates its own organization.
 */
export interface TestServer {
  /** The API's URL: a real one with `listen`, otherwise a name that only `request` serves. */
  apiUrl: string;
  docsUrl: string;
  engine: TestEngineName;
  /** DATABASE_URL of the server: the SQLite file, or a postgres:// URL with its own schema. */
  dbPath: string;
  store: Store;
  logs: Record<string, unknown>[];
  server: TestHosts;
  /** True when the hosts listen on ports of 127.0.0.1 (`listen: true`). */
  listening: boolean;
  /** The docs host (built on first call unless the server listens). */
  docs(): Promise<FastifyInstance>;
  /** HTTP to the docs host, through `inject` unless the server listens. */
  docsRequest(pathAndQuery: string, init?: RequestInit): Promise<TestResponse>;
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
  /**
   * A fetch to the server's hosts (`apiUrl`, `docsUrl`, the admin URL), through `inject` unless
   * the server listens: for the client library's `fetch` option.
   */
  fetch: FetchFunction;
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
 * The engine of test servers: STOCKROOM_TEST_ENGINE (SQLite unless it says `postgres`, which runs
 * a server on a schema of TEST_DATABASE_URL). The everyday tier sets SQLite: engine parity is
 * the store contract suite's job. On PostgreSQL, STOCKROOM_TEST_REDIS_URL (when set) adds
 * Redis-backed rate limits.
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
  /** On PostgreSQL: rate limits and the health check on Redis (TEST_REDIS_URL). */
  redis?: boolean;
  /**
   * Listen on real ports (127.0.0.1), as `serve` does: for tests of the connection itself
   * (keep-alive, raw bytes on the wire, the metrics port, several processes). Otherwise the
   * hosts answer through `inject` only.
   */
  listen?: boolean;
}

/** The names the hosts go by when they do not listen: never resolved, only shown in answers. */
const INJECTED_URLS = {
  api: 'http://api.stockroom.test',
  docs: 'http://docs.stockroom.test',
  admin: 'http://admin.stockroom.test',
};

/**
 * The hosts without listeners: the same services and apps as `startServer` composes, the docs
 * host built when first asked for.
 */
async function buildHosts(
  config: ReturnType<typeof loadConfig>,
  options: { demo: boolean; logger: pino.Logger | false; keyCacheTtlMs?: number },
): Promise<TestHosts & { docs(): Promise<FastifyInstance> }> {
  const apiUrl = config.publicApiUrl ?? INJECTED_URLS.api;
  const docsUrl = config.publicDocsUrl ?? INJECTED_URLS.docs;
  const { logger } = options;
  const { services, demo } = await startServices(config, {
    apiUrl,
    docsUrl,
    demo: options.demo,
    logger,
    ...(options.keyCacheTtlMs === undefined ? {} : { keyCacheTtlMs: options.keyCacheTtlMs }),
  });
  const apps: FastifyInstance[] = [];
  const close = async (services: Services) => {
    services.draining = true;
    await Promise.all(apps.map((app) => app.close()));
    await services.close();
  };
  try {
    const api = await createApiHost(services, logger);
    apps.push(api);
    const adminUrl = config.adminToken === null ? null : INJECTED_URLS.admin;
    const admin = adminUrl === null ? null : await createAdminHost(services, adminUrl, logger);
    if (admin) {
      apps.push(admin);
      await admin.ready();
    }
    let docs: Promise<FastifyInstance> | null = null;
    let closing: Promise<void> | null = null;
    return {
      apiUrl,
      docsUrl,
      metricsUrl: null,
      adminUrl,
      services,
      demo,
      api,
      admin,
      docs() {
        docs ??= createDocsHost(services, { apiUrl, docsUrl, logger }).then(async (app) => {
          apps.push(app);
          await app.ready();
          return app;
        });
        return docs;
      },
      close() {
        closing ??= close(services);
        return closing;
      },
    };
  } catch (error) {
    await close(services);
    throw error;
  }
}

/** An answer as the tests read it: the body as text, and parsed when it is JSON. */
export async function readAnswer(response: Response): Promise<TestResponse> {
  const text = await response.text();
  let body: unknown = null;
  if (text !== '' && response.headers.get('content-type')?.includes('json')) {
    body = JSON.parse(text);
  }
  return { status: response.status, headers: response.headers, text, body };
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const engine = options.engine ?? testEngine();
  const dir = mkdtempSync(path.join(tmpdir(), 'stockroom-test-'));
  const schema = engine === 'postgres' ? await createTestSchema() : null;
  const dbPath = schema ? schema.url : path.join(dir, 'stockroom.db');
  const redisUrl =
    engine !== 'postgres'
      ? undefined
      : options.redis
        ? TEST_REDIS_URL
        : process.env.STOCKROOM_TEST_REDIS_URL;
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
  const listening = options.listen === true;
  const keyCacheTtl =
    options.keyCacheTtlMs === undefined ? {} : { keyCacheTtlMs: options.keyCacheTtlMs };
  const server: TestHosts & { docs(): Promise<FastifyInstance> } = await (listening
    ? startServer(config, { demo: true, logger, ...keyCacheTtl }).then((running) => ({
        ...running,
        close: () => running.close(),
        docs: async () => running.docs,
      }))
    : buildHosts(config, { demo: true, logger, ...keyCacheTtl })
  ).catch(async (error: unknown) => {
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

  const api = server.api;
  const admin = server.admin;
  const hostsFetch: FetchFunction = listening
    ? fetch
    : injectFetchByOrigin({
        [new URL(server.apiUrl).origin]: async () => api,
        [new URL(server.docsUrl).origin]: () => server.docs(),
        ...(admin && server.adminUrl
          ? { [new URL(server.adminUrl).origin]: async () => admin }
          : {}),
      });
  const apiFetch = hostsFetch;
  async function request(pathAndQuery: string, init: RequestInit & { key?: string } = {}) {
    const { key, ...rest } = init;
    const headers = new Headers(rest.headers);
    if (key !== undefined) headers.set('x-api-key', key);
    return readAnswer(await apiFetch(server.apiUrl + pathAndQuery, { ...rest, headers }));
  }
  return {
    apiUrl: server.apiUrl,
    docsUrl: server.docsUrl,
    engine,
    dbPath,
    store,
    logs,
    server,
    listening,
    docs: () => server.docs(),
    async docsRequest(pathAndQuery, init = {}) {
      return readAnswer(await hostsFetch(server.docsUrl + pathAndQuery, init));
    },
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
    fetch: hostsFetch,
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
