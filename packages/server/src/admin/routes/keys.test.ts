import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminTestServer, startAdminTestServer } from '../testing.js';

/**
 * Key management on the admin port, against a real server and database: the same checks and
 * audit events as `stockroom key …`, and keys that work (or stop working) on the public API.
 */

let t: AdminTestServer;

beforeAll(async () => {
  // No key cache, so the API sees a disabled, revoked or rotated key as such at once.
  t = await startAdminTestServer({ keyCacheTtlMs: 0 });
});
afterAll(() => t?.close());

const KEY = /^sr_(org|usr)_[0-9A-Za-z]{38}$/;

async function keysOf(organizationId: string) {
  return JSON.stringify({
    keys: await t.server.store.listApiKeys(organizationId),
    audit: await t.server.store.listAuditEvents(organizationId),
  });
}

async function refused(
  organizationId: string,
  method: string,
  path: string,
  json: unknown,
  status: number,
) {
  const before = await keysOf(organizationId);
  const answer = await t.admin(method, path, json === undefined ? {} : { json });
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  expect(await keysOf(organizationId)).toBe(before);
  return answer.body.error as { code: string; message: string; param?: string };
}

describe('POST /admin/v1/organizations/{org}/keys', () => {
  it('creates an organization key with the defaults, shown once, that works on the API', async () => {
    const org = await t.server.createOrganization();
    const answer = await t.admin('POST', `/admin/v1/organizations/${org.slug}/keys`, { json: {} });
    expect(answer.status).toBe(201);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const data = answer.body.data;
    expect(Object.keys(data).slice(0, 3)).toEqual(['id', 'key', 'prefix']);
    expect(data.key).toMatch(KEY);
    expect(data).toMatchObject({
      name: 'Organization key',
      type: 'organization',
      organizationId: org.id,
      userId: null,
      permissions: ['inventory:view'],
      state: 'active',
      expiresAt: null,
      remaining: null,
      rateLimit: { max: 600, windowSeconds: 60 },
    });
    expect(answer.headers.get('location')).toBe(
      `/admin/v1/organizations/${org.id}/keys/${data.id}`,
    );
    const verify = await t.server.request('/api/v1/auth/verify', { key: data.key });
    expect(verify.status).toBe(200);
    expect(verify.body.key.id).toBe(data.id);
    const [event] = await t.server.store.listAuditEvents(org.id);
    expect(event).toMatchObject({
      action: 'key.created',
      actor: 'admin-api:127.0.0.1',
      target: data.id,
      details: { type: 'organization', prefix: data.prefix, permissions: ['inventory:view'] },
    });
    expect(JSON.stringify(event)).not.toContain(data.key);
    // Shown once: never again.
    const listed = await t.admin('GET', `/admin/v1/organizations/${org.id}/keys`);
    expect(listed.text).not.toContain(data.key);
    expect(listed.body.data[0]).not.toHaveProperty('key');
  });

  it('takes every option of `key create`: user, name, permissions, expiry, quota, rate limit', async () => {
    const org = await t.server.createOrganization();
    const user = await t.server.createUser(org.id);
    const answer = await t.admin('POST', `/admin/v1/organizations/${org.id}/keys`, {
      json: {
        user: user.email,
        name: 'Shop',
        permissions: [],
        expiresIn: '30d',
        remaining: 5,
        rateLimit: '120/1m',
      },
    });
    expect(answer.status).toBe(201);
    const data = answer.body.data;
    expect(data).toMatchObject({
      type: 'user',
      userId: user.id,
      userEmail: user.email,
      name: 'Shop',
      permissions: [],
      remaining: 5,
      rateLimit: { max: 120, windowSeconds: 60 },
    });
    expect(data.key).toMatch(/^sr_usr_/);
    const expires = Date.parse(data.expiresAt) - Date.now();
    expect(expires).toBeGreaterThan(29 * 86_400_000);
    expect(expires).toBeLessThanOrEqual(30 * 86_400_000);
    const at = await t.admin('POST', `/admin/v1/organizations/${org.id}/keys`, {
      json: { expiresAt: '2099-01-31T00:00:00Z', rateLimit: 'none' },
    });
    expect(at.body.data).toMatchObject({ expiresAt: '2099-01-31T00:00:00.000Z', rateLimit: null });
  });

  it.each([
    [{ name: '' }, 'name', /must not be empty/],
    [{ name: 'x'.repeat(101) }, 'name', /at most 100 characters/],
    [{ permissions: ['inventory:edit'] }, 'permissions[0]', /Unknown permission "inventory:edit"/],
    [{ expiresIn: '30 days' }, 'expiresIn', /DURATION must be a positive integer/],
    [{ expiresIn: '36501d' }, 'expiresIn', /at most 100 years/],
    [{ expiresAt: '2020-01-01' }, 'expiresAt', /in the past/],
    [{ expiresAt: '2030-02-30' }, 'expiresAt', /not a real date/],
    [{ expiresIn: '1d', expiresAt: '2099-01-01' }, 'expiresAt', /not both/],
    [{ remaining: -1 }, 'remaining', /remaining must be at least 0/],
    [{ remaining: 1.5 }, 'remaining', /remaining must be an integer/],
    [{ remaining: 1_000_000_001 }, 'remaining', /at most 1000000000/],
    [{ rateLimit: '10/400d' }, 'rateLimit', /at most 365 days/],
    [{ rateLimit: 600 }, 'rateLimit', /rateLimit must be a string, got a number/],
    [{ scopes: ['all'] }, 'scopes', /Unknown field "scopes"/],
    [{ name: 'a\u0000b' }, 'name', /must not contain the NUL character/],
    [{ user: 'ana\u0000@example.test' }, 'user', /user id or an email address/],
  ])('refuses %j naming %s, and writes nothing', async (json, param, message) => {
    const org = await t.server.createOrganization();
    const error = await refused(
      org.id,
      'POST',
      `/admin/v1/organizations/${org.id}/keys`,
      json,
      400,
    );
    expect(error).toMatchObject({ code: 'INVALID_REQUEST', param });
    expect(error.message).toMatch(message);
  });

  it('refuses an unknown user (422 USER_NOT_FOUND) and a non-member (422 NOT_A_MEMBER)', async () => {
    const org = await t.server.createOrganization();
    const other = await t.server.createOrganization();
    const outsider = await t.server.createUser(other.id);
    const path = `/admin/v1/organizations/${org.id}/keys`;
    const unknown = await refused(org.id, 'POST', path, { user: 'nobody@example.test' }, 422);
    expect(unknown).toMatchObject({ code: 'USER_NOT_FOUND', param: 'user' });
    const notMember = await refused(org.id, 'POST', path, { user: outsider.id }, 422);
    expect(notMember).toMatchObject({ code: 'NOT_A_MEMBER', param: 'user' });
    expect(notMember.message).toContain(outsider.email);
  });

  it('answers 404 for an unknown organization', async () => {
    const answer = await t.admin('POST', '/admin/v1/organizations/nope/keys', { json: {} });
    expect(answer.status).toBe(404);
    expect(answer.body.error.code).toBe('ORGANIZATION_NOT_FOUND');
  });
});

