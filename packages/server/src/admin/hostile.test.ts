import net from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_ERROR_CODES, ADMIN_ERROR_STATUS, type AdminErrorCode } from './errors.js';
import { ADMIN_TOKEN, type AdminTestServer, startAdminTestServer } from './testing.js';

/**
 * Hostile input, property-based, against the admin host of a real server: arbitrary methods,
 * paths built from the route templates with arbitrary segments, query strings, content types
 * and JSON bodies, with the right token. Whatever comes in: never a 5xx; every error is the
 * envelope with a code of the closed set that matches the status; no answer and no log line
 * carries the token. fast-check prints the seed and the shrunk counterexample of a failure.
 */

const TEMPLATES = [
  '/admin/v1/organizations',
  '/admin/v1/organizations/{org}',
  '/admin/v1/organizations/{org}/keys',
  '/admin/v1/organizations/{org}/keys/{key}',
  '/admin/v1/organizations/{org}/keys/{key}/disable',
  '/admin/v1/organizations/{org}/keys/{key}/enable',
  '/admin/v1/organizations/{org}/keys/{key}/revoke',
  '/admin/v1/organizations/{org}/keys/{key}/rotate',
  '/admin/v1/organizations/{org}/items/bulk-upsert',
  '/admin/v1/organizations/{org}/items/bulk-delete',
  '/admin/v1/openapi.json',
  '/admin/v1/nowhere',
];
const METHODS = ['GET', 'HEAD', 'POST', 'POST', 'POST', 'PATCH', 'DELETE', 'PUT', 'OPTIONS'];
const QUERIES = [
  '',
  '?dryRun=true',
  '?dryRun=maybe',
  '?mode=per-row',
  '?mode=x&mode=y',
  '?x=1',
  '?__proto__=1',
];
const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/x-www-form-urlencoded',
  '',
];
const RUNS = 300;

let t: AdminTestServer;
/** The organization of the blocks after the fuzz. */
let orgSlug: string;
/** The fuzz's own: its random requests may delete it (DELETE with no query or a dry run of "maybe"). */
let fuzzedSlug: string;
let keyId: string;
let fuzzedKeyId: string;

beforeAll(async () => {
  t = await startAdminTestServer({ captureLogs: true });
  const org = await t.server.createOrganization();
  orgSlug = org.slug;
  keyId = (await t.server.createKey({ organizationId: org.id })).record.id;
  const fuzzed = await t.server.createOrganization();
  fuzzedSlug = fuzzed.slug;
  fuzzedKeyId = (await t.server.createKey({ organizationId: fuzzed.id })).record.id;
});
afterAll(() => t?.close());

const segment = fc.oneof(
  fc.constantFrom(
    'ORG',
    'KEY',
    'demo-outfitters',
    '0123456789abcdef01234567',
    '%00',
    '%zz',
    '..',
    '',
  ),
  fc.string({ maxLength: 30 }).map((s) => encodeURIComponent(s)),
);

const body = fc.oneof(
  fc.constant(undefined),
  fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)),
  fc
    .record(
      {
        name: fc.oneof(fc.string(), fc.integer(), fc.constant(null)),
        slug: fc.oneof(fc.string(), fc.constant('ok-slug')),
        features: fc.array(fc.string(), { maxLength: 3 }),
        permissions: fc.array(fc.constantFrom('inventory:view', 'x', ''), { maxLength: 2 }),
        expiresIn: fc.constantFrom('1d', '0d', 'soon', '99999999999d'),
        rateLimit: fc.constantFrom('none', '1/1s', '0/1m', 'x'),
        remaining: fc.oneof(fc.integer(), fc.double()),
        ids: fc.array(fc.string(), { maxLength: 3 }),
        skus: fc.array(fc.string(), { maxLength: 3 }),
        grace: fc.constantFrom('1h', '91d', ''),
      },
      { requiredKeys: [] },
    )
    .map((value) => JSON.stringify(value)),
  fc
    .array(
      fc.record(
        {
          name: fc.string(),
          sku: fc.oneof(fc.string({ maxLength: 5 }), fc.constant(null)),
          quantity: fc.oneof(fc.double(), fc.string()),
          status: fc.constantFrom('Active', 'active', 'Draft'),
          customFields: fc.jsonValue({ maxDepth: 2 }),
        },
        { requiredKeys: [] },
      ),
      { maxLength: 5 },
    )
    .map((value) => JSON.stringify(value)),
  fc.constantFrom('{', '{"a":', '\u0000', '{"__proto__":{"x":1}}', '[1,2'),
);

