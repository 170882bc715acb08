import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checksum, generateKey } from '../keys/format.js';
import { startTestServer, type TestServer } from '../testing/harness.js';
import { expectApiError } from '../testing/security-suite.js';
import { countStoreCalls } from '../testing/store-calls.js';

/**
 * Brute force: keys are checked for format and checksum before any lookup, and an address that
 * sends too many invalid keys (AUTH_FAILURE_LIMIT) is refused every keyed request, without a
 * key lookup, until the window ends; other addresses carry on.
 */
const ITEMS = '/api/v1/inventory/items?limit=1';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A key of the right shape whose checksum is wrong (the right one with its first character changed). */
function wrongChecksumKey(): string {
  const { key } = generateKey('organization');
  const body = key.slice(0, -6);
  const right = checksum(body);
  const wrong = (right[0] === '0' ? '1' : '0') + right.slice(1);
  return body + wrong;
}

function from(address: string, key?: string, extra: Record<string, string> = {}) {
  return {
    headers: {
      'x-forwarded-for': address,
      ...(key === undefined ? {} : { 'x-api-key': key }),
      ...extra,
    },
  };
}

describe('a flood of invalid keys', () => {
  let server: TestServer;
  beforeAll(async () => {
    // No throttle here: every one of these keys must be refused by its format or checksum.
    // The webhook dispatcher polls every 10 ms, so its background work surely runs while the
    // calls are counted: it must not be mistaken for a request's (it once was on PostgreSQL).
    server = await startTestServer({
      env: { AUTH_FAILURE_LIMIT: 'none', WEBHOOK_POLL_INTERVAL: '10ms' },
    });
  });
  afterAll(() => server.close());

  it('never reaches the database: malformed keys and wrong checksums are refused before any lookup', async () => {
    const counter = countStoreCalls(server.store);
    try {
      // Control: a well-formed key of valid checksum is looked up (the counter sees it).
      await server.request(ITEMS, { key: generateKey('user').key });
      expect(counter.calls.get('loadKeyContext')).toBe(1);
      counter.reset();
      const keys: string[] = [];
      for (let i = 0; i < 300; i++) keys.push(wrongChecksumKey());
      for (let i = 0; i < 50; i++) {
        const random = Array.from({ length: 38 }, (_, j) => BASE62[(i * 7 + j * 13) % 62]).join('');
        keys.push(`sr_usr_${random}`, `sr_org_${random.slice(0, 30)}`, `SR_ORG_${random}`);
      }
      for (let i = 0; i < keys.length; i += 50) {
        const replies = await Promise.all(
          keys
            .slice(i, i + 50)
            .map((key, j) =>
              server.request(
                ITEMS,
                j % 2 ? { key } : { headers: { authorization: `Bearer ${key}` } },
              ),
            ),
        );
        for (const reply of replies) expectApiError(reply, 401, 'INVALID_API_KEY');
      }
      expect(Object.fromEntries(counter.calls)).toEqual({});
    } finally {
      counter.restore();
    }
  });
});

