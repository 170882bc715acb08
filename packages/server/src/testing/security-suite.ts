import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseView } from '../domain/view.js';
import { generateKey } from '../keys/format.js';
import { cliActor } from '../operations/audit.js';
import { updateKeyView } from '../operations/keys.js';
import { ITEM_STATUSES } from '../store/types.js';
import {
  startTestServer,
  type TestEngineName,
  type TestResponse,
  type TestServer,
} from './harness.js';

/**
 * The checks every keyed route must pass (docs/architecture.md#tests): no key, unknown, malformed, bad
 * checksum, revoked, disabled, expired, exhausted, rate limited, conflicting headers,
 * another organization's data, and what a key view leaves out.
 */
export interface KeyedRoute {
  /** Path and a valid query for the demo organization; `{itemId}` is replaced (in `init.body` too). */
  path: string;
  /** Whether the route accepts the organizationId override. */
  organizationOverride: boolean;
  /**
   * How the request is sent when it is not a plain GET (the MCP endpoint: a POST of a
   * JSON-RPC message); its headers go with every request of the suite.
   */
  init?: { method: string; headers: Record<string, string>; body: string };
  /**
   * The same request asking for `barcode` (a field, or its filter): a view that hides it
   * refuses it as query validation, before the quota is charged. `path` for a GET route,
   * `body` for the MCP endpoint (whose refusal is a tool result with `isError`).
   */
  askingForBarcode?: { path: string } | { body: string };
  /** Whether the route is the incremental sync's (`updatedSince`): its tokens and tombstones. */
  syncs?: boolean;
  /** The engine of the suite's server (the everyday tier's by default: SQLite). */
  engine?: TestEngineName;
}

/** A JSON-RPC POST to `/mcp` as MCP clients send it. */
const MCP_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};

function mcpToolCall(name: string, args: Record<string, unknown>): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name, arguments: args },
  });
}

/** Every keyed route of the API host, as the suite sends it (one file runs each per engine). */
export const KEYED_ROUTES = {
  verify: { path: '/api/v1/auth/verify', organizationOverride: false },
  organization: { path: '/api/v1/organization', organizationOverride: true },
  items: {
    path: '/api/v1/inventory/items?limit=2',
    organizationOverride: true,
    syncs: true,
    askingForBarcode: { path: '/api/v1/inventory/items?limit=2&barcode=1' },
  },
  item: {
    path: '/api/v1/inventory/item?itemId={itemId}',
    organizationOverride: true,
    askingForBarcode: { path: '/api/v1/inventory/item?itemId={itemId}&fields=_id,barcode' },
  },
  locations: { path: '/api/v1/inventory/locations', organizationOverride: true },
  mcp: {
    path: '/mcp',
    organizationOverride: false,
    init: {
      method: 'POST',
      headers: MCP_HEADERS,
      body: mcpToolCall('get_item', { itemId: '{itemId}' }),
    },
    askingForBarcode: {
      body: mcpToolCall('get_item', { itemId: '{itemId}', fields: ['barcode'] }),
    },
  },
} satisfies Record<string, KeyedRoute>;

export function expectApiError(response: TestResponse, status: number, code: string): void {
  expect(response.status, response.text).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(response.body.error.code).toBe(code);
  expect(response.body.error.status).toBe(status);
  expect(response.body.error.requestId).toBe(response.headers.get('x-request-id'));
  expect(response.body.error.docUrl).toMatch(new RegExp(`/en/docs/errors#${code.toLowerCase()}$`));
  expect(typeof response.body.error.message).toBe('string');
  expect(response.body.error.message.length).toBeGreaterThan(20);
  if (status === 401)
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="stockroom"');
  else expect(response.headers.get('www-authenticate')).toBeNull();
}

/**
 * Repeats a request while it still succeeds, for at most the one second docs/architecture.md#keys allows
 * a change to reach a running server (key lookups are cached for less than that).
 */
export async function untilChanged(send: () => Promise<TestResponse>): Promise<TestResponse> {
  const deadline = Date.now() + 1000;
  let response = await send();
  while (response.status === 200 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    response = await send();
  }
  return response;
}

