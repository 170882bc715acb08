import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueKey } from '../packages/server/src/keys/issue.js';
import { PostgresStore } from '../packages/server/src/store/postgres/postgres-store.js';
import { SqliteStore } from '../packages/server/src/store/sqlite/sqlite-store.js';
import type { Store } from '../packages/server/src/store/types.js';
import { runBinary } from '../packages/server/src/testing/cli-harness.js';
import {
  createTestSchema,
  holdLocks,
  type TestSchema,
} from '../packages/server/src/testing/postgres.js';
import {
  childPids,
  type ServeProcess,
  startServeProcess,
} from '../packages/server/src/testing/serve-process.js';
import {
  announceSkip,
  dropRedisPrefix,
  postgresUnavailable,
  redisUnavailable,
  TEST_REDIS_URL,
  testRedisPrefix,
} from '../packages/server/src/testing/services.js';

/**
 * Exactness across processes, with real `stockroom serve` processes of the built binary:
 * quotas (an atomic UPDATE in the database), rate limits (Redis, the database's counters, or
 * on SQLite the cluster primary's), and changes to keys, memberships and feature flags
 * reaching every process within 1 second. On SQLite, one `serve` per file: a second is refused.
 */
const pgSkip = await postgresUnavailable();
const redisSkip = await redisUnavailable();

interface Reply {
  status: number;
  code: string | undefined;
  reset: string | null;
}

/**
 * A request on a connection of its own, with a request id of its own: behind a cluster's one
 * port each new connection goes to the next worker (round robin), and the worker's request log
 * line (with its pid) is found by that id.
 */
function getFresh(url: string, key: string): Promise<Reply & { requestId: string }> {
  const requestId = `probe-${randomBytes(8).toString('hex')}`;
  return new Promise((resolve, reject) => {
    const request = http.get(
      url,
      { agent: false, headers: { 'x-api-key': key, 'x-request-id': requestId } },
      (response) => {
        let text = '';
        response.setEncoding('utf8').on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () => {
          const body = JSON.parse(text) as { error?: { code: string } };
          resolve({
            status: response.statusCode as number,
            code: body.error?.code,
            reset: (response.headers['x-ratelimit-reset'] as string | undefined) ?? null,
            requestId,
          });
        });
      },
    );
    request.on('error', reject);
  });
}

async function get(url: string, key: string): Promise<Reply> {
  const response = await fetch(url, { headers: { 'x-api-key': key } });
  const body = (await response.json()) as { error?: { code: string } };
  return {
    status: response.status,
    code: body.error?.code,
    reset: response.headers.get('x-ratelimit-reset'),
  };
}

/** `total` requests at once, spread round-robin over the processes. */
function burst(processes: ServeProcess[], total: number, pathAndQuery: string, key: string) {
  return Promise.all(
    Array.from({ length: total }, (_, i) =>
      get(`${processes[i % processes.length]?.apiUrl}${pathAndQuery}`, key),
    ),
  );
}

/**
 * A burst that straddles a window boundary is counted in two windows: each window must admit
 * exactly min(max, requests it got). Every reply carries X-RateLimit-Reset, its window's end.
 */
function expectExactPerWindow(replies: Reply[], max: number): void {
  const windows = new Map<string, Reply[]>();
  for (const reply of replies) {
    expect(reply.reset).not.toBeNull();
    windows.set(reply.reset as string, [...(windows.get(reply.reset as string) ?? []), reply]);
  }
  for (const inWindow of windows.values()) {
    const admitted = inWindow.filter((r) => r.status === 200).length;
    expect(admitted).toBe(Math.min(max, inWindow.length));
    for (const r of inWindow.filter((r) => r.status !== 200)) expect(r.code).toBe('RATE_LIMITED');
  }
}

/** The contract's bound for a change to reach every running process. */
const PROPAGATION_MS = 1000;

function quotaExactness(processes: () => ServeProcess[], store: () => Store) {
  it('a key with 100 uses left, hit by 500 concurrent requests across 4 processes, admits exactly 100', async () => {
    const org = await store().createOrganization({
      name: 'Quota',
      slug: `quota-${Date.now()}`,
      features: ['inventory'],
    });
    const { key, record } = await issueKey(store(), {
      organizationId: org.id,
      remaining: 100,
      rateLimit: null,
    });
    const replies = await burst(processes(), 500, '/api/v1/inventory/items?limit=1', key);
    expect(replies.filter((r) => r.status === 200)).toHaveLength(100);
    expect(replies.filter((r) => r.code === 'KEY_EXHAUSTED')).toHaveLength(400);
    expect(await store().getRemaining(record.id)).toBe(0);
  });
}

