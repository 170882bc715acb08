import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeTable } from '../http/route-methods.js';
import type { Organization } from '../store/types.js';
import { type AdminTestServer, startAdminTestServer } from './testing.js';

/**
 * Every admin route (as the app registered them, so a route added later is walked too)
 * refuses a query parameter it does not name: 400 INVALID_REQUEST naming it, and nothing
 * written, whatever the body asks. `bulk-delete?dryRun=true` once deleted for real.
 */

let t: AdminTestServer;

beforeAll(async () => {
  t = await startAdminTestServer();
  await t.server.server.admin?.ready();
}, 60_000);
afterAll(() => t?.close());

/**
 * A body each route would act on, so that only the query stands in the way. A route missing
 * here is sent none, and the test says which one needs a body.
 */
function bodyOf(method: string, url: string, itemId: string): unknown {
  const bodies: Record<string, unknown> = {
    'POST /admin/v1/organizations': { name: 'Never Created' },
    'PATCH /admin/v1/organizations/:org': { name: 'Never Renamed' },
    'POST /admin/v1/organizations/:org/keys': { name: 'never issued' },
    'PATCH /admin/v1/organizations/:org/keys/:keyId': { view: { quantityCap: 5 } },
    'POST /admin/v1/organizations/:org/keys/:keyId/rotate': {},
    'POST /admin/v1/organizations/:org/items/bulk-upsert': [{ sku: 'NEVER-1', name: 'Never' }],
    'POST /admin/v1/organizations/:org/items/bulk-delete': { ids: [itemId] },
    'POST /admin/v1/organizations/:org/locations': { code: 'WH-9', name: 'Never' },
  };
  return bodies[`${method} ${url}`];
}

/** Everything an admin route could change, as stored. */
async function state(org: Organization): Promise<string> {
  const store = t.server.store;
  return JSON.stringify([
    await store.listOrganizations(),
    await store.listApiKeys(org.id),
    await store.listItems(org.id, { limit: 1000 }),
    await store.listLocations(org.id),
    await store.listAuditEvents(org.id, { limit: 1000 }),
  ]);
}

/** The query parameters each route documents, from the admin API's own OpenAPI document. */
async function documentedQuery(): Promise<Map<string, string[]>> {
  const answer = await t.admin('GET', '/admin/v1/openapi.json');
  expect(answer.status).toBe(200);
  const names = new Map<string, string[]>();
  const paths = answer.body.paths as Record<
    string,
    Record<string, { parameters?: Array<{ in: string; name: string }> }>
  >;
  for (const [path, operations] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const url = path.replace(/\{([^}]+)\}/g, ':$1');
      names.set(
        `${method.toUpperCase()} ${url}`,
        (operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
      );
    }
  }
  return names;
}

describe('the admin API and query parameters it does not know', () => {
  it('walks every route: 400 naming the parameter and how to fix it, nothing written', async () => {
    const admin = t.server.server.admin;
    if (!admin) throw new Error('no admin host');
    const org = await t.server.createOrganization();
    await t.server.createItems(org.id, [{ name: 'Tent', sku: 'TENT-1', quantity: 3 }]);
    const [item] = await t.server.store.listItems(org.id, { limit: 1 });
    const { record: key } = await t.server.createKey({ organizationId: org.id });
    const location = await t.admin('POST', `/admin/v1/organizations/${org.slug}/locations`, {
      json: { code: 'WH-1', name: 'Main' },
    });
    expect(location.status, location.text).toBe(201);
    const values: Record<string, string> = { org: org.slug, keyId: key.id, code: 'WH-1' };
    const documented = await documentedQuery();
    const before = await state(org);

    let walked = 0;
    for (const { url, methods } of routeTable(admin)) {
      const path = url.replace(/:([A-Za-z]+)/g, (_m, name: string) => values[name] ?? 'x');
      for (const method of methods.filter((one) => one !== 'HEAD')) {
        const route = `${method} ${url}`;
        const body = bodyOf(method, url, item?.id ?? '');
        // dryRun where the route has no dry run, and a name no route takes.
        const unknown = [
          ...((documented.get(route) ?? []).includes('dryRun') ? [] : ['dryRun']),
          'force',
        ];
        for (const name of unknown) {
          const answer = await t.admin(
            method,
            `${path}?${name}=true`,
            body === undefined ? {} : { json: body },
          );
          expect(answer.status, `${route}?${name}: ${answer.text.slice(0, 300)}`).toBe(400);
          expect(answer.body.error.code).toBe('INVALID_REQUEST');
          expect(answer.body.error.param, `${route}: send a body it acts on (bodyOf)`).toBe(name);
          expect(answer.body.error.message).toContain(`Unknown query parameter "${name}"`);
          expect(answer.body.error.message).toMatch(/[Rr]emove it/);
          expect(answer.body.error.docUrl).toMatch(/admin-api#invalid_request$/);
          expect(await state(org), `${route}?${name} changed something`).toBe(before);
          walked += 1;
        }
      }
    }
    // Every route of the table was walked: organizations, keys, items, locations.
    expect(walked).toBeGreaterThanOrEqual(2 * 15);
  });

  it('bulk-delete?dryRun=true deletes nothing; without it the item is deleted', async () => {
    const org = await t.server.createOrganization();
    await t.server.createItems(org.id, [{ name: 'Lamp', sku: 'LAMP-1', quantity: 1 }]);
    const path = `/admin/v1/organizations/${org.slug}/items/bulk-delete`;
    const dry = await t.admin('POST', `${path}?dryRun=true`, { json: { skus: ['LAMP-1'] } });
    expect(dry.status).toBe(400);
    expect(dry.body.error).toMatchObject({ code: 'INVALID_REQUEST', param: 'dryRun' });
    expect(await t.server.store.listItems(org.id, { limit: 10 })).toHaveLength(1);
    const real = await t.admin('POST', path, { json: { skus: ['LAMP-1'] } });
    expect(real.status).toBe(200);
    expect(real.body.data.deleted).toBe(1);
  });

  it('still takes the parameters a route names', async () => {
    const org = await t.server.createOrganization();
    const dry = await t.admin('DELETE', `/admin/v1/organizations/${org.slug}?dryRun=true`);
    expect(dry.status).toBe(200);
    expect(dry.body.data.dryRun).toBe(true);
    const upsert = await t.admin(
      'POST',
      `/admin/v1/organizations/${org.slug}/items/bulk-upsert?mode=per-row&dryRun=true`,
      { json: [{ sku: 'A-1', name: 'A' }] },
    );
    expect(upsert.status, upsert.text).toBe(200);
  });
});
