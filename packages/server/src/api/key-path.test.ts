import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hasRateLimitCounters } from '../keys/db-rate-limit.js';
import { startTestServer, type TestEngineName, type TestServer } from '../testing/harness.js';
import { announceSkip, postgresUnavailable, redisUnavailable } from '../testing/services.js';
import { countStoreCalls } from '../testing/store-calls.js';

/**
 * The cost of the key path in database calls (issue 6): a cached key is verified without a
 * read, last use is recorded in batches, a key without a quota costs no write per request when
 * its rate limit lives in memory, in the cluster primary or in Redis, and a key with a quota
 * costs exactly one (the atomic charge). Counted on the server's real store: every method call
 * is tallied by name, nothing is replaced.
 */

/**
 * SQLite counts rate limits in memory; PostgreSQL in its own table without Redis (the one
 * engine where a rate limit costs a write) and in Redis with it.
 */
const [pgMissing, redisMissing] = await Promise.all([postgresUnavailable(), redisUnavailable()]);
const legs: Array<{ name: string; engine: TestEngineName; redis: boolean }> = [
  { name: 'SQLite', engine: 'sqlite', redis: false },
];
if (!announceSkip('the key path on PostgreSQL', pgMissing)) {
  legs.push({ name: 'PostgreSQL', engine: 'postgres', redis: false });
  if (!announceSkip('the key path on PostgreSQL with Redis', redisMissing)) {
    legs.push({ name: 'PostgreSQL with Redis', engine: 'postgres', redis: true });
  }
}

describe.each(legs)('the key path on $name', (leg) => {
  let server: TestServer;
  let calls: Map<string, number>;

  /** Store calls made since the last reset, without the timers' own (usage flush, sweeps). */
  function requestCalls(): Record<string, number> {
    const counted: Record<string, number> = {};
    for (const [name, n] of calls) {
      if (name === 'recordKeyUse' || name === 'sweepRateLimitCounters') continue;
      counted[name] = n;
    }
    return counted;
  }

  beforeAll(async () => {
    // A key cache that outlives the test, so "cached" does not depend on how fast it runs.
    server = await startTestServer({
      keyCacheTtlMs: 60_000,
      engine: leg.engine,
      redis: leg.redis,
    });
    ({ calls } = countStoreCalls(server.store));
  });
  afterAll(() => server?.close());
  beforeEach(() => calls.clear());

  const N = 40;

  async function detailRequests(key: string): Promise<void> {
    for (let i = 0; i < N; i++) {
      const response = await server.request(
        `/api/v1/inventory/item?itemId=${server.demo.itemId}&fields=_id`,
        { key },
      );
      expect(response.status).toBe(200);
    }
  }

  it('verifies a cached key without reading it again and writes nothing per request', async () => {
    const { key } = await server.createKey({
      organizationId: server.demo.organizationId,
      rateLimit: null,
    });
    calls.clear();
    await detailRequests(key);
    expect(requestCalls()).toEqual({ loadKeyContext: 1, getItem: N });
  });

  it('keeps a rate limit off the database unless the database holds the counters', async () => {
    const { key } = await server.createKey({
      organizationId: server.demo.organizationId,
      rateLimit: { max: 1_000_000, windowSeconds: 60 },
    });
    calls.clear();
    await detailRequests(key);
    const expected: Record<string, number> = { loadKeyContext: 1, getItem: N };
    // PostgreSQL without Redis counts in its own table (one upsert per request, by design);
    // SQLite counts in memory, and PostgreSQL with REDIS_URL in Redis.
    const databaseCounters =
      server.server.services.config.redisUrl === undefined && hasRateLimitCounters(server.store);
    if (databaseCounters) expected.incrementRateLimitCounter = N;
    expect(requestCalls()).toEqual(expected);
  });

  it('charges a key with a quota with exactly one write per request', async () => {
    const { key } = await server.createKey({
      organizationId: server.demo.organizationId,
      rateLimit: null,
      remaining: 1_000,
    });
    calls.clear();
    await detailRequests(key);
    expect(requestCalls()).toEqual({ loadKeyContext: 1, getItem: N, consumeQuota: N });
  });

  it('records last use in one batch for many requests', async () => {
    const { key, record } = await server.createKey({
      organizationId: server.demo.organizationId,
      rateLimit: null,
    });
    await detailRequests(key);
    calls.clear();
    await server.server.services.usage.flush();
    expect(calls.get('recordKeyUse')).toBe(1);
    const stored = await server.store.getApiKey(record.id);
    expect(stored?.lastUsedAt).not.toBeNull();
  });
});