/**
 * Every process must see the changes. Independent processes are each asked directly; a
 * cluster's workers share one port, so it is asked `perUrl` times on fresh connections, and
 * its request log must show every worker answered after the change.
 */
function changesReachEveryProcess(
  processes: () => ServeProcess[],
  store: () => Store,
  cluster: { perUrl: number; workers: number } | null = null,
) {
  it('refuses a disabled key, a removed member and a disabled feature, and applies a key view, on every process within 1 s', async () => {
    const org = await store().createOrganization({
      name: 'Changes',
      slug: `changes-${Date.now()}`,
      features: ['inventory'],
    });
    const flagged = await store().createOrganization({
      name: 'Flagged',
      slug: `flagged-${Date.now()}`,
      features: ['inventory'],
    });
    const user = await store().createUser({ email: `u${Date.now()}@example.test`, name: null });
    await store().addMember(org.id, user.id);
    const toDisable = await issueKey(store(), { organizationId: org.id, rateLimit: null });
    const ofMember = await issueKey(store(), {
      organizationId: org.id,
      userId: user.id,
      rateLimit: null,
    });
    const ofFlagged = await issueKey(store(), { organizationId: flagged.id, rateLimit: null });
    const toView = await issueKey(store(), { organizationId: org.id, rateLimit: null });
    const viewOnEveryProcess = async () => {
      const views: unknown[] = [];
      for (const server of processes()) {
        for (let i = 0; i < (cluster?.perUrl ?? 1); i++) {
          const response = await fetch(`${server.apiUrl}/api/v1/auth/verify`, {
            headers: { 'x-api-key': toView.key, connection: 'close' },
          });
          views.push(((await response.json()) as { key: { view: unknown } }).key.view);
        }
      }
      return views;
    };
    const items = '/api/v1/inventory/items?limit=1';
    const perUrl = cluster?.perUrl ?? 1;
    const askEveryProcess = async () => {
      const replies: Array<Array<Reply & { requestId: string }>> = [];
      for (const server of processes()) {
        for (let i = 0; i < perUrl; i++) {
          replies.push(
            await Promise.all(
              [toDisable, ofMember, ofFlagged].map(({ key }) =>
                getFresh(`${server.apiUrl}${items}`, key),
              ),
            ),
          );
        }
      }
      return replies;
    };
    // Every process has each key cached as valid.
    for (const round of await askEveryProcess()) {
      expect(round.map((r) => r.status)).toEqual([200, 200, 200]);
    }
    for (const view of await viewOnEveryProcess()) expect(view).toBeNull();
    const view = { where: ['status=Active'], hideFields: ['barcode'], quantityCap: 5 };
    await Promise.all([
      store().setApiKeyEnabled(toDisable.record.id, false),
      store().removeMember(org.id, user.id),
      store().updateOrganization(flagged.id, { features: [] }),
      store().setApiKeyView(toView.record.id, view, Date.now()),
    ]);
    const changedAt = Date.now();
    // The deadline under test, not a synchronisation: any request from then on must see it.
    await new Promise((resolve) => setTimeout(resolve, changedAt + PROPAGATION_MS - Date.now()));
    const after = await askEveryProcess();
    for (const round of after) {
      expect(round.map((r) => [r.status, r.code])).toEqual([
        [401, 'KEY_DISABLED'],
        [403, 'ORGANIZATION_FORBIDDEN'],
        [403, 'FEATURE_DISABLED'],
      ]);
    }
    for (const seen of await viewOnEveryProcess()) expect(seen).toEqual(view);
    if (cluster) {
      // Which worker answered each of those requests, from its request log line.
      const ids = new Set(after.flat().map((r) => r.requestId));
      const pids = new Set<number>();
      for (const server of processes()) {
        for (const line of server.lines) {
          if (!line.includes('"msg":"request"')) continue;
          const entry = JSON.parse(line) as { pid: number; requestId: string };
          if (ids.has(entry.requestId)) pids.add(entry.pid);
        }
      }
      expect(pids.size).toBe(cluster.workers);
    }
  });
}

