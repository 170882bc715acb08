import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminTestServer, startAdminTestServer } from '../testing.js';

/**
 * Organization management on the admin port, against a real server and database (the engine
 * of the vitest project): the same rules and audit events as `stockroom org …`.
 */

let t: AdminTestServer;
let counter = 0;
const unique = (base: string) => `${base}-${process.pid}-${++counter}`;

beforeAll(async () => {
  t = await startAdminTestServer();
});
afterAll(() => t?.close());

/** Every organization as stored, to prove a refused request changed nothing. */
async function snapshot() {
  const store = t.server.store;
  const organizations = await store.listOrganizations();
  return JSON.stringify(
    await Promise.all(
      organizations.map(async (o) => ({ o, audit: await store.listAuditEvents(o.id) })),
    ),
  );
}

async function refused(method: string, path: string, json: unknown, status: number) {
  const before = await snapshot();
  const answer = await t.admin(method, path, json === undefined ? {} : { json });
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  expect(await snapshot()).toBe(before);
  return answer.body.error as { code: string; message: string; param?: string };
}

describe('POST /admin/v1/organizations', () => {
  it('creates an organization as `org create` does: derived slug, default features, audit event', async () => {
    const answer = await t.admin('POST', '/admin/v1/organizations', {
      json: { name: '  Café Déjà Vu!  ' },
    });
    expect(answer.status).toBe(201);
    const data = answer.body.data;
    expect(Object.keys(data)).toEqual(['id', 'name', 'slug', 'features', 'createdAt']);
    expect(data).toMatchObject({
      name: 'Café Déjà Vu!',
      slug: 'cafe-deja-vu',
      features: ['inventory'],
    });
    expect(answer.headers.get('location')).toBe(`/admin/v1/organizations/${data.id}`);
    const stored = await t.server.store.getOrganization(data.id);
    expect(stored).toMatchObject({ name: 'Café Déjà Vu!', slug: 'cafe-deja-vu' });
    expect(data.createdAt).toBe(new Date(stored?.createdAt ?? 0).toISOString());
    const [event] = await t.server.store.listAuditEvents(data.id);
    expect(event).toMatchObject({
      action: 'organization.created',
      actor: 'admin-api:127.0.0.1',
      target: data.id,
      details: { name: 'Café Déjà Vu!', slug: 'cafe-deja-vu', features: ['inventory'] },
    });
    expect(event?.details.requestId).toBe(answer.headers.get('x-request-id'));
  });

  it('takes a slug and features, [] for none', async () => {
    const slug = unique('bare');
    const answer = await t.admin('POST', '/admin/v1/organizations', {
      json: { name: 'Bare', slug, features: [] },
    });
    expect(answer.status).toBe(201);
    expect(answer.body.data).toMatchObject({ slug, features: [] });
  });

  it('refuses a taken slug with 409 SLUG_TAKEN', async () => {
    const slug = unique('taken');
    expect(
      (await t.admin('POST', '/admin/v1/organizations', { json: { name: 'A', slug } })).status,
    ).toBe(201);
    const error = await refused('POST', '/admin/v1/organizations', { name: 'B', slug }, 409);
    expect(error).toMatchObject({ code: 'SLUG_TAKEN', param: 'slug' });
  });

  it.each([
    [{}, 'name', /name is required/],
    [{ name: 42 }, 'name', /name must be a string, got a number/],
    [{ name: '   ' }, 'name', /must not be empty/],
    [{ name: 'x'.repeat(201) }, 'name', /at most 200 characters/],
    [{ name: 'Ok', slug: 'Not A Slug' }, 'slug', /lowercase letters, digits and single dashes/],
    [{ name: 'Ok', slug: 'abcdefabcdefabcdefabcdef' }, 'slug', /must not look like an id/],
    [{ name: '!!!' }, 'slug', /Cannot derive a slug/],
    [
      { name: 'Ok', features: ['inventory', 'teleport'] },
      'features[1]',
      /Unknown feature "teleport"/,
    ],
    [{ name: 'Ok', features: 'inventory' }, 'features', /must be an array, got a string/],
    [
      { name: 'Ok', colour: 'blue' },
      'colour',
      /Unknown field "colour"; this endpoint accepts: name, slug, features/,
    ],
  ])('refuses %j naming %s, and writes nothing', async (json, param, message) => {
    const error = await refused('POST', '/admin/v1/organizations', json, 400);
    expect(error.code).toBe('INVALID_REQUEST');
    expect(error.param).toBe(param);
    expect(error.message).toMatch(message);
  });

  it('refuses a body that is not an object, and a missing body', async () => {
    expect((await refused('POST', '/admin/v1/organizations', ['x'], 400)).message).toMatch(
      /The body must be a JSON object, got an array/,
    );
    expect((await refused('POST', '/admin/v1/organizations', undefined, 400)).param).toBe('body');
  });
});