describe('the admin host under arbitrary requests', () => {
  it('never answers 5xx, and every error is an envelope with a code of its status', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...METHODS),
        fc.constantFrom(...TEMPLATES),
        segment,
        segment,
        fc.constantFrom(...QUERIES),
        fc.constantFrom(...CONTENT_TYPES),
        body,
        async (method, template, org, key, query, contentType, payload) => {
          const path = template
            .replace('{org}', org === 'ORG' ? fuzzedSlug : org)
            .replace('{key}', key === 'KEY' ? fuzzedKeyId : key);
          const headers: Record<string, string> = { authorization: `Bearer ${ADMIN_TOKEN}` };
          if (contentType !== '' && payload !== undefined) headers['content-type'] = contentType;
          const sendsBody = payload !== undefined && !['GET', 'HEAD'].includes(method);
          const response = await t.fetch(`${t.adminUrl}${path}${query}`, {
            method,
            headers,
            ...(sendsBody ? { body: payload } : {}),
          });
          const text = await response.text();
          expect(response.status, `${method} ${path}${query} ${payload}`).toBeLessThan(500);
          expect(text).not.toContain(ADMIN_TOKEN);
          if (response.status >= 400 && method !== 'HEAD') {
            const error = JSON.parse(text).error as { code: AdminErrorCode; status: number };
            expect(ADMIN_ERROR_CODES).toContain(error.code);
            expect(ADMIN_ERROR_STATUS[error.code]).toBe(response.status);
            expect(error.status).toBe(response.status);
          }
        },
      ),
      { numRuns: RUNS },
    );
    expect(JSON.stringify(t.server.logs)).not.toContain(ADMIN_TOKEN);
  });
});

/** customFields nested `depth` levels deep (customFields itself is level 1). */
function nested(depth: number): string {
  return `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`;
}

describe('the bulk upsert and deeply nested customFields', () => {
  const upsert = (query: string, raw: string) =>
    t.admin('POST', `/admin/v1/organizations/${orgSlug}/items/bulk-upsert${query}`, {
      raw,
      headers: { 'content-type': 'application/json' },
    });

  it('answers 400 naming the row, the field and the limit, in every mode, dry run included, and writes nothing', async () => {
    const org = await t.server.store.findOrganization(orgSlug);
    const before = await t.server.store.listItems(org?.id as string, { limit: 1000 });
    // About 4,200 levels: a 9 KB body.
    const body = `[{"sku":"OK-1","name":"Fine"},{"sku":"DEEP","name":"Deep","customFields":${nested(4200)}}]`;
    expect(body.length).toBeLessThan(40_000);
    for (const query of ['', '?mode=per-row', '?dryRun=true', '?mode=per-row&dryRun=true']) {
      const answer = await upsert(query, body);
      expect(answer.status, query).toBe(400);
      expect(answer.body.error).toMatchObject({
        code: 'INVALID_REQUEST',
        status: 400,
        param: 'body[1].customFields',
        message:
          "Row 1: customFields nests objects and arrays more than 32 levels deep; the maximum is 32 (customFields itself is level 1). Nothing was written; flatten the row's customFields and send the request again.",
      });
    }
    // 33 levels is one too many; 32 is fine.
    const one = await upsert('', `[{"sku":"D33","name":"D","customFields":${nested(33)}}]`);
    expect(one.body.error.param).toBe('body[0].customFields');
    expect(await t.server.store.listItems(org?.id as string, { limit: 1000 })).toEqual(before);
    const ok = await upsert(
      '?dryRun=true',
      `[{"sku":"D32","name":"D","customFields":${nested(32)}}]`,
    );
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ committed: false, created: 1, failed: 0 });
  });

  it('names a too-deep value of another field by its type in the row reason', async () => {
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    const answer = await upsert('?dryRun=true', `[{"name":"Deep","quantity":${deep}}]`);
    expect(answer.status).toBe(422);
    expect(answer.body.result.rows).toEqual([
      {
        index: 0,
        sku: null,
        outcome: 'failed',
        reason: 'quantity must be a finite number, got an array',
      },
    ]);
  });
});

describe('names the admin host echoes in errors', () => {
  it('cuts unknown fields and query parameters at 100 characters, with their length', async () => {
    const long = `x${'y'.repeat(5000)}`;
    const cut = `x${'y'.repeat(99)}…`;
    const field = await t.admin('POST', '/admin/v1/organizations', {
      json: { name: 'N', slug: 'n-long', [long]: 1 },
    });
    expect(field.status).toBe(400);
    expect(field.body.error.param).toBe(`${cut} (5001 characters)`);
    expect(field.body.error.message).toMatch(
      new RegExp(`^Unknown field "${cut}" \\(5001 characters\\); this endpoint accepts: `),
    );
    const query = await t.admin(
      'POST',
      `/admin/v1/organizations/${orgSlug}/items/bulk-upsert?${long}=1`,
      { json: [] },
    );
    expect(query.status).toBe(400);
    expect(query.body.error.param).toBe(`${cut} (5001 characters)`);
    expect(query.body.error.message).toMatch(
      new RegExp(`^Unknown query parameter "${cut}" \\(5001 characters\\); `),
    );
    const row = await t.admin(
      'POST',
      `/admin/v1/organizations/${orgSlug}/items/bulk-upsert?dryRun=true`,
      { json: [{ name: 'A', [long]: 1 }] },
    );
    expect(row.status).toBe(422);
    expect(row.body.result.rows[0].reason).toMatch(
      new RegExp(`^unknown field "${cut}" \\(5001 characters\\); allowed: `),
    );
    expect(await t.server.store.findOrganization('n-long')).toBeNull();
  });
});

