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
let orgSlug: string;
let keyId: string;

beforeAll(async () => {
  t = await startAdminTestServer({ captureLogs: true });
  const org = await t.server.createOrganization();
  orgSlug = org.slug;
  keyId = (await t.server.createKey({ organizationId: org.id })).record.id;
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
            .replace('{org}', org === 'ORG' ? orgSlug : org)
            .replace('{key}', key === 'KEY' ? keyId : key);
          const headers: Record<string, string> = { authorization: `Bearer ${ADMIN_TOKEN}` };
          if (contentType !== '' && payload !== undefined) headers['content-type'] = contentType;
          const sendsBody = payload !== undefined && !['GET', 'HEAD'].includes(method);
          const response = await fetch(`${t.adminUrl}${path}${query}`, {
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