describe('GET /admin/v1/organizations and /organizations/{org}', () => {
  it('lists every organization, oldest first', async () => {
    const created = await t.admin('POST', '/admin/v1/organizations', {
      json: { name: 'Listed', slug: unique('listed') },
    });
    const answer = await t.admin('GET', '/admin/v1/organizations');
    expect(answer.status).toBe(200);
    const ids = answer.body.data.map((o: { id: string }) => o.id);
    expect(ids[0]).toBe(t.server.demo.organizationId);
    expect(ids.at(-1)).toBe(created.body.data.id);
    expect(Object.keys(answer.body.data[0])).toEqual([
      'id',
      'name',
      'slug',
      'features',
      'createdAt',
    ]);
  });

  it('shows one by id or slug, with counts and members', async () => {
    const org = await t.server.createOrganization();
    const user = await t.server.createUser(org.id);
    await t.server.createItems(org.id, [{ name: 'One' }, { name: 'Two' }]);
    const key = await t.server.createKey({ organizationId: org.id });
    await t.server.createKey({ organizationId: org.id });
    await t.server.store.revokeApiKey(key.record.id);
    for (const ref of [org.id, org.slug]) {
      const answer = await t.admin('GET', `/admin/v1/organizations/${ref}`);
      expect(answer.status).toBe(200);
      expect(answer.body.data).toMatchObject({
        id: org.id,
        slug: org.slug,
        itemCount: 2,
        keyCount: 1,
        members: [{ id: user.id, email: user.email, name: null }],
      });
    }
  });

  it('answers 404 ORGANIZATION_NOT_FOUND for an unknown one, however it is spelled', async () => {
    for (const ref of ['no-such-org', 'DEMO-OUTFITTERS', '%00', 'a%20b', 'x'.repeat(150)]) {
      const answer = await t.admin('GET', `/admin/v1/organizations/${ref}`);
      expect(answer.status, ref).toBe(404);
      expect(answer.body.error).toMatchObject({ code: 'ORGANIZATION_NOT_FOUND', param: 'org' });
    }
  });
});

