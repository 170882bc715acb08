import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminTestServer, startAdminTestServer } from '../admin/testing.js';
import { expectApiError } from '../testing/security-suite.js';
import { type RouteEntry, routeTable } from './route-methods.js';

/**
 * Every route of every host, as the app itself registered them (Fastify's onRoute, through
 * the host shell's table, so a route added later is walked too): its CORS preflight as its
 * host's policy says, and a 405 naming exactly the route's methods for any other method.
 * docs/architecture.md#errors; the API's rules: the errors page.
 */

const ORIGIN = 'https://shop.example';
/** Methods tried on each path: those it does not take must be refused with 405. */
const TRIED = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'PROPFIND'];

/** A concrete path of a route template: each `:param` gets a value of its shape. */
function concrete(url: string): string {
  const values: Record<string, string> = {
    org: 'acme',
    keyId: '0123456789abcdef01234567',
    code: 'WH-1',
    locale: 'en',
    page: 'introduction',
  };
  return url.replace(/:([A-Za-z]+)/g, (_match, name: string) => values[name] ?? 'x');
}

let t: AdminTestServer;
let hosts: { api: FastifyInstance; admin: FastifyInstance; docs: FastifyInstance };

beforeAll(async () => {
  t = await startAdminTestServer();
  const { api, admin } = t.server.server;
  if (!admin) throw new Error('no admin host');
  hosts = { api, admin, docs: await t.server.docs() };
  await Promise.all([hosts.api.ready(), hosts.admin.ready()]);
}, 60_000);

afterAll(async () => {
  await t?.close();
});

/** The routes of a host that answer something: the paths to walk. */
function walked(app: FastifyInstance): RouteEntry[] {
  const routes = routeTable(app);
  expect(routes.length).toBeGreaterThan(3);
  return routes;
}

describe('the API host', () => {
  it('walks every path, /mcp, the probes and the locations included', () => {
    const urls = walked(hosts.api).map((route) => route.url);
    for (const url of ['/api/v1/inventory/locations', '/mcp', '/livez', '/api/v1/health']) {
      expect(urls).toContain(url);
    }
  });

  it('answers a preflight on every path with the methods its routes take, OPTIONS included', async () => {
    for (const { url, methods } of walked(hosts.api)) {
      expect(methods, url).toContain('OPTIONS');
      const method = methods[0] as string;
      const response = await t.server.request(concrete(url), {
        method: 'OPTIONS',
        headers: {
          origin: ORIGIN,
          'access-control-request-method': method,
          'access-control-request-headers': 'x-api-key',
        },
      });
      expect(response.status, `OPTIONS ${url}`).toBe(204);
      expect(response.headers.get('access-control-allow-methods'), url).toBe(methods.join(', '));
      expect(response.headers.get('access-control-allow-origin'), url).toBe('*');
      expect(response.headers.get('access-control-allow-headers'), url).toContain('x-api-key');
      expect(response.headers.get('access-control-max-age'), url).toBe('600');
    }
  });

  it('refuses every other method on every path with 405 and the path’s methods in Allow', async () => {
    for (const { url, methods } of walked(hosts.api)) {
      for (const method of TRIED.filter((one) => !methods.includes(one))) {
        const response = await t.server.request(concrete(url), {
          method,
          key: t.server.demo.key,
          ...(method === 'POST'
            ? { headers: { 'content-type': 'application/json' }, body: '{' }
            : {}),
        });
        // A HEAD answer has no body to read the envelope from.
        if (method === 'HEAD') expect(response.status, `HEAD ${url}`).toBe(405);
        else expectApiError(response, 405, 'METHOD_NOT_ALLOWED');
        expect(response.headers.get('allow'), `${method} ${url}`).toBe(methods.join(', '));
        expect(response.headers.get('access-control-allow-origin'), url).toBe('*');
      }
    }
  });
});

describe('the admin host (no CORS: browsers are not its clients)', () => {
  it('walks every path', () => {
    const urls = walked(hosts.admin).map((route) => route.url);
    expect(urls).toContain('/admin/v1/organizations/:org/items/bulk-delete');
    expect(urls).toContain('/admin/v1/organizations/:org/locations/:code');
  });

  it('refuses a preflight on every path: 401 without the token, 405 with it, no CORS header', async () => {
    for (const { url, methods } of walked(hosts.admin)) {
      expect(methods, url).not.toContain('OPTIONS');
      const headers = {
        origin: ORIGIN,
        'access-control-request-method': methods[0] as string,
      };
      const anonymous = await t.admin('OPTIONS', concrete(url), { token: null, headers });
      expect(anonymous.status, url).toBe(401);
      const keyed = await t.admin('OPTIONS', concrete(url), { headers });
      expect(keyed.status, url).toBe(405);
      expect(keyed.body.error.code).toBe('METHOD_NOT_ALLOWED');
      expect(keyed.headers.get('allow'), url).toBe(methods.join(', '));
      for (const answer of [anonymous, keyed]) {
        const cors = [...answer.headers.keys()].filter((name) =>
          name.startsWith('access-control-'),
        );
        expect(cors, url).toEqual([]);
      }
    }
  });

  it('refuses every other method on every path with 405 and the path’s methods in Allow', async () => {
    for (const { url, methods } of walked(hosts.admin)) {
      for (const method of TRIED.filter((one) => !methods.includes(one))) {
        const answer = await t.admin(method, concrete(url), {
          ...(method === 'GET' || method === 'HEAD' ? {} : { json: {} }),
        });
        expect(answer.status, `${method} ${url}`).toBe(405);
        if (method !== 'HEAD') expect(answer.body.error.code).toBe('METHOD_NOT_ALLOWED');
        expect(answer.headers.get('allow'), `${method} ${url}`).toBe(methods.join(', '));
      }
    }
  });

  it('asks for the token before telling what a path takes', async () => {
    const answer = await t.admin('PUT', '/admin/v1/organizations', { token: null });
    expect(answer.status).toBe(401);
    expect(answer.headers.get('allow')).toBeNull();
  });
});

describe('the docs host (any origin may read it; no preflight is needed or answered)', () => {
  it('walks every path', () => {
    const urls = walked(hosts.docs).map((route) => route.url);
    expect(urls).toContain('/:locale/docs/:page');
    expect(urls).toContain('/openapi.json');
  });

  it('answers OPTIONS and every other method on every path with 405 and the path’s methods', async () => {
    for (const { url, methods } of walked(hosts.docs)) {
      for (const method of ['OPTIONS', ...TRIED.filter((one) => !methods.includes(one))]) {
        const response = await t.server.docsRequest(concrete(url), {
          method,
          headers: { origin: ORIGIN, 'access-control-request-method': 'GET' },
        });
        expect(response.status, `${method} ${url}`).toBe(405);
        expect(response.headers.get('allow'), `${method} ${url}`).toBe(methods.join(', '));
        expect(response.headers.get('access-control-allow-origin')).toBe('*');
        expect(response.headers.get('access-control-allow-methods')).toBeNull();
      }
    }
  });
});
