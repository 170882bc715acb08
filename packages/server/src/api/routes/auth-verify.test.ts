import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness.js';
import {
  expectApiError,
  KEYED_ROUTES,
  keyedRouteSecuritySuite,
} from '../../testing/security-suite.js';

keyedRouteSecuritySuite(KEYED_ROUTES.verify);

describe('GET /api/v1/auth/verify', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('describes the key without its secret or hash', async () => {
    const { key, record } = await server.createKey({
      organizationId: server.demo.organizationId,
      name: 'ERP sync',
      remaining: 10,
      expiresAt: Date.parse('2099-01-01T00:00:00.000Z'),
      rateLimit: { max: 100, windowSeconds: 60 },
    });
    const response = await server.request('/api/v1/auth/verify', { key });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      valid: true,
      key: {
        id: record.id,
        name: 'ERP sync',
        type: 'organization',
        prefix: key.slice(0, 11),
        organizationId: server.demo.organizationId,
        userId: null,
        permissions: ['inventory:view'],
        expiresAt: '2099-01-01T00:00:00.000Z',
        remaining: 10,
        rateLimit: { max: 100, windowSeconds: 60 },
        createdAt: new Date(record.createdAt).toISOString(),
        view: null,
      },
    });
    expect(response.text).not.toContain(key);
    expect(response.text).not.toContain(record.hash);
  });

  it('describes a user key', async () => {
    const user = await server.createUser(server.demo.organizationId);
    const { key } = await server.createKey({
      organizationId: server.demo.organizationId,
      userId: user.id,
      permissions: [],
      rateLimit: null,
    });
    const response = await server.request('/api/v1/auth/verify', {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(response.status).toBe(200);
    expect(response.body.key).toMatchObject({
      type: 'user',
      userId: user.id,
      permissions: [],
      rateLimit: null,
      remaining: null,
    });
    expect(response.headers.get('x-ratelimit-limit')).toBeNull();
  });

  it('spends no quota and reports the uses left now', async () => {
    const { key } = await server.createKey({
      organizationId: server.demo.organizationId,
      remaining: 2,
    });
    for (let i = 0; i < 3; i++) {
      const response = await server.request('/api/v1/auth/verify', { key });
      expect(response.body.key.remaining).toBe(2);
    }
    expect((await server.request('/api/v1/organization', { key })).status).toBe(200);
    expect((await server.request('/api/v1/auth/verify', { key })).body.key.remaining).toBe(1);
  });

  it('counts toward the rate limit', async () => {
    const { key } = await server.createKey({
      organizationId: server.demo.organizationId,
      rateLimit: { max: 1, windowSeconds: 3600 },
    });
    expect((await server.request('/api/v1/auth/verify', { key })).status).toBe(200);
    expectApiError(await server.request('/api/v1/organization', { key }), 401, 'RATE_LIMITED');
  });

  it('answers for a key whose stored expiry no date can show, far ahead or far behind', async () => {
    // What `key create --expires-in 999999999d` stored before the CLI bounded expiries.
    const { key: far } = await server.createKey({
      organizationId: server.demo.organizationId,
      expiresAt: Date.now() + 999_999_999 * 86_400_000,
    });
    const verified = await server.request('/api/v1/auth/verify', { key: far });
    expect(verified.status).toBe(200);
    expect(verified.body.key.expiresAt).toBe('9999-12-31T23:59:59.999Z');
    const { key: past } = await server.createKey({
      organizationId: server.demo.organizationId,
      expiresAt: -1e17,
    });
    const expired = await server.request('/api/v1/auth/verify', { key: past });
    expectApiError(expired, 401, 'KEY_EXPIRED');
    expect(expired.body.error.message).toContain('0000-01-01T00:00:00.000Z');
  });

  it('accepts no query parameters', async () => {
    const response = await server.request('/api/v1/auth/verify?organizationId=abc', {
      key: server.demo.key,
    });
    expectApiError(response, 400, 'UNKNOWN_PARAMETER');
    expect(response.body.error.param).toBe('organizationId');
  });
});
