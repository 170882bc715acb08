import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueKey } from '../packages/server/src/keys/issue.js';
import { RedisRateLimiter } from '../packages/server/src/keys/redis-rate-limit.js';
import { PostgresStore } from '../packages/server/src/store/postgres/postgres-store.js';
import { SqliteStore } from '../packages/server/src/store/sqlite/sqlite-store.js';
import type { Store } from '../packages/server/src/store/types.js';
import { createTestSchema, type TestSchema } from '../packages/server/src/testing/postgres.js';
import {
  type PrivateRedis,
  privateRedis,
  redisServerMissing,
} from '../packages/server/src/testing/redis-server.js';
import {
  type ServeProcess,
  startServeProcess,
} from '../packages/server/src/testing/serve-process.js';
import {
  announceSkip,
  postgresUnavailable,
  testRedisPrefix,
} from '../packages/server/src/testing/services.js';

/**
 * Redis faults against `stockroom serve` (the built binary) in the four configurations: SQLite
 * and PostgreSQL, one process and `--workers 2`, each with a private redis-server that is
 * absent when the server starts, then started, killed, started again, hung (SIGSTOP) and
 * resumed. One server per configuration goes through all three faults.
 *
 * While Redis is away every request of a rate-limited key answers 200 or 401 RATE_LIMITED (the
 * contract's status for it) by the local fallback, which is exact across the server's
 * processes (the primary's counters on SQLite, the database's on PostgreSQL), and promptly: no
 * request, and no health check, waits more than REDIS_DEADLINE_MS (80 ms) for Redis. The bounds below are far below the 5 s (and 503) such requests took
 * before, and generous enough for a loaded machine. Once Redis is back, every process counts
 * into it again: the test counts into the same Redis counter and each process sees it.
 */
const missing = redisServerMissing();
const pgSkip = await postgresUnavailable();

/** A window that never ends during the test (windows are aligned to the epoch). */
const LONG_WINDOW = 86_400 * 3650;
/** Requests of one fault phase, and how many are in flight at once. */
const PHASE_REQUESTS = 120;
const CONCURRENCY = 6;
/** The local limit of the key used during a fault. */
const FAULT_MAX = 20;
/** The limit of the key that proves limits are shared again. */
const SHARED_MAX = 10;
/**
 * Bounds of a fault phase's request times, well under the old behaviour (on SQLite with
 * workers every request waited 5 s and got 503) and generous for a loaded machine (two cores
 * shared with other suites add a few hundred ms at times). The 80 ms bound of a request's wait
 * for Redis itself is checked through the line each process logs when it meets it.
 */
const P99_BOUND_MS = 750;
const MAX_BOUND_MS = 2000;
/** How soon every process must count in Redis again once it is back ("a few seconds"). */
const RECOVERY_BOUND_MS = 5000;

interface Reply {
  status: number;
  code: string | undefined;
  ms: number;
}

/** One GET on a connection of its own: behind a cluster's port, connections go round robin. */
function get(url: string, key?: string): Promise<Reply & { body: Record<string, unknown> }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const request = http.get(
      url,
      { agent: false, headers: key ? { 'x-api-key': key } : {} },
      (response) => {
        let text = '';
        response.setEncoding('utf8').on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () => {
          const body = JSON.parse(text) as Record<string, unknown> & { error?: { code: string } };
          resolve({
            status: response.statusCode as number,
            code: body.error?.code,
            ms: performance.now() - started,
            body,
          });
        });
      },
    );
    request.on('error', reject);
  });
}

/** `total` requests, `concurrency` at a time. */
async function load(url: string, key: string, total: number, concurrency: number) {
  const replies: Reply[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        next += 1;
        replies.push(await get(url, key));
      }
    }),
  );
  return replies;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

/**
 * Polls `condition` until it holds or `timeoutMs` passes, running `step` (or waiting 20 ms)
 * between checks; returns how long it took.
 */