/** One request written to a socket as given; resolves with the whole answer once it closes. */
function rawExchange(url: string, text: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(text));
    let answer = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      answer += chunk;
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(answer));
  });
}

describe('request ids and CONNECT on the admin host', () => {
  it('replaces a key-shaped x-request-id, and never logs or echoes it', async () => {
    const key = (
      await t.server.createKey({ organizationId: (await t.server.createOrganization()).id })
    ).key;
    const answer = await t.admin('GET', '/admin/v1/organizations', {
      headers: { 'x-request-id': key },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const refused = await t.admin('GET', '/admin/v1/nowhere', {
      headers: { 'x-request-id': `req:${key}` },
    });
    expect(refused.body.error.requestId).toBe(refused.headers.get('x-request-id'));
    expect(refused.text).not.toContain(key.slice(0, 16));
    expect(JSON.stringify(t.server.logs)).not.toContain(key.slice(0, 16));
  });

  it('answers CONNECT with 401 without the token, and a JSON 405 with Allow with it', async () => {
    // CONNECT as a proxy client sends it, on a socket: a listening server of its own.
    const listening = await startAdminTestServer({ captureLogs: true, listen: true });
    try {
      await connectAnswers(listening);
    } finally {
      await listening.close();
    }
  });
});

async function connectAnswers(t: AdminTestServer): Promise<void> {
  {
    const request = (auth: string) =>
      rawExchange(
        t.adminUrl,
        `CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\nx-request-id: admin-connect${auth === '' ? '' : '-2'}\r\n${auth}\r\n`,
      );
    const without = await request('');
    expect(without.split('\r\n')[0]).toBe('HTTP/1.1 401 Unauthorized');
    expect(without).toContain('\r\nwww-authenticate: Bearer realm="stockroom-admin"\r\n');
    expect(JSON.parse(without.split('\r\n\r\n')[1] as string).error.code).toBe(
      'ADMIN_UNAUTHORIZED',
    );
    const withToken = await request(`Authorization: Bearer ${ADMIN_TOKEN}\r\n`);
    const [head = '', body = ''] = withToken.split('\r\n\r\n');
    expect(head.split('\r\n')[0]).toBe('HTTP/1.1 405 Method Not Allowed');
    expect(head).toContain('\r\nallow: GET, HEAD, POST, PATCH, DELETE\r\n');
    expect(head).toContain('\r\ncache-control: no-store\r\n');
    expect(JSON.parse(body).error).toMatchObject({
      code: 'METHOD_NOT_ALLOWED',
      status: 405,
      requestId: 'admin-connect-2',
      message:
        'CONNECT is not allowed: the admin API is not a proxy; use GET, HEAD, POST, PATCH, DELETE on its endpoints under /admin/v1/.',
    });
    expect(withToken).not.toContain(ADMIN_TOKEN);
    expect(t.server.logs.filter((line) => line.requestId === 'admin-connect-2')).toMatchObject([
      { msg: 'request', method: 'CONNECT', status: 405 },
    ]);
  }
}

describe('deeply nested bodies on every admin route', () => {
  it('never answers 5xx, whatever field holds 5,000 levels', async () => {
    const deepObject = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
    const deepArray = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    const bodies = [deepObject, deepArray];
    for (const deep of [deepObject, deepArray]) {
      for (const name of ['name', 'slug', 'features', 'permissions', 'ids', 'skus', 'x']) {
        bodies.push(`{"${name}":${deep}}`, `[{"${name}":${deep}}]`);
      }
      bodies.push(`[{"name":"A","customFields":{"a":${deep}}}]`);
    }
    const paths = TEMPLATES.map((template) =>
      template.replace('{org}', orgSlug).replace('{key}', keyId),
    );
    for (const path of paths) {
      // Not DELETE: the organization's takes no body, and would go.
      for (const method of ['POST', 'PATCH', 'PUT']) {
        for (const raw of bodies) {
          const answer = await t.admin(method, path, {
            raw,
            headers: { 'content-type': 'application/json' },
          });
          const what = `${method} ${path} ${raw.slice(0, 30)}`;
          expect(answer.status, what).toBeLessThan(500);
          if (answer.status >= 400) expect(answer.body.error.status, what).toBe(answer.status);
        }
      }
    }
  });
});