export function keyedRouteSecuritySuite(route: KeyedRoute): void {
  describe(`security of ${route.path.split('?')[0]}`, () => {
    let server: TestServer;
    let path: string;

    beforeAll(async () => {
      server = await startTestServer(route.engine ? { engine: route.engine, redis: true } : {});
      path = route.path.replace('{itemId}', server.demo.itemId);
    });
    afterAll(() => server.close());

    /** The route's request, with the suite's key and headers. */
    const send = (
      options: { key?: string; headers?: Record<string, string> } = {},
    ): Promise<TestResponse> =>
      server.request(path, {
        ...(route.init
          ? {
              method: route.init.method,
              body: route.init.body.replace('{itemId}', server.demo.itemId),
            }
          : {}),
        ...(options.key === undefined ? {} : { key: options.key }),
        headers: { ...route.init?.headers, ...options.headers },
      });

    const withKey = async (
      input: Parameters<TestServer['createKey']>[0] extends infer I ? Partial<I> : never,
    ) => {
      const { key } = await server.createKey({
        organizationId: server.demo.organizationId,
        ...input,
      });
      return key;
    };

    it('succeeds with a valid key (control)', async () => {
      const response = await send({ key: server.demo.key });
      expect(response.status, response.text).toBe(200);
      expect(response.headers.get('cache-control')).toBe('private, no-cache');
    });

    it('refuses a request without a key', async () => {
      expectApiError(await send(), 401, 'MISSING_API_KEY');
    });

    it('refuses an empty x-api-key header as missing', async () => {
      expectApiError(await send({ headers: { 'x-api-key': '' } }), 401, 'MISSING_API_KEY');
    });

    it('refuses a well-formed key that does not exist', async () => {
      expectApiError(await send({ key: generateKey('organization').key }), 401, 'INVALID_API_KEY');
    });

    it('refuses a malformed key', async () => {
      expectApiError(await send({ key: 'not-a-key' }), 401, 'INVALID_API_KEY');
      expectApiError(await send({ key: `${server.demo.key}x` }), 401, 'INVALID_API_KEY');
    });

    it('refuses a key whose checksum does not match', async () => {
      const key = server.demo.key;
      const tampered = `${key.slice(0, 7)}${key[7] === 'A' ? 'B' : 'A'}${key.slice(8)}`;
      expectApiError(await send({ key: tampered }), 401, 'INVALID_API_KEY');
    });

    it('refuses a malformed Authorization header', async () => {
      expectApiError(
        await send({ headers: { authorization: `Basic ${server.demo.key}` } }),
        401,
        'INVALID_API_KEY',
      );
      expectApiError(await send({ headers: { authorization: 'Bearer' } }), 401, 'INVALID_API_KEY');
    });

    it('accepts the key as a Bearer token with any scheme case', async () => {
      for (const scheme of ['Bearer', 'bearer', 'BEARER']) {
        const response = await send({
          headers: { authorization: `${scheme} ${server.demo.key}` },
        });
        expect(response.status, response.text).toBe(200);
      }
    });

    it('refuses two different keys and accepts the same key twice', async () => {
      const other = await withKey({});
      expectApiError(
        await send({
          key: server.demo.key,
          headers: { authorization: `Bearer ${other}` },
        }),
        401,
        'CONFLICTING_API_KEYS',
      );
      const same = await send({
        key: server.demo.key,
        headers: { authorization: `Bearer ${server.demo.key}` },
      });
      expect(same.status).toBe(200);
    });

    it('treats a revoked key as unknown', async () => {
      const { key, record } = await server.createKey({
        organizationId: server.demo.organizationId,
      });
      await server.store.revokeApiKey(record.id);
      expectApiError(await send({ key }), 401, 'INVALID_API_KEY');
    });

    it('refuses a disabled key', async () => {
      const { key, record } = await server.createKey({
        organizationId: server.demo.organizationId,
      });
      await server.store.setApiKeyEnabled(record.id, false);
      expectApiError(await send({ key }), 401, 'KEY_DISABLED');
    });

    it('refuses an expired key', async () => {
      const key = await withKey({ expiresAt: Date.now() - 1000 });
      const response = await send({ key });
      expectApiError(response, 401, 'KEY_EXPIRED');
    });

    it('refuses an exhausted key', async () => {
      const key = await withKey({ remaining: 0 });
      expectApiError(await send({ key }), 401, 'KEY_EXHAUSTED');
    });

    it('refuses a rate-limited key with Retry-After and the rate-limit headers', async () => {
      const key = await withKey({ rateLimit: { max: 2, windowSeconds: 3600 } });
      const before = Date.now() / 1000;
      const first = await send({ key });
      const after = Date.now() / 1000;
      expect(first.status).toBe(200);
      expect(first.headers.get('x-ratelimit-limit')).toBe('2');
      expect(first.headers.get('x-ratelimit-remaining')).toBe('1');
      // Epoch seconds of the end of the window (aligned to the epoch) the request fell in: the
      // request was served between before and after, so it is the end of one of their windows,
      // and 0 < reset - now <= windowSeconds.
      const reset = Number(first.headers.get('x-ratelimit-reset'));
      const windowEnd = (seconds: number) => (Math.floor(seconds / 3600) + 1) * 3600;
      expect([windowEnd(before), windowEnd(after)]).toContain(reset);
      expect(reset - after).toBeLessThanOrEqual(3600);
      expect(reset - before).toBeGreaterThan(0);
      expect((await send({ key })).status).toBe(200);
      const limited = await send({ key });
      expectApiError(limited, 401, 'RATE_LIMITED');
      expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
      const retryAfter = Number(limited.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(3600);
    });

    it('refuses the key of a user who is no longer a member', async () => {
      const user = await server.createUser(server.demo.organizationId);
      const { key } = await server.createKey({
        organizationId: server.demo.organizationId,
        userId: user.id,
        rateLimit: null,
      });
      expect((await send({ key })).status).toBe(200);
      await server.store.removeMember(server.demo.organizationId, user.id);
      const response = await untilChanged(() => send({ key }));
      expectApiError(response, 403, 'ORGANIZATION_FORBIDDEN');
    });

    if (route.organizationOverride) {
      const join = (p: string) => (p.includes('?') ? '&' : '?');

      it("refuses another organization's data through the organizationId override", async () => {
        const other = await server.createOrganization();
        const response = await server.request(`${path}${join(path)}organizationId=${other.id}`, {
          key: server.demo.key,
        });
        expectApiError(response, 403, 'ORGANIZATION_FORBIDDEN');
        expect(response.headers.get('deprecation')).toBe('true');
        expect(response.text).not.toContain(other.name);
      });

      it('answers 404 for an unknown organization and 400 for a malformed id', async () => {
        const unknown = await server.request(
          `${path}${join(path)}organizationId=${'0'.repeat(24)}`,
          {
            key: server.demo.key,
          },
        );
        expectApiError(unknown, 404, 'ORGANIZATION_NOT_FOUND');
        const malformed = await server.request(`${path}${join(path)}organizationId=xyz`, {
          key: server.demo.key,
        });
        expectApiError(malformed, 400, 'INVALID_PARAMETER');
        expect(malformed.body.error.param).toBe('organizationId');
      });

      it("treats the key's own organization as if the override were absent", async () => {
        const response = await server.request(
          `${path}${join(path)}organizationId=${server.demo.organizationId}`,
          {
            key: server.demo.key,
          },
        );
        expect(response.status, response.text).toBe(200);
        expect(response.headers.get('deprecation')).toBe('true');
        expect(response.headers.get('link')).toMatch(
          /\/en\/docs\/authentication>; rel="deprecation"$/,
        );
      });
    }

    it('keeps an item outside a key view, and its hidden fields, away from that key', async () => {
      const item = await server.store.getItem(server.demo.organizationId, server.demo.itemId);
      if (!item) throw new Error('the demo item is missing');
      const other = ITEM_STATUSES.filter((status) => status !== item.status).join(',');
      const view = parseView({ where: [`status=${other}`], hideFields: ['barcode', 'sku'] });
      const key = await withKey({ view });
      const response = await send({ key });
      if (path.includes('/inventory/item?')) {
        expectApiError(response, 404, 'ITEM_NOT_FOUND');
      } else {
        expect(response.status, response.text).toBe(200);
      }
      if (path.includes('/auth/verify')) {
        expect(response.body.key.view).toEqual(view);
        return;
      }
      expect(response.text).not.toMatch(/"(barcode|sku)":/);
      if (item.sku !== null) expect(response.text).not.toContain(item.sku);
      expect(response.text).not.toContain(item.name);
    });

    it('applies a key view set after the key was in use within one second', async () => {
      const { key, record } = await server.createKey({
        organizationId: server.demo.organizationId,
      });
      expect((await send({ key })).status).toBe(200);
      const organization = await server.store.getOrganization(server.demo.organizationId);
      if (!organization) throw new Error('the demo organization is missing');
      await updateKeyView(server.store, cliActor(), organization, record, {
        where: ['status=Discontinued'],
        hideFields: [],
        quantityCap: null,
      });
      const item = await server.store.getItem(server.demo.organizationId, server.demo.itemId);
      if (path.includes('/inventory/item?') && item?.status !== 'Discontinued') {
        expectApiError(await untilChanged(() => send({ key })), 404, 'ITEM_NOT_FOUND');
      }
      if (path.includes('/auth/verify')) {
        const deadline = Date.now() + 1000;
        let seen = await send({ key });
        while (seen.body.key?.view === null && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 20));
          seen = await send({ key });
        }
        expect(seen.body.key.view).toMatchObject({ where: ['status=Discontinued'] });
      }
    });

    it('never echoes or keeps a key sent as the request id', async () => {
      const response = await send({
        key: server.demo.key,
        headers: { 'x-request-id': server.demo.key },
      });
      expect(response.status, response.text).toBe(200);
      const id = response.headers.get('x-request-id');
      expect(id).toBeTruthy();
      expect(id).not.toContain(server.demo.key.slice(7));
      expect(response.text).not.toContain(server.demo.key.slice(7));
    });

    const askingForBarcode = route.askingForBarcode;
    if (askingForBarcode) {
      it('spends no quota on a request its view refuses, and one on a valid one', async () => {
        const { key, record } = await server.createKey({
          organizationId: server.demo.organizationId,
          rateLimit: null,
          remaining: 5,
          view: parseView({ hideFields: ['barcode'] }),
        });
        const refused = await server.request(
          'path' in askingForBarcode
            ? askingForBarcode.path.replace('{itemId}', server.demo.itemId)
            : path,
          {
            key,
            ...('body' in askingForBarcode
              ? {
                  method: route.init?.method ?? 'POST',
                  body: askingForBarcode.body.replace('{itemId}', server.demo.itemId),
                }
              : {}),
            headers: { ...route.init?.headers },
          },
        );
        if ('path' in askingForBarcode) {
          expectApiError(refused, 400, 'INVALID_PARAMETER');
          expect(refused.body.error.message).toContain('not available to this key');
        } else {
          expect(refused.status, refused.text).toBe(200);
          expect(refused.body.result.isError).toBe(true);
          expect(JSON.stringify(refused.body.result.content)).toContain('INVALID_PARAMETER');
        }
        expect((await server.store.getApiKey(record.id))?.remaining).toBe(5);
        expect((await send({ key })).status).toBe(200);
        expect((await server.store.getApiKey(record.id))?.remaining).toBe(4);
      });
    }

    if (route.syncs) {
      const SYNC = '/api/v1/inventory/items?limit=1000&updatedSince=';
      const DELETIONS = '/api/v1/inventory/items?limit=1000&includeDeleted=true&updatedSince=';

      it('refuses an edited sync token with 400, never a page', async () => {
        const first = await server.request(`${SYNC}1970-01-01`, { key: server.demo.key });
        expect(first.status, first.text).toBe(200);
        const token: string = first.body.nextSince;
        // The payload's first character changed: the signature no longer matches.
        const edited = `s${token[1] === 'e' ? 'f' : 'e'}${token.slice(2)}`;
        const refused = await server.request(`${DELETIONS}${edited}`, { key: server.demo.key });
        expectApiError(refused, 400, 'INVALID_PARAMETER');
        expect(refused.body.error.param).toBe('updatedSince');
      });

      it('names in deleted only items the key could see', async () => {
        const org = await server.createOrganization();
        await server.createItems(org.id, [
          { name: 'Seen then gone', sku: 'SEEN', status: 'Active' },
          { name: 'Never seen', sku: 'NEVER', status: 'Draft' },
        ]);
        const { key } = await server.createKey({
          organizationId: org.id,
          rateLimit: null,
          view: parseView({ where: ['status=Active'] }),
        });
        const point = await server.request(`${SYNC}1970-01-01`, { key });
        expect(point.status, point.text).toBe(200);
        expect(point.body.data.map((item: { sku: string }) => item.sku)).toEqual(['SEEN']);
        await server.store.deleteItems(org.id, [{ sku: 'SEEN' }, { sku: 'NEVER' }]);
        const next = await server.request(`${DELETIONS}${point.body.nextSince}`, { key });
        expect(next.status, next.text).toBe(200);
        const seen = point.body.data[0]._id as string;
        expect(next.body.deleted.map((entry: { _id: string }) => entry._id)).toEqual([seen]);
      });

      it('keeps a hidden updatedAt out of the sync and of Last-Modified', async () => {
        const key = await withKey({
          rateLimit: null,
          view: parseView({ hideFields: ['updatedAt'] }),
        });
        const refused = await server.request(`${SYNC}1970-01-01`, { key });
        expectApiError(refused, 400, 'INVALID_PARAMETER');
        expect(refused.body.error.param).toBe('updatedSince');
        const detail = await server.request(`/api/v1/inventory/item?itemId=${server.demo.itemId}`, {
          key,
        });
        expect(detail.status, detail.text).toBe(200);
        expect(detail.headers.get('last-modified')).toBeNull();
        expect(detail.text).not.toContain('"updatedAt"');
      });
    }

    it('keeps a key of another organization away from this one', async () => {
      const other = await server.createOrganization();
      const { key } = await server.createKey({ organizationId: other.id });
      const response = await send({ key });
      if (path.includes('/inventory/item?')) {
        // The demo item belongs to the demo organization: for another key it does not exist.
        expectApiError(response, 404, 'ITEM_NOT_FOUND');
      } else {
        expect(response.status).toBe(200);
        expect(response.text).not.toContain(server.demo.organizationId);
      }
    });
  });
}
