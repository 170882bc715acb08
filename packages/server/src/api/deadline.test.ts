import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/harness.js';
import { expectApiError } from '../testing/security-suite.js';

/**
 * A database that does not answer within its deadline (SQLite busy_timeout, PostgreSQL
 * statement_timeout, both DATABASE_TIMEOUT_MS) gives 503 SERVICE_UNAVAILABLE with Retry-After,
 * never a 500 or a hang. The lock is held by another connection until the test releases it.
 */
describe('a database past its deadline', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { DATABASE_TIMEOUT_MS: '300' } });
  });
  afterAll(() => server.close());

  it('answers 503 SERVICE_UNAVAILABLE with Retry-After, and spends no quota', async () => {
    const { key, record } = await server.createKey({
      organizationId: server.demo.organizationId,
      remaining: 5,
      rateLimit: null,
    });
    const release = await server.lockWrites();
    let response: Awaited<ReturnType<TestServer['request']>>;
    try {
      // Reads go on; taking a use of the quota is a write, and waits for the lock.
      response = await server.request('/api/v1/inventory/items?limit=1', { key });
    } finally {
      await release();
    }
    expectApiError(response, 503, 'SERVICE_UNAVAILABLE');
    expect(response.headers.get('retry-after')).toBe('1');
    expect(response.text).not.toMatch(/SQLITE|busy|timeout|statement|UPDATE|api_keys/i);
    expect(await server.store.getRemaining(record.id)).toBe(5);
    expect((await server.request('/api/v1/inventory/items?limit=1', { key })).status).toBe(200);
  });
});
