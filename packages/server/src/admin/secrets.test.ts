import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, type AdminTestServer, startAdminTestServer } from './testing.js';

/**
 * The admin token never comes back nor reaches a log line, and guessing it is throttled per
 * client address as guessing API keys is (AUTH_FAILURE_LIMIT).
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('the admin token sent as x-request-id', () => {
  let t: AdminTestServer;
  beforeAll(async () => {
    t = await startAdminTestServer({ captureLogs: true });
  });
  afterAll(() => t?.close());

  it('is replaced by a new id on the admin and API hosts, never echoed nor logged', async () => {
    // The test token is a well-formed request id: only its being the token refuses it.
    expect(ADMIN_TOKEN).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
    const answers = [
      await t.admin('GET', '/admin/v1/organizations', { headers: { 'x-request-id': ADMIN_TOKEN } }),
      await t.admin('GET', '/admin/v1/organizations', {
        token: null,
        headers: { 'x-request-id': ADMIN_TOKEN },
      }),
      await t.admin('GET', '/admin/v1/organizations', {
        headers: { 'x-request-id': `trace-${ADMIN_TOKEN}-1` },
      }),
      await t.server.request('/api/v1/health', { headers: { 'x-request-id': ADMIN_TOKEN } }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 401, 200, 200]);
    for (const answer of answers) {
      expect(answer.headers.get('x-request-id')).toMatch(UUID);
      expect(answer.text).not.toContain(ADMIN_TOKEN);
      expect([...answer.headers.values()].join('\n')).not.toContain(ADMIN_TOKEN);
    }
    expect(answers[1]?.body.error.requestId).toBe(answers[1]?.headers.get('x-request-id'));
    expect(JSON.stringify(t.server.logs)).not.toContain(ADMIN_TOKEN);
    // Any other well-formed id is still kept.
    const kept = await t.admin('GET', '/admin/v1/organizations', {
      headers: { 'x-request-id': 'edge-42' },
    });
    expect(kept.headers.get('x-request-id')).toBe('edge-42');
  });
});

describe('wrong admin tokens, with AUTH_FAILURE_LIMIT', () => {
  let t: AdminTestServer;
  beforeAll(async () => {
    // A window of a day: no window ends while the test runs (windows are aligned to the epoch).
    t = await startAdminTestServer({ env: { AUTH_FAILURE_LIMIT: '3/1d', TRUST_PROXY: 'true' } });
  });
  afterAll(() => t?.close());

  const from = (address: string, token: string | null, extra: Record<string, string> = {}) => ({
    token,
    headers: { 'x-forwarded-for': address, ...extra },
  });

  it('refuses every request of an address after 3 wrong tokens with 429 and Retry-After; others carry on', async () => {
    const guesser = '203.0.113.7';
    const neighbour = '198.51.100.9';
    const path = '/admin/v1/organizations';
    // A wrong token and a malformed Authorization header both count; no header does not.
    for (const attempt of [
      from(guesser, 'wrong-token-0123456789abcdefghijklmnop'),
      from(guesser, null, { authorization: 'Basic dXNlcjpwYXNz' }),
      from(guesser, null),
      from(guesser, `${ADMIN_TOKEN}x`),
    ]) {
      const answer = await t.admin('GET', path, attempt);
      expect(answer.status).toBe(401);
      expect(answer.body.error.code).toBe('ADMIN_UNAUTHORIZED');
    }
    // Throttled: even the right token is refused, so a right guess cannot be told apart.
    for (const token of ['still-wrong-0123456789abcdefghijklmnopq', ADMIN_TOKEN]) {
      const refused = await t.admin('POST', path, from(guesser, token));
      expect(refused.status).toBe(429);
      expect(refused.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(refused.body.error).toMatchObject({
        code: 'ADMIN_RATE_LIMITED',
        status: 429,
        requestId: refused.headers.get('x-request-id'),
      });
      expect(refused.body.error.docUrl).toMatch(/\/en\/docs\/admin-api#admin_rate_limited$/);
      expect(refused.body.error.message).toMatch(
        /wrong admin token came from this address \(3 per 86400 s\).*Retry-After/,
      );
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(86_400);
      expect(refused.headers.get('www-authenticate')).toBeNull();
    }
    // Nothing was created by the refused POST.
    const organizations = await t.admin('GET', path, from(neighbour, ADMIN_TOKEN));
    expect(organizations.status).toBe(200);
    expect(organizations.body.data).toHaveLength((await t.server.store.listOrganizations()).length);
    // No token at all is told so, as anywhere.
    expect((await t.admin('GET', path, from(guesser, null))).body.error.code).toBe(
      'ADMIN_UNAUTHORIZED',
    );
    // Another address: its wrong token is just wrong.
    const wrong = await t.admin(
      'GET',
      path,
      from(neighbour, 'nope-0123456789abcdefghijklmnopqrstu'),
    );
    expect(wrong.status).toBe(401);
  });
});

describe('AUTH_FAILURE_LIMIT=none', () => {
  let t: AdminTestServer;
  beforeAll(async () => {
    t = await startAdminTestServer({ env: { AUTH_FAILURE_LIMIT: 'none' } });
  });
  afterAll(() => t?.close());

  it('leaves admin tokens unthrottled', async () => {
    for (let i = 0; i < 40; i++) {
      const answer = await t.admin('GET', '/admin/v1/organizations', { token: `wrong-${i}` });
      expect(answer.status).toBe(401);
    }
    expect((await t.admin('GET', '/admin/v1/organizations')).status).toBe(200);
  });
});
