import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { newId } from '../ids.js';
import { SqliteStore } from '../store/sqlite/sqlite-store.js';
import { startTestServer, type TestServer } from '../testing/harness.js';
import { expectApiError } from '../testing/security-suite.js';
import { answerRateLimits, type IpcEndpoint, IpcRateLimiter } from './ipc-rate-limit.js';
import {
  MemoryRateLimiter,
  type RateLimiter,
  RateLimiterUnavailableError,
  windowOf,
} from './rate-limit.js';
import { createRateLimiter } from './rate-limiters.js';

/**
 * The rate limits of a cluster on SQLite: workers ask the primary, which counts for all of
 * them. Here the cluster's IPC is stood in for by a pair of endpoints that deliver messages
 * asynchronously, as process.send does; the cluster itself is exercised end to end in
 * test/scale-out.e2e.test.ts.
 */
const ORG = newId();

/** A worker's `process` and the primary's `Worker`, joined. */
function channel(options: { deliverToPrimary?: boolean } = {}) {
  const toWorker = new EventEmitter();
  const toPrimary = new EventEmitter();
  const worker: IpcEndpoint = {
    send(message, callback) {
      if (options.deliverToPrimary !== false) {
        setImmediate(() => toPrimary.emit('message', structuredClone(message)));
      }
      setImmediate(() => callback?.(null));
      return true;
    },
    on: (event, listener) => toWorker.on(event, listener),
    off: (event, listener) => toWorker.off(event, listener),
  };
  const primary = {
    send(message: unknown, callback?: (error: Error | null) => void) {
      setImmediate(() => toWorker.emit('message', structuredClone(message)));
      setImmediate(() => callback?.(null));
      return true;
    },
    on: (event: 'message', listener: (message: unknown) => void) => toPrimary.on(event, listener),
  };
  return { worker, primary };
}

describe('IpcRateLimiter', () => {
  it('admits exactly max of a concurrent burst from several workers: one process counts', async () => {
    const counters = new MemoryRateLimiter();
    const workers = Array.from({ length: 4 }, () => {
      const { worker, primary } = channel();
      answerRateLimits(primary, counters);
      return new IpcRateLimiter(worker, 5000);
    });
    const key = newId();
    const policy = { max: 50, windowSeconds: 60 };
    const now = Date.now();
    const results = await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        (workers[i % 4] as IpcRateLimiter).hit(ORG, key, policy, now),
      ),
    );
    expect(results.filter((r) => r.allowed)).toHaveLength(50);
    expect(new Set(results.filter((r) => r.allowed).map((r) => r.remaining)).size).toBe(50);
    // Window and all, as the primary's counters say.
    const { reset } = windowOf(policy, now);
    expect(results.every((r) => r.limit === 50 && r.reset === reset)).toBe(true);
    await Promise.all(workers.map((w) => w.close()));
  });

  it('fails closed when the primary does not answer within the deadline', async () => {
    const { worker } = channel({ deliverToPrimary: false });
    const limiter = new IpcRateLimiter(worker, 100);
    await expect(limiter.hit(ORG, newId(), { max: 5, windowSeconds: 60 })).rejects.toThrow(
      new RateLimiterUnavailableError(
        'the cluster primary did not answer a rate-limit request within 100 ms',
      ),
    );
    await limiter.close();
  });

  it('fails closed at once when the channel to the primary is closed', async () => {
    const closed: IpcEndpoint = {
      send() {
        throw Object.assign(new Error('Channel closed'), { code: 'ERR_IPC_CHANNEL_CLOSED' });
      },
      on: () => {},
      off: () => {},
    };
    const reported: IpcEndpoint = {
      send(_message, callback) {
        setImmediate(() => callback?.(new Error('write EPIPE')));
        return false;
      },
      on: () => {},
      off: () => {},
    };
    for (const [endpoint, reason] of [
      [closed, 'Channel closed'],
      [reported, 'write EPIPE'],
      [{ on: () => {}, off: () => {} }, 'no cluster primary'],
    ] as const) {
      // A deadline far away: the failure must come from the channel, not from the timer.
      const limiter = new IpcRateLimiter(endpoint, 60_000);
      await expect(limiter.hit(ORG, newId(), { max: 5, windowSeconds: 60 })).rejects.toThrow(
        reason,
      );
      await limiter.close();
    }
  });
});

describe('a worker whose primary does not answer', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ engine: 'sqlite' });
  });
  afterAll(() => server?.close());

  it('answers 503 SERVICE_UNAVAILABLE with Retry-After for a rate-limited key, and spends no quota', async () => {
    const { key, record } = await server.createKey({
      organizationId: server.demo.organizationId,
      remaining: 5,
      rateLimit: { max: 100, windowSeconds: 60 },
    });
    const services = server.server.services;
    const original = services.rateLimiter;
    services.rateLimiter = new IpcRateLimiter(channel({ deliverToPrimary: false }).worker, 100);
    try {
      const response = await server.request('/api/v1/inventory/items?limit=1', { key });
      expectApiError(response, 503, 'SERVICE_UNAVAILABLE');
      expect(response.headers.get('retry-after')).toBe('1');
      expect(await server.store.getRemaining(record.id)).toBe(5);
    } finally {
      await services.rateLimiter.close();
      services.rateLimiter = original;
    }
    expect((await server.request('/api/v1/inventory/items?limit=1', { key })).status).toBe(200);
  });
});

describe('workers of a cluster on SQLite whose Redis is down', () => {
  it('fall back to the primary: a concurrent burst over 4 workers still admits exactly max', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'stockroom-fallback-'));
    // Nothing listens on port 1: every Redis command fails, so each worker uses its fallback.
    const config = loadConfig({
      DATABASE_URL: path.join(dir, 'stockroom.db'),
      REDIS_URL: 'redis://127.0.0.1:1',
    });
    const store = new SqliteStore(config.databaseUrl);
    const counters = new MemoryRateLimiter();
    const quiet = { warn() {}, info() {} };
    const workers = await Promise.all(
      Array.from({ length: 4 }, () => {
        const { worker, primary } = channel();
        answerRateLimits(primary, counters);
        return createRateLimiter(config, store, quiet, { primary: worker });
      }),
    );
    try {
      const key = newId();
      const policy = { max: 50, windowSeconds: 60 };
      const now = Date.now();
      const results = await Promise.all(
        Array.from({ length: 300 }, (_, i) =>
          (workers[i % 4] as RateLimiter).hit(ORG, key, policy, now),
        ),
      );
      expect(results.filter((r) => r.allowed)).toHaveLength(50);
    } finally {
      await Promise.all(workers.map((w) => w.close()));
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