function rateLimitExactness(processes: () => ServeProcess[], store: () => Store) {
  it('a key limited to 50 per minute, hit by 300 concurrent requests across processes, admits exactly 50', async () => {
    const org = await store().createOrganization({
      name: 'Limited',
      slug: `limited-${Date.now()}`,
      features: ['inventory'],
    });
    const { key } = await issueKey(store(), {
      organizationId: org.id,
      rateLimit: { max: 50, windowSeconds: 60 },
    });
    const replies = await burst(processes(), 300, '/api/v1/auth/verify', key);
    expectExactPerWindow(replies, 50);
  });
}

/** Into `processes` as each is ready, so afterAll stops those started before a failure. */
async function startFour(processes: ServeProcess[], env: Record<string, string>): Promise<void> {
  // One after the other: they migrate the same database at boot.
  for (let i = 0; i < 4; i++) processes.push(await startServeProcess(env));
}

describe.skipIf(announceSkip('scale-out on PostgreSQL', pgSkip))(
  'four processes on PostgreSQL (database rate limiter)',
  () => {
    let schema: TestSchema;
    let store: PostgresStore;
    const processes: ServeProcess[] = [];
    beforeAll(async () => {
      schema = await createTestSchema();
      store = new PostgresStore(schema.url);
      await store.migrate();
      await startFour(processes, { DATABASE_URL: schema.url, DATABASE_POOL_SIZE: '4' });
    }, 120_000);
    afterAll(async () => {
      await Promise.all(processes.map((p) => p.stop()));
      await store?.close();
      await schema?.drop();
    });

    quotaExactness(
      () => processes,
      () => store,
    );
    rateLimitExactness(
      () => processes,
      () => store,
    );
    changesReachEveryProcess(
      () => processes,
      () => store,
    );
  },
);

describe('serve --workers 4 on one SQLite file (rate limits counted by the primary)', () => {
  let dir: string;
  let file: string;
  let store: SqliteStore;
  let cluster: ServeProcess;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'stockroom-scale-'));
    file = path.join(dir, 'stockroom.db');
    store = new SqliteStore(file);
    await store.migrate();
    cluster = await startServeProcess({ DATABASE_URL: file, LOG_LEVEL: 'info' }, [
      '--workers',
      '4',
    ]);
  }, 120_000);
  afterAll(async () => {
    await cluster?.stop();
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs four workers behind one port', async () => {
    expect(await childPids(cluster.pid)).toHaveLength(4);
    expect(cluster.lines).toContain('Stockroom is running with 4 workers.');
  });

  quotaExactness(
    () => [cluster],
    () => store,
  );
  rateLimitExactness(
    () => [cluster],
    () => store,
  );

  it('spread those requests over several workers', () => {
    const pids = new Set(
      cluster.lines
        .filter((line) => line.includes('"msg":"request"'))
        .map((line) => (JSON.parse(line) as { pid: number }).pid),
    );
    expect(pids.size).toBeGreaterThan(1);
  });

  changesReachEveryProcess(
    () => [cluster],
    () => store,
    { perUrl: 8, workers: 4 },
  );

  it('refuses a second, independent serve on the same file; the CLI keeps working', async () => {
    // Stopped at once should it start after all (the test then fails on the rejection).
    const refused = startServeProcess({ DATABASE_URL: file }).then(async (unexpected) => {
      await unexpected.stop();
      return unexpected;
    });
    await expect(refused).rejects.toThrow(
      `stockroom serve exited (1) before it was ready:\nstockroom: another stockroom serve is already serving ${file} (stop it, or run one server with --workers N)`,
    );
    const org = await store.createOrganization({ name: 'Beside', slug: 'beside', features: [] });
    const created = await runBinary(['key', 'create', '--org', 'beside', '--json'], {
      env: { DATABASE_URL: file },
    });
    expect(created.status).toBe(0);
    expect(created.json.organizationId).toBe(org.id);
  });
});