describe('AUTH_FAILURE_LIMIT with TRUST_PROXY', () => {
  let server: TestServer;
  beforeAll(async () => {
    // A window of a day: no window ends while the test runs (windows are aligned to the epoch).
    server = await startTestServer({ env: { AUTH_FAILURE_LIMIT: '5/1d', TRUST_PROXY: 'true' } });
  });
  afterAll(() => server.close());

  it('refuses every keyed request of an address after 5 invalid keys, without looking the key up; other addresses carry on', async () => {
    const attacker = '203.0.113.7';
    const neighbour = '198.51.100.9';
    const revoked = await server.createKey({ organizationId: server.demo.organizationId });
    await server.store.revokeApiKey(revoked.record.id);
    // Every kind of invalid key counts: malformed, wrong checksum, unknown, revoked, and a
    // malformed Authorization header.
    const attempts = [
      from(attacker, 'not-a-key'),
      from(attacker, wrongChecksumKey()),
      from(attacker, generateKey('organization').key),
      from(attacker, revoked.key),
      from(attacker, undefined, { authorization: 'Basic dXNlcjpwYXNz' }),
    ];
    for (const attempt of attempts) {
      expectApiError(await server.request(ITEMS, attempt), 401, 'INVALID_API_KEY');
    }
    // A key that works, never used before: any lookup would reach the store.
    const { key } = await server.createKey({ organizationId: server.demo.organizationId });
    const counter = countStoreCalls(server.store);
    let refused: Awaited<ReturnType<TestServer['request']>>;
    try {
      refused = await server.request(ITEMS, from(attacker, key));
      expect(Object.fromEntries(counter.calls)).toEqual({});
    } finally {
      counter.restore();
    }
    expectApiError(refused, 401, 'RATE_LIMITED');
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(86_400);
    expect(refused.body.error.message).toMatch(/invalid API key.*this address.*5 per 86400 s/);
    // No key lookup, so no rate-limit headers of a key either.
    expect(refused.headers.get('x-ratelimit-limit')).toBeNull();
    // Every keyed route, any key this server has not accepted yet, from that address.
    for (const path of ['/api/v1/auth/verify', '/api/v1/organization']) {
      expectApiError(await server.request(path, from(attacker, key)), 401, 'RATE_LIMITED');
    }
    expectApiError(await server.request(ITEMS, from(attacker, 'not-a-key')), 401, 'RATE_LIMITED');
    // No key at all is not a guess: it is told so, as anywhere.
    expectApiError(await server.request(ITEMS, from(attacker)), 401, 'MISSING_API_KEY');
    // A key the server has already accepted (here: the demo key) still works from the address,
    // so a client behind the same NAT as the guesser carries on.
    expect((await server.request(ITEMS, from(neighbour, server.demo.key))).status).toBe(200);
    expect((await server.request(ITEMS, from(attacker, server.demo.key))).status).toBe(200);
    // Health needs no key: it is not throttled.
    expect((await server.request('/api/v1/health', from(attacker))).status).toBe(200);
    // Another address is unaffected: its valid key works, its invalid key is just invalid.
    expect((await server.request(ITEMS, from(neighbour, key))).status).toBe(200);
    expectApiError(await server.request(ITEMS, from(neighbour, 'nope')), 401, 'INVALID_API_KEY');
  });

  it('does not count missing keys or keys refused for another reason', async () => {
    const address = '192.0.2.44';
    const disabled = await server.createKey({ organizationId: server.demo.organizationId });
    await server.store.setApiKeyEnabled(disabled.record.id, false);
    for (let i = 0; i < 8; i++) {
      expectApiError(await server.request(ITEMS, from(address)), 401, 'MISSING_API_KEY');
      expectApiError(await server.request(ITEMS, from(address, disabled.key)), 401, 'KEY_DISABLED');
    }
    expect((await server.request(ITEMS, from(address, server.demo.key))).status).toBe(200);
  });
});

describe('AUTH_FAILURE_LIMIT without TRUST_PROXY', () => {
  it('ignores X-Forwarded-For: the address is the connection’s, so a forged header evades nothing', async () => {
    const server = await startTestServer({ env: { AUTH_FAILURE_LIMIT: '3/1d' } });
    try {
      for (let i = 0; i < 3; i++) {
        expectApiError(
          await server.request(ITEMS, from(`203.0.113.${i}`, 'not-a-key')),
          401,
          'INVALID_API_KEY',
        );
      }
      expectApiError(
        await server.request(ITEMS, from('198.51.100.1', server.demo.key)),
        401,
        'RATE_LIMITED',
      );
    } finally {
      await server.close();
    }
  });

  it('is off with none: invalid keys never throttle an address', async () => {
    const server = await startTestServer({ env: { AUTH_FAILURE_LIMIT: 'none' } });
    try {
      for (let i = 0; i < 40; i++) {
        expectApiError(await server.request(ITEMS, { key: 'not-a-key' }), 401, 'INVALID_API_KEY');
      }
      expect((await server.request(ITEMS, { key: server.demo.key })).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