async function until(
  condition: () => boolean,
  timeoutMs: number,
  what: string,
  step: () => Promise<void> = () => new Promise((resolve) => setTimeout(resolve, 20)),
): Promise<number> {
  const started = performance.now();
  while (!condition()) {
    if (performance.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await step();
  }
  return performance.now() - started;
}

const DOWN_LINE = /Redis is unreachable: rate limits fall back/;
const UP_LINE = /Redis is reachable again/;

interface Configuration {
  engine: 'sqlite' | 'postgres';
  workers: number;
}

const CONFIGURATIONS: Configuration[] = [
  { engine: 'sqlite', workers: 1 },
  { engine: 'sqlite', workers: 2 },
  { engine: 'postgres', workers: 1 },
  { engine: 'postgres', workers: 2 },
];

/** What each phase measured, printed at the end (numbers for BENCHMARKS and reports). */
const measured: string[] = [];

for (const configuration of CONFIGURATIONS) {
  const { engine, workers } = configuration;
  const name = `${engine === 'sqlite' ? 'SQLite' : 'PostgreSQL'}, ${workers === 1 ? 'one process' : `--workers ${workers}`}`;
  const reason = missing ?? (engine === 'postgres' ? pgSkip : null);
  describe.skipIf(announceSkip(`Redis faults (${name})`, reason))(`Redis faults: ${name}`, () => {
    let redis: PrivateRedis;
    let server: ServeProcess;
    let store: Store;
    let dir: string | undefined;
    let schema: TestSchema | undefined;
    const prefix = testRedisPrefix();
    /** Faults so far: each process logs one line per fault and one per return. */
    let faults = 0;

    beforeAll(async () => {
      redis = await privateRedis();
      let databaseUrl: string;
      if (engine === 'sqlite') {
        dir = mkdtempSync(path.join(tmpdir(), 'stockroom-redis-faults-'));
        databaseUrl = path.join(dir, 'stockroom.db');
        store = new SqliteStore(databaseUrl);
      } else {
        schema = await createTestSchema();
        databaseUrl = schema.url;
        store = new PostgresStore(schema.url);
      }
      await store.migrate();
      // Redis is absent at start: nothing listens on its port yet.
      server = await startServeProcess(
        {
          DATABASE_URL: databaseUrl,
          DATABASE_POOL_SIZE: '4',
          REDIS_URL: redis.url,
          REDIS_PREFIX: prefix,
          LOG_LEVEL: 'info',
        },
        workers > 1 ? ['--workers', String(workers)] : [],
      );
      // Warm every process up (first lookups, compiled code, pool connections), so the
      // phases measure waiting, not a cold start.
      const warmUp = await newKey(1_000_000);
      await load(`${server.apiUrl}/api/v1/auth/verify`, warmUp.key, 60, CONCURRENCY);
    });

    afterAll(async () => {
      await server?.stop();
      redis?.resume();
      await redis?.kill();
      await store?.close();
      await schema?.drop();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    async function newKey(max: number) {
      const org = await store.createOrganization({
        name: 'Limited',
        slug: `limited-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`,
        features: ['inventory'],
      });
      return issueKey(store, {
        organizationId: org.id,
        rateLimit: { max, windowSeconds: LONG_WINDOW },
      });
    }

    const linesMatching = (pattern: RegExp) => server.lines.filter((l) => pattern.test(l)).length;

    /** Under the fault: every request answers by the local limit, promptly; health says so. */
    async function answersLocally(fault: string): Promise<void> {
      faults += 1;
      const { key, record } = await newKey(FAULT_MAX);
      const url = `${server.apiUrl}/api/v1/auth/verify`;
      const replies = await load(url, key, PHASE_REQUESTS, CONCURRENCY);
      // 200, or the contract's 401 RATE_LIMITED past the limit: never 503, never another error.
      const outcomes = replies.map((r) => (r.status === 200 ? 'ok' : `${r.status} ${r.code}`));
      expect(outcomes.filter((o) => o !== 'ok' && o !== '401 RATE_LIMITED')).toEqual([]);
      // Exact across the server's processes: the fallback is the primary's or the database's.
      expect(outcomes.filter((o) => o === 'ok')).toHaveLength(FAULT_MAX);
      const times = replies.map((r) => r.ms);
      const p50 = percentile(times, 50);
      const p99 = percentile(times, 99);
      const max = Math.max(...times);
      // The server's own time for them (its request log line), for the record.
      const inServer = server.lines.flatMap((line) => {
        if (!line.includes('"msg":"request"') || !line.includes(record.id)) return [];
        const { durationMs } = JSON.parse(line) as { durationMs?: number };
        return typeof durationMs === 'number' ? [durationMs] : [];
      });
      const serverSide =
        inServer.length > 0
          ? `; in the server p99 ${percentile(inServer, 99).toFixed(1)} ms, max ${Math.max(...inServer).toFixed(1)} ms`
          : '';
      measured.push(
        `${name}, Redis ${fault}: ${replies.length} requests, p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${max.toFixed(1)} ms${serverSide}`,
      );
      expect(p99).toBeLessThan(P99_BOUND_MS);
      expect(max).toBeLessThan(MAX_BOUND_MS);

      // Health is degraded, and answers promptly too (whichever process gets it).
      for (let i = 0; i < workers; i++) {
        const health = await get(`${server.apiUrl}/api/v1/health`);
        expect(health.status).toBe(200);
        expect(health.body).toMatchObject({ status: 'degraded', checks: { redis: 'down' } });
        expect(health.ms).toBeLessThan(MAX_BOUND_MS);
      }
      // One line per process for the fault, however many requests met it.
      await until(
        () => linesMatching(DOWN_LINE) >= faults * workers,
        5000,
        'the "Redis is unreachable" lines',
      );
      expect(linesMatching(DOWN_LINE)).toBe(faults * workers);
      if (fault === 'hung') {
        // What each process met was its own 80 ms deadline (the wait of a request for Redis),
        // not a longer timeout: the line names it.
        const lines = server.lines.filter((l) => DOWN_LINE.test(l)).slice(-workers);
        for (const line of lines) expect(line).toMatch(/Redis did not answer [^"]* within 80 ms/);
      }
    }

    /** Redis is back: every process counts into it again, within RECOVERY_BOUND_MS. */
    async function sharedAgain(fault: string, bringBack: () => Promise<void> | void) {
      const started = performance.now();
      await bringBack();
      await until(
        () => linesMatching(UP_LINE) >= faults * workers,
        15_000,
        'the "Redis is reachable again" lines',
      );
      const recoveryMs = performance.now() - started;
      measured.push(
        `${name}, Redis ${fault}: every process shared again ${recoveryMs.toFixed(0)} ms after`,
      );
      expect(recoveryMs).toBeLessThan(RECOVERY_BOUND_MS);
      expect(linesMatching(UP_LINE)).toBe(faults * workers);

      const { key, record } = await newKey(SHARED_MAX);
      const url = `${server.apiUrl}/api/v1/auth/verify`;
      const half = SHARED_MAX / 2;
      // One after the other on fresh connections: round robin puts them on every worker.
      for (let i = 0; i < half; i++) expect((await get(url, key)).status).toBe(200);
      const window = Math.floor(Date.now() / 1000 / LONG_WINDOW);
      const observer = new Redis(redis.url);
      const outside = new RedisRateLimiter(redis.url, { prefix: `${prefix}rl:` });
      try {
        // Every process counted there (none of them is still on its fallback)…
        expect(await observer.get(`${prefix}rl:${record.id}:${LONG_WINDOW}:${window}`)).toBe(
          String(half),
        );
        // …another process (this test) counting into the same limit sees their hits…
        await outside.connect();
        const policy = { max: SHARED_MAX, windowSeconds: LONG_WINDOW };
        const remaining = [];
        for (let i = 0; i < half; i++) {
          remaining.push((await outside.hit(record.organizationId, record.id, policy)).remaining);
        }
        expect(remaining).toEqual([4, 3, 2, 1, 0]);
      } finally {
        observer.disconnect();
        await outside.close();
      }
      // …and every process sees the test's.
      for (let i = 0; i < 2 * workers; i++) {
        const reply = await get(url, key);
        expect([reply.status, reply.code]).toEqual([401, 'RATE_LIMITED']);
      }
      const health = await get(`${server.apiUrl}/api/v1/health`);
      expect(health.body).toMatchObject({ status: 'ok', checks: { redis: 'ok' } });
    }

    it('absent at start: answers by the local limit, then shares limits once Redis starts', async () => {
      await answersLocally('absent at start');
      await sharedAgain('absent at start', () => redis.start());
    });

    it('killed: answers by the local limit, then shares limits once Redis is started again', async () => {
      await redis.kill();
      await answersLocally('killed');
      await sharedAgain('killed', () => redis.start());
    });

    let lastHealth = '';
    it('hung (SIGSTOP): answers by the local limit, then shares limits once Redis resumes', async () => {
      redis.pause();
      // afterAll resumes it if this phase fails.
      // Health alone finds the hang out (its check of Redis is at most a second old), and never
      // waits for Redis longer than a request would.
      const healthTimes: number[] = [];
      await until(
        () => healthTimes.length > 0 && lastHealth === 'degraded',
        10_000,
        'health to report Redis down',
        async () => {
          const health = await get(`${server.apiUrl}/api/v1/health`);
          healthTimes.push(health.ms);
          lastHealth = String(health.body.status);
          if (lastHealth !== 'degraded') await new Promise((resolve) => setTimeout(resolve, 20));
        },
      );
      measured.push(
        `${name}, Redis hung: ${healthTimes.length} health checks until degraded, max ${Math.max(...healthTimes).toFixed(1)} ms`,
      );
      expect(Math.max(...healthTimes)).toBeLessThan(MAX_BOUND_MS);
      await answersLocally('hung');
      await sharedAgain('hung', () => redis.resume());
    });
  });
}

afterAll(() => {
  if (measured.length > 0) console.log(`Redis faults, measured:\n  ${measured.join('\n  ')}`);
});
