import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminTestServer, startAdminTestServer } from '../testing.js';

/** Locations on the admin port (issue 31), and stock through the bulk upsert. */

let t: AdminTestServer;

beforeAll(async () => {
  t = await startAdminTestServer();
});
afterAll(() => t?.close());

describe('/admin/v1/organizations/{org}/locations', () => {
  it('creates, lists by code, refuses a taken or malformed code, and removes', async () => {
    const org = await t.server.createOrganization();
    const base = `/admin/v1/organizations/${org.slug}/locations`;
    const created = await t.admin('POST', base, { json: { code: 'WH', name: 'Warehouse' } });
    expect(created.status, created.text).toBe(201);
    expect(created.body.data).toMatchObject({
      organizationId: org.id,
      code: 'WH',
      name: 'Warehouse',
    });
    expect((await t.admin('POST', base, { json: { code: 'A.1', name: 'Aisle' } })).status).toBe(
      201,
    );
    const listed = await t.admin('GET', base);
    expect(listed.body.data.map((l: { code: string }) => l.code)).toEqual(['A.1', 'WH']);
    const taken = await t.admin('POST', base, { json: { code: 'WH', name: 'Again' } });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toMatchObject({ code: 'CONFLICT' });
    const bad = await t.admin('POST', base, { json: { code: 'no space', name: 'x' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'INVALID_REQUEST', param: 'code' });

    const upsert = await t.admin('POST', `/admin/v1/organizations/${org.slug}/items/bulk-upsert`, {
      json: [
        { sku: 'T-1', name: 'Tent', stock: { WH: 4, 'A.1': 1 } },
        { sku: 'T-2', name: 'Tarp', stock: { NOPE: 1 } },
        { sku: 'T-3', name: 'Pole', quantity: 9, stock: { WH: 1 } },
        { sku: 'T-4', name: 'Peg', stock: { WH: -2 } },
      ],
    });
    expect(upsert.status, upsert.text).toBe(422);
    const reasons = upsert.body.result.rows.map((r: { reason?: string }) => r.reason ?? null);
    expect(reasons[1]).toMatch(/"NOPE"/);
    expect(reasons[2]).toMatch(/differs from the sum/);
    expect(reasons[3]).toMatch(/cannot be negative/);
    const partial = await t.admin('POST', `/admin/v1/organizations/${org.slug}/items/bulk-upsert`, {
      json: [{ sku: 'T-1', name: 'Tent', stock: { WH: 4, 'A.1': 1 } }],
    });
    expect(partial.status, partial.text).toBe(200);
    const [tent] = await t.server.store.listItems(org.id, { limit: 1, sku: 'T-1' });
    expect(tent).toMatchObject({ quantity: 5 });

    const removed = await t.admin('DELETE', `${base}/WH`);
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body).toMatchObject({ data: { code: 'WH' }, itemsChanged: 1 });
    const [after] = await t.server.store.listItems(org.id, { limit: 1, sku: 'T-1' });
    expect(after).toMatchObject({ quantity: 1, stock: '[{"location":"A.1","quantity":1}]' });
    const gone = await t.admin('DELETE', `${base}/WH`);
    expect(gone.status).toBe(404);
    expect(gone.body.error).toMatchObject({ code: 'LOCATION_NOT_FOUND' });
    const audit = await t.server.store.listAuditEvents(org.id, { limit: 20 });
    expect(audit.map((e) => e.action)).toEqual(
      expect.arrayContaining(['location.created', 'location.removed']),
    );
  });
});