describe('the serve lock of a SQLite file', () => {
  let dir: string;
  const running: ServeProcess[] = [];
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'stockroom-lock-'));
  });
  afterAll(async () => {
    await Promise.all(running.map((p) => p.stop()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('is released when the server holding it is killed (SIGKILL), so a new one starts', async () => {
    const file = path.join(dir, 'stockroom.db');
    const first = await startServeProcess({ DATABASE_URL: file });
    running.push(first);
    const refused = startServeProcess({ DATABASE_URL: file }).then((unexpected) => {
      running.push(unexpected);
      return unexpected;
    });
    await expect(refused).rejects.toThrow(
      /exited \(1\) before it was ready:\nstockroom: another stockroom serve is already serving/,
    );
    expect(await first.stop('SIGKILL')).toBeNull();
    const second = await startServeProcess({ DATABASE_URL: file });
    running.push(second);
    expect((await fetch(`${second.apiUrl}/api/v1/health`)).status).toBe(200);
    expect(await second.stop()).toBe(0);
  });
});

describe.skipIf(announceSkip('cluster on PostgreSQL', pgSkip))(
  `serve --workers 4 on PostgreSQL${redisSkip ? '' : ' and Redis'}`,
  () => {
    let schema: TestSchema;
    let store: PostgresStore;
    let cluster: ServeProcess;
    // The shared Redis holds others' counters too: this run's keys go under a prefix of its own.
    const redisPrefix = testRedisPrefix();
    beforeAll(async () => {
      schema = await createTestSchema();
      store = new PostgresStore(schema.url);
      cluster = await startServeProcess(
        {
          DATABASE_URL: schema.url,
          DATABASE_POOL_SIZE: '4',
          // Long enough for the drain test to hold a request in flight.
          DATABASE_TIMEOUT_MS: '30000',
          LOG_LEVEL: 'info',
          ...(redisSkip ? {} : { REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: redisPrefix }),
        },
        ['--workers', '4'],
      );
    }, 120_000);
    afterAll(async () => {
      await cluster?.stop();
      await store?.close();
      await schema?.drop();
      if (!redisSkip) await dropRedisPrefix(TEST_REDIS_URL, redisPrefix);
    });

    it('runs four workers behind one port', async () => {
      expect(await childPids(cluster.pid)).toHaveLength(4);
      const health = await fetch(`${cluster.apiUrl}/api/v1/health`);
      expect(await health.json()).toMatchObject({
        status: 'ok',
        checks: { database: 'ok', ...(redisSkip ? {} : { redis: 'ok' }) },
      });
    });

    quotaExactness(
      () => [cluster],
      () => store,
    );
    rateLimitExactness(
      () => [cluster],
      () => store,
    );

    it('spread those requests over several workers', () => {
      const pids = new Set(
        cluster.lines
          .filter((line) => line.includes('"msg":"request"'))
          .map((line) => (JSON.parse(line) as { pid: number }).pid),
      );
      expect(pids.size).toBeGreaterThan(1);
    });

    it('replaces a worker that dies', async () => {
      const before = await childPids(cluster.pid);
      const victim = before[0] as number;
      const replaced = cluster.waitForLine(/replacement worker ready/);
      process.kill(victim, 'SIGKILL');
      await replaced;
      const after = await childPids(cluster.pid);
      expect(after).toHaveLength(4);
      expect(after).not.toContain(victim);
      expect((await fetch(`${cluster.apiUrl}/api/v1/health`)).status).toBe(200);
    });

    it('drains in-flight requests on SIGTERM, then exits 0', async () => {
      const org = await store.createOrganization({
        name: 'Drain',
        slug: 'drain',
        features: ['inventory'],
      });
      const { key } = await issueKey(store, { organizationId: org.id, remaining: 10 });
      // Hold the key table so the request waits in the database, in flight.
      const release = await holdLocks(schema.url, 'LOCK TABLE api_keys IN EXCLUSIVE MODE');
      const inFlight = get(`${cluster.apiUrl}/api/v1/inventory/items?limit=1`, key);
      let stopped: Promise<number | null> = Promise.resolve(null);
      try {
        await untilLockWaiter(schema);
        stopped = cluster.stop('SIGTERM');
        await cluster.waitForLine(/shutting down: finishing in-flight requests/, 4);
      } finally {
        await release();
      }
      expect((await inFlight).status).toBe(200);
      expect(await stopped).toBe(0);
    });
  },
);

/** Waits until a server connection queues for a lock in this schema (the request is in flight). */
async function untilLockWaiter(schema: TestSchema): Promise<void> {
  const probe = new PostgresStore(schema.url, { poolSize: 1 });
  try {
    for (;;) {
      const [row] = await probe.query(
        "SELECT count(*) AS n FROM pg_locks WHERE NOT granted AND relation = 'api_keys'::regclass",
      );
      if ((row?.n as number) > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    await probe.close();
  }
}