describe('listing, showing and changing keys', () => {
  it('lists an organization’s keys oldest first, with state and user email, never a secret', async () => {
    const org = await t.server.createOrganization();
    const user = await t.server.createUser(org.id);
    const first = await t.server.createKey({ organizationId: org.id, name: 'First' });
    const second = await t.server.createKey({
      organizationId: org.id,
      userId: user.id,
      name: 'Second',
    });
    await t.server.store.setApiKeyEnabled(second.record.id, false);
    const answer = await t.admin('GET', `/admin/v1/organizations/${org.slug}/keys`);
    expect(answer.status).toBe(200);
    expect(
      answer.body.data.map((k: { name: string; state: string; userEmail: string | null }) => [
        k.name,
        k.state,
        k.userEmail,
      ]),
    ).toEqual([
      ['First', 'active', null],
      ['Second', 'disabled', user.email],
    ]);
    expect(answer.text).not.toContain(first.key);
    expect(answer.text).not.toContain(first.record.hash);
    const one = await t.admin('GET', `/admin/v1/organizations/${org.id}/keys/${second.record.id}`);
    expect(one.body.data).toMatchObject({ id: second.record.id, userEmail: user.email });
  });

  it('finds a key only under its own organization, and checks the id', async () => {
    const org = await t.server.createOrganization();
    const other = await t.server.createOrganization();
    const { record } = await t.server.createKey({ organizationId: other.id });
    const elsewhere = await t.admin('GET', `/admin/v1/organizations/${org.id}/keys/${record.id}`);
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body.error).toMatchObject({ code: 'KEY_NOT_FOUND', param: 'keyId' });
    const disable = await refused(
      other.id,
      'POST',
      `/admin/v1/organizations/${org.id}/keys/${record.id}/disable`,
      undefined,
      404,
    );
    expect(disable.code).toBe('KEY_NOT_FOUND');
    const malformed = await t.admin('GET', `/admin/v1/organizations/${org.id}/keys/not-an-id`);
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toMatchObject({ code: 'INVALID_REQUEST', param: 'keyId' });
  });

  it('disables and enables a key, which the API sees at once, with audit events', async () => {
    const org = await t.server.createOrganization();
    const { key, record } = await t.server.createKey({ organizationId: org.id });
    const base = `/admin/v1/organizations/${org.id}/keys/${record.id}`;
    const disabled = await t.admin('POST', `${base}/disable`);
    expect(disabled.status).toBe(200);
    expect(disabled.body.data.state).toBe('disabled');
    const refusedByApi = await t.server.request('/api/v1/organization', { key });
    expect(refusedByApi.body.error.code).toBe('KEY_DISABLED');
    const enabled = await t.admin('POST', `${base}/enable`);
    expect(enabled.body.data.state).toBe('active');
    expect((await t.server.request('/api/v1/organization', { key })).status).toBe(200);
    const events = await t.server.store.listAuditEvents(org.id);
    expect(events.map((e) => [e.action, e.target, e.actor])).toEqual([
      ['key.disabled', record.id, 'admin-api:127.0.0.1'],
      ['key.enabled', record.id, 'admin-api:127.0.0.1'],
    ]);
    expect(events[0]?.details).toMatchObject({ name: record.name, prefix: record.prefix });
  });

  it('revokes a key for good: then it cannot be enabled, disabled or rotated (409 KEY_REVOKED)', async () => {
    const org = await t.server.createOrganization();
    const { key, record } = await t.server.createKey({ organizationId: org.id });
    const base = `/admin/v1/organizations/${org.id}/keys/${record.id}`;
    const revoked = await t.admin('POST', `${base}/revoke`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.data.state).toBe('revoked');
    expect(revoked.body.data.revokedAt).not.toBeNull();
    expect((await t.server.request('/api/v1/organization', { key })).body.error.code).toBe(
      'INVALID_API_KEY',
    );
    for (const verb of ['enable', 'disable', 'rotate']) {
      const error = await refused(org.id, 'POST', `${base}/${verb}`, undefined, 409);
      expect(error).toMatchObject({ code: 'KEY_REVOKED', param: 'keyId' });
      expect(error.message).toMatch(/revoked and cannot be/);
    }
  });

  it('rotates a key: new secret once, same id and settings, old secret kept for the grace period', async () => {
    const org = await t.server.createOrganization();
    const { key: oldKey, record } = await t.server.createKey({
      organizationId: org.id,
      name: 'Rotating',
      remaining: 50,
    });
    const base = `/admin/v1/organizations/${org.id}/keys/${record.id}`;
    const graced = await t.admin('POST', `${base}/rotate`, { json: { grace: '1h' } });
    expect(graced.status).toBe(200);
    expect(graced.headers.get('cache-control')).toBe('no-store');
    const data = graced.body.data;
    expect(data).toMatchObject({ id: record.id, name: 'Rotating', remaining: 50 });
    expect(data.key).toMatch(KEY);
    expect(data.key).not.toBe(oldKey);
    expect(Date.parse(data.previousSecretValidUntil) - Date.now()).toBeGreaterThan(59 * 60_000);
    expect((await t.server.request('/api/v1/auth/verify', { key: oldKey })).status).toBe(200);
    expect((await t.server.request('/api/v1/auth/verify', { key: data.key })).status).toBe(200);
    // Without grace (no body at all) the previous secret stops at once.
    const now = await t.admin('POST', `${base}/rotate`);
    expect(now.status).toBe(200);
    expect(now.body.data.previousSecretValidUntil).toBeNull();
    expect((await t.server.request('/api/v1/auth/verify', { key: data.key })).status).toBe(401);
    expect((await t.server.request('/api/v1/auth/verify', { key: now.body.data.key })).status).toBe(
      200,
    );
    const events = (await t.server.store.listAuditEvents(org.id)).filter(
      (e) => e.action === 'key.rotated',
    );
    expect(events).toHaveLength(2);
    expect(events[0]?.details).toMatchObject({
      previousPrefix: record.prefix,
      prefix: data.prefix,
    });
    expect(JSON.stringify(events)).not.toContain(data.key);
  });

  it.each([
    [{ grace: '91d' }, /at most 90 days/],
    [{ grace: 'soon' }, /DURATION must be/],
    [{ grace: 3600 }, /grace must be a string/],
    [{ graceSeconds: 60 }, /Unknown field "graceSeconds"/],
  ])('refuses a rotation with %j, and writes nothing', async (json, message) => {
    const org = await t.server.createOrganization();
    const { record } = await t.server.createKey({ organizationId: org.id });
    const error = await refused(
      org.id,
      'POST',
      `/admin/v1/organizations/${org.id}/keys/${record.id}/rotate`,
      json,
      400,
    );
    expect(error.code).toBe('INVALID_REQUEST');
    expect(error.message).toMatch(message);
  });
});