describe('PATCH /admin/v1/organizations/{org}', () => {
  it('renames and turns features off and on, one audit event per real change', async () => {
    const org = await t.server.createOrganization({ name: 'Before' });
    const off = await t.admin('PATCH', `/admin/v1/organizations/${org.slug}`, {
      json: { name: 'After', disableFeatures: ['inventory'] },
    });
    expect(off.status).toBe(200);
    expect(off.body.data).toMatchObject({ id: org.id, name: 'After', features: [] });
    // The organization's keys stop reaching the inventory (the API reads the same database).
    const { key } = await t.server.createKey({ organizationId: org.id });
    const blocked = await t.server.request('/api/v1/inventory/items', { key });
    expect(blocked.status).toBe(403);
    expect(blocked.body.error.code).toBe('FEATURE_DISABLED');
    const on = await t.admin('PATCH', `/admin/v1/organizations/${org.id}`, {
      json: { enableFeatures: ['inventory'] },
    });
    expect(on.body.data.features).toEqual(['inventory']);
    const same = await t.admin('PATCH', `/admin/v1/organizations/${org.id}`, {
      json: { name: 'After' },
    });
    expect(same.status).toBe(200);
    const events = await t.server.store.listAuditEvents(org.id);
    expect(events.map((e) => [e.action, e.details.feature ?? e.details.to ?? null])).toEqual([
      ['organization.renamed', 'After'],
      ['feature.disabled', 'inventory'],
      ['feature.enabled', 'inventory'],
    ]);
    expect(new Set(events.map((e) => e.actor))).toEqual(new Set(['admin-api:127.0.0.1']));
  });

  it.each([
    [{}, 'body', /Nothing to update/],
    [
      { enableFeatures: ['inventory'], disableFeatures: ['inventory'] },
      'disableFeatures',
      /both enable and disable/,
    ],
    [{ enableFeatures: ['x'] }, 'enableFeatures[0]', /Unknown feature "x"/],
    [{ name: '' }, 'name', /must not be empty/],
    [{ slug: 'renamed' }, 'slug', /Unknown field "slug"/],
  ])('refuses %j naming %s, and writes nothing', async (json, param, message) => {
    const org = await t.server.createOrganization();
    const error = await refused('PATCH', `/admin/v1/organizations/${org.id}`, json, 400);
    expect(error).toMatchObject({ code: 'INVALID_REQUEST', param });
    expect(error.message).toMatch(message);
  });

  it('answers 404 for an unknown organization', async () => {
    const error = await refused('PATCH', '/admin/v1/organizations/nope', { name: 'X' }, 404);
    expect(error.code).toBe('ORGANIZATION_NOT_FOUND');
  });
});

describe('DELETE /admin/v1/organizations/{org}', () => {
  it('with dryRun says what would go and deletes nothing', async () => {
    const org = await t.server.createOrganization();
    await t.server.createItems(org.id, [{ name: 'Kept' }]);
    await t.server.createKey({ organizationId: org.id });
    const before = await snapshot();
    const answer = await t.admin('DELETE', `/admin/v1/organizations/${org.slug}?dryRun=true`);
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual({
      id: org.id,
      slug: org.slug,
      name: org.name,
      dryRun: true,
      deleted: { items: 1, apiKeys: 1, memberships: 0 },
    });
    expect(await snapshot()).toBe(before);
  });

  it('deletes as `org delete --confirm` does: items, keys, memberships; the audit log stays', async () => {
    const org = await t.server.createOrganization();
    await t.server.createUser(org.id);
    await t.server.createItems(org.id, [{ name: 'A' }, { name: 'B' }]);
    const { key } = await t.server.createKey({ organizationId: org.id });
    expect((await t.server.request('/api/v1/organization', { key })).status).toBe(200);
    const answer = await t.admin('DELETE', `/admin/v1/organizations/${org.id}`);
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual({
      id: org.id,
      slug: org.slug,
      name: org.name,
      dryRun: false,
      deleted: { items: 2, apiKeys: 1, memberships: 1 },
    });
    expect(await t.server.store.getOrganization(org.id)).toBeNull();
    const events = await t.server.store.listAuditEvents(org.id);
    expect(events.at(-1)).toMatchObject({
      action: 'organization.deleted',
      actor: 'admin-api:127.0.0.1',
      details: {
        name: org.name,
        slug: org.slug,
        deleted: { items: 2, apiKeys: 1, memberships: 1 },
      },
    });
    const again = await t.admin('DELETE', `/admin/v1/organizations/${org.id}`);
    expect(again.status).toBe(404);
  });

  it('refuses a dryRun that is not true or false', async () => {
    const org = await t.server.createOrganization();
    const error = await refused(
      'DELETE',
      `/admin/v1/organizations/${org.id}?dryRun=yes`,
      undefined,
      400,
    );
    expect(error).toMatchObject({ code: 'INVALID_REQUEST', param: 'dryRun' });
    const unknown = await refused(
      'DELETE',
      `/admin/v1/organizations/${org.id}?confirm=true`,
      undefined,
      400,
    );
    expect(unknown.message).toMatch(
      /Unknown query parameter "confirm"; this endpoint accepts: dryRun/,
    );
  });
});