describe('key views on the admin API', () => {
  const VIEW = {
    where: ['status=Active', 'location=WH-1'],
    hideFields: ['barcode', 'customFields.cost'],
    quantityCap: 10,
  };

  async function withLocation() {
    const org = await t.server.createOrganization();
    const location = await t.admin('POST', `/admin/v1/organizations/${org.id}/locations`, {
      json: { code: 'WH-1', name: 'Warehouse' },
    });
    expect(location.status).toBe(201);
    return org;
  }

  it('POST takes a view, canonical in the answer, the store and the audit event', async () => {
    const org = await withLocation();
    const answer = await t.admin('POST', `/admin/v1/organizations/${org.id}/keys`, {
      json: {
        view: {
          where: ['status=Active,Active', 'location=WH-1', 'status=Active,Active'],
          hideFields: ['customFields.cost', 'barcode', 'barcode'],
          quantityCap: 10,
        },
      },
    });
    expect(answer.status).toBe(201);
    const view = { ...VIEW, where: ['status=Active', 'location=WH-1'] };
    expect(answer.body.data).toMatchObject({ view, viewUpdatedAt: expect.stringMatching(/Z$/) });
    expect((await t.server.store.getApiKey(answer.body.data.id))?.view).toEqual(view);
    const event = (await t.server.store.listAuditEvents(org.id)).find(
      (e) => e.action === 'key.created',
    );
    expect(event).toMatchObject({ target: answer.body.data.id, details: { view } });

    // Absent, null or empty: no view.
    for (const json of [{}, { view: null }, { view: {} }, { view: { where: [] } }]) {
      const plain = await t.admin('POST', `/admin/v1/organizations/${org.id}/keys`, { json });
      expect(plain.status).toBe(201);
      expect(plain.body.data).toMatchObject({ view: null, viewUpdatedAt: null });
    }
    const listed = await t.admin('GET', `/admin/v1/organizations/${org.id}/keys`);
    expect(listed.body.data[0]).toMatchObject({ view });
    expect(listed.body.data[1]).toMatchObject({ view: null, viewUpdatedAt: null });
  });

  it('PATCH replaces the whole view, then clears it; each change is audited', async () => {
    const org = await withLocation();
    const { record } = await t.server.createKey({ organizationId: org.id, name: 'Partner' });
    const path = `/admin/v1/organizations/${org.slug}/keys/${record.id}`;
    const set = await t.admin('PATCH', path, { json: { view: VIEW } });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.data).toMatchObject({ id: record.id, name: 'Partner', view: VIEW });
    expect(Date.parse(set.body.data.viewUpdatedAt)).toBeLessThanOrEqual(Date.now());

    // The whole view is replaced: parts not sent are gone.
    const replaced = await t.admin('PATCH', path, { json: { view: { quantityCap: 3 } } });
    expect(replaced.body.data.view).toEqual({ where: [], hideFields: [], quantityCap: 3 });

    const cleared = await t.admin('PATCH', path, { json: { view: null } });
    expect(cleared.status).toBe(200);
    expect(cleared.body.data.view).toBeNull();
    expect(cleared.body.data.viewUpdatedAt).not.toBeNull();
    expect((await t.server.store.getApiKey(record.id))?.view).toBeNull();

    const events = (await t.server.store.listAuditEvents(org.id)).filter(
      (e) => e.action === 'key.updated',
    );
    expect(events.map((e) => e.details)).toEqual([
      expect.objectContaining({ previousView: null, view: VIEW }),
      expect.objectContaining({
        previousView: VIEW,
        view: { where: [], hideFields: [], quantityCap: 3 },
      }),
      expect.objectContaining({ view: null }),
    ]);
    expect(events[0]?.actor).toBe('admin-api:127.0.0.1');

    // The same view again changes nothing.
    const again = await refused(org.id, 'PATCH', path, { view: null }, 400);
    expect(again).toMatchObject({ code: 'INVALID_REQUEST', param: 'view' });
    expect(again.message).toMatch(/has no view already/);
  });

  it.each([
    [{ view: { where: ['status=Active', 'colour=red'] } }, 'view.where[1]', /cannot be filtered/],
    [{ view: { where: ['status=Gone'] } }, 'view.where[0]', /"Gone" is not a status/],
    [{ view: { where: ['location='] } }, 'view.where[0]', /location=/],
    [{ view: { where: ['customFields.a=\u0000'] } }, 'view.where[0]', /NUL/],
    [{ view: { hideFields: ['barcode', 'name'] } }, 'view.hideFields[1]', /name cannot be hidden/],
    [{ view: { hideFields: ['colour'] } }, 'view.hideFields[0]', /is not an item field/],
    [{ view: { hideFields: ['barcode,stock'] } }, 'view.hideFields[0]', /one field per entry/],
    [{ view: { hideFields: [''] } }, 'view.hideFields[0]', /no field named/],
    [{ view: { quantityCap: -1 } }, 'view.quantityCap', /at least 0/],
    [{ view: { quantityCap: 1.5 } }, 'view.quantityCap', /integer/],
    [{ view: { quantityCap: 1_000_000_001 } }, 'view.quantityCap', /at most 1000000000/],
    [{ view: { where: 'status=Active' } }, 'view.where', /must be an array/],
    [{ view: { where: Array(11).fill('status=Active') } }, 'view.where', /at most 10/],
    [{ view: { colour: 'red' } }, 'view.colour', /Unknown field "colour"/],
    [{ view: 'status=Active' }, 'view', /JSON object or null/],
    [{}, 'view', /view is required/],
  ])('PATCH refuses %j naming %s, and writes nothing', async (json, param, message) => {
    const org = await t.server.createOrganization();
    const { record } = await t.server.createKey({ organizationId: org.id });
    const path = `/admin/v1/organizations/${org.id}/keys/${record.id}`;
    const error = await refused(org.id, 'PATCH', path, json, 400);
    expect(error).toMatchObject({ code: 'INVALID_REQUEST', param });
    expect(error.message).toMatch(message);
    if ('view' in json) {
      // POST checks a view the same way.
      const created = await refused(
        org.id,
        'POST',
        `/admin/v1/organizations/${org.id}/keys`,
        json,
        400,
      );
      expect(created).toMatchObject({ code: 'INVALID_REQUEST', param });
    }
  });

  it('an unknown location is 404 LOCATION_NOT_FOUND naming the filter, on POST and PATCH', async () => {
    const org = await withLocation();
    const { record } = await t.server.createKey({ organizationId: org.id });
    const view = { where: ['location=WH-1', 'location=wh-1'] };
    for (const [method, path] of [
      ['POST', `/admin/v1/organizations/${org.id}/keys`],
      ['PATCH', `/admin/v1/organizations/${org.id}/keys/${record.id}`],
    ] as const) {
      const error = await refused(org.id, method, path, { view }, 404);
      expect(error).toMatchObject({ code: 'LOCATION_NOT_FOUND', param: 'view.where[1]' });
      expect(error.message).toMatch(/no location with code "wh-1"/);
    }
  });

  it('PATCH: 404 for an unknown organization or key, 409 for a revoked key', async () => {
    const org = await t.server.createOrganization();
    const other = await t.server.createOrganization();
    const { record } = await t.server.createKey({ organizationId: other.id });
    const json = { view: { quantityCap: 1 } };
    const noOrg = await t.admin('PATCH', `/admin/v1/organizations/nope/keys/${record.id}`, {
      json,
    });
    expect(noOrg.status).toBe(404);
    expect(noOrg.body.error.code).toBe('ORGANIZATION_NOT_FOUND');
    const elsewhere = await refused(
      other.id,
      'PATCH',
      `/admin/v1/organizations/${org.id}/keys/${record.id}`,
      json,
      404,
    );
    expect(elsewhere).toMatchObject({ code: 'KEY_NOT_FOUND', param: 'keyId' });
    const base = `/admin/v1/organizations/${other.id}/keys/${record.id}`;
    expect((await t.admin('POST', `${base}/revoke`)).status).toBe(200);
    const revoked = await refused(other.id, 'PATCH', base, json, 409);
    expect(revoked).toMatchObject({ code: 'KEY_REVOKED', param: 'keyId' });
    expect(revoked.message).toMatch(/cannot be updated/);
  });

  it('the OpenAPI document has the PATCH route and the view in every key', async () => {
    const doc = (await t.admin('GET', '/admin/v1/openapi.json')).body;
    const patch = doc.paths['/admin/v1/organizations/{org}/keys/{keyId}'].patch;
    expect(patch.summary).toBe('Update a key’s view');
    expect(Object.keys(patch.responses).sort()).toEqual(
      ['200', '400', '401', '404', '409', '415', '429', '500', '503'].sort(),
    );
    const body = JSON.stringify(patch.requestBody);
    expect(body).toContain('quantityCap');
    const shown = JSON.stringify(patch.responses['200']);
    expect(shown).toContain('viewUpdatedAt');
    const create = doc.paths['/admin/v1/organizations/{org}/keys'].post;
    expect(JSON.stringify(create.requestBody)).toContain('hideFields');
  });
});
