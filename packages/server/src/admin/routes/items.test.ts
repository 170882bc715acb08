import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Organization } from '../../store/types.js';
import { type AdminTestServer, startAdminTestServer } from '../testing.js';

/**
 * Bulk item writes on the admin port, against a real server and database: the row checks of
 * `stockroom items import`, per-row outcomes, all-or-nothing, dry runs, and deletions that
 * incremental sync reports as tombstones.
 */

let t: AdminTestServer;

beforeAll(async () => {
  t = await startAdminTestServer();
});
afterAll(() => t?.close());

/** The organization's items as stored (with their timestamps), to prove nothing changed. */
async function items(org: Organization) {
  return JSON.stringify(await t.server.store.listItems(org.id, { limit: 10_000 }));
}

const upsert = (org: Organization, rows: unknown, query = '') =>
  t.admin('POST', `/admin/v1/organizations/${org.slug}/items/bulk-upsert${query}`, { json: rows });

describe('POST /admin/v1/organizations/{org}/items/bulk-upsert', () => {
  it('creates, updates and leaves unchanged by sku, with one outcome per row and one audit event', async () => {
    const org = await t.server.createOrganization();
    await t.server.createItems(org.id, [
      { name: 'Tent', sku: 'TENT-1', quantity: 3 },
      { name: 'Stove', sku: 'STOVE-1', quantity: 1 },
    ]);
    const stove = (await t.server.store.listItems(org.id, { limit: 10, sku: 'STOVE-1' }))[0];
    const answer = await upsert(org, [
      { sku: 'TENT-1', quantity: 5 },
      { sku: 'STOVE-1', name: 'Stove', quantity: 1 },
      { name: 'Lamp', sku: 'LAMP-1', status: 'Active', customFields: { watts: 5 } },
      { name: 'No sku' },
    ]);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.data).toEqual({
      mode: 'all-or-nothing',
      dryRun: false,
      committed: true,
      created: 2,
      updated: 1,
      unchanged: 1,
      failed: 0,
      rows: [
        { index: 0, sku: 'TENT-1', outcome: 'updated' },
        { index: 1, sku: 'STOVE-1', outcome: 'unchanged' },
        { index: 2, sku: 'LAMP-1', outcome: 'created' },
        { index: 3, sku: null, outcome: 'created' },
      ],
    });
    const [tent] = await t.server.store.listItems(org.id, { limit: 10, sku: 'TENT-1' });
    expect(tent).toMatchObject({ name: 'Tent', quantity: 5 });
    const [stoveAfter] = await t.server.store.listItems(org.id, { limit: 10, sku: 'STOVE-1' });
    expect(stoveAfter?.updatedAt).toBe(stove?.updatedAt);
    const [lamp] = await t.server.store.listItems(org.id, { limit: 10, sku: 'LAMP-1' });
    expect(lamp?.customFields).toBe('{"watts":5}');
    const events = await t.server.store.listAuditEvents(org.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      action: 'items.imported',
      actor: 'admin-api:127.0.0.1',
      target: null,
      details: { rows: 4, mode: 'all-or-nothing', created: 2, updated: 1, unchanged: 1, failed: 0 },
    });
    // The API serves what was written.
    const { key } = await t.server.createKey({ organizationId: org.id });
    const listed = await t.server.request('/api/v1/inventory/items?sku=LAMP-1', { key });
    expect(listed.body.data[0]).toMatchObject({
      name: 'Lamp',
      status: 'Active',
      customFields: { watts: 5 },
    });
  });

  it('all-or-nothing (the default): one rejected row writes nothing, and every rejected row is named', async () => {
    const org = await t.server.createOrganization();
    await t.server.createItems(org.id, [{ name: 'Tent', sku: 'TENT-1', quantity: 3 }]);
    const before = await items(org);
    const answer = await upsert(org, [
      { sku: 'TENT-1', quantity: 4 },
      { name: 'Bad', sku: 'BAD-1', quantity: 'many' },
      { sku: 'NEW-1', quantity: 1 },
      { name: 'Dup', sku: 'TENT-1' },
      'not an object',
      { name: 'Odd', colour: 'red' },
    ]);
    expect(answer.status).toBe(422);
    expect(answer.body.error).toMatchObject({ code: 'ITEMS_REJECTED', status: 422 });
    expect(answer.body.error.message).toMatch(/5 rows were rejected, so nothing was written/);
    expect(answer.body.error.docUrl).toMatch(/\/en\/docs\/admin-api#items_rejected$/);
    const result = answer.body.result;
    expect(result).toMatchObject({
      committed: false,
      created: 0,
      updated: 0,
      unchanged: 0,
      failed: 5,
    });
    expect(result.rows.map((r: { outcome: string }) => r.outcome)).toEqual([
      'skipped',
      'failed',
      'failed',
      'failed',
      'failed',
      'failed',
    ]);
    const reasons = result.rows.map((r: { reason?: string }) => r.reason ?? null);
    expect(reasons[1]).toMatch(/quantity must be a finite number/);
    // A new sku without a name: only the store can tell, and it is named too.
    expect(reasons[2]).toMatch(/name/);
    expect(reasons[3]).toMatch(/duplicate sku "TENT-1" \(first used by row 0\)/);
    expect(reasons[4]).toMatch(/expected a JSON object for the item, got a string/);
    expect(reasons[5]).toMatch(/unknown field "colour"/);
    expect(await items(org)).toBe(before);
    expect(await t.server.store.listAuditEvents(org.id)).toEqual([]);
  });

  it('per-row: writes the valid rows and reports the others', async () => {
    const org = await t.server.createOrganization();
    const answer = await upsert(
      org,
      [{ name: 'Good', sku: 'G-1' }, { name: '', sku: 'B-1' }, { name: 'Also good' }],
      '?mode=per-row',
    );
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({
      mode: 'per-row',
      committed: true,
      created: 2,
      failed: 1,
      rows: [
        { index: 0, outcome: 'created' },
        {
          index: 1,
          sku: 'B-1',
          outcome: 'failed',
          reason: expect.stringMatching(/name cannot be an empty string/),
        },
        { index: 2, outcome: 'created' },
      ],
    });
    expect(await t.server.store.countItems(org.id)).toBe(2);
    const [event] = await t.server.store.listAuditEvents(org.id);
    expect(event?.details).toMatchObject({ mode: 'per-row', created: 2, failed: 1 });
  });

  it('dryRun computes every outcome and writes nothing, in either mode', async () => {
    const org = await t.server.createOrganization();
    await t.server.createItems(org.id, [{ name: 'Tent', sku: 'TENT-1', quantity: 3 }]);
    const before = await items(org);
    const ok = await upsert(org, [{ sku: 'TENT-1', quantity: 9 }, { name: 'New' }], '?dryRun=true');
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ dryRun: true, committed: false, created: 1, updated: 1 });
    const bad = await upsert(
      org,
      [{ sku: 'TENT-1', quantity: 9 }, { name: 'x'.repeat(201) }],
      '?dryRun=true',
    );
    expect(bad.status).toBe(422);
    expect(bad.body.result.rows[1].reason).toMatch(/201 characters long; the maximum is 200/);
    const perRow = await upsert(
      org,
      [{ sku: 'TENT-1', quantity: 9 }, { quantity: 1 }],
      '?mode=per-row&dryRun=true',
    );
    expect(perRow.status).toBe(200);
    expect(perRow.body.data).toMatchObject({ committed: false, updated: 1, failed: 1 });
    expect(await items(org)).toBe(before);
    expect(await t.server.store.listAuditEvents(org.id)).toEqual([]);
  });

  it('accepts an empty array, and the API fields _id, organizationId, createdAt, updatedAt (ignored)', async () => {
    const org = await t.server.createOrganization();
    const empty = await upsert(org, []);
    expect(empty.status).toBe(200);
    expect(empty.body.data).toMatchObject({ committed: true, created: 0, rows: [] });
    const exported = await upsert(org, [
      {
        _id: '0123456789abcdef01234567',
        organizationId: 'x',
        name: 'Copied',
        sku: 'C-1',
        createdAt: 'then',
        updatedAt: 'now',
      },
    ]);
    expect(exported.body.data.created).toBe(1);
    const [copied] = await t.server.store.listItems(org.id, { limit: 1, sku: 'C-1' });
    expect(copied?.id).not.toBe('0123456789abcdef01234567');
  });

  it.each([
    [{ name: 'Not an array' }, 'body', /must be a JSON array of items/],
    [
      Array.from({ length: 1001 }, (_, i) => ({ name: `Item ${i}` })),
      'body',
      /1001 rows; send at most 1000/,
    ],
  ])(
    'refuses a body that is not 0-1000 rows (%#), writing nothing',
    async (json, param, message) => {
      const org = await t.server.createOrganization();
      const answer = await upsert(org, json);
      expect(answer.status).toBe(400);
      expect(answer.body.error).toMatchObject({ code: 'INVALID_REQUEST', param });
      expect(answer.body.error.message).toMatch(message);
      expect(await t.server.store.countItems(org.id)).toBe(0);
    },
  );

  it('refuses unknown modes and parameters, and unknown organizations', async () => {
    const org = await t.server.createOrganization();
    const mode = await upsert(org, [{ name: 'X' }], '?mode=some');
    expect(mode.status).toBe(400);
    expect(mode.body.error).toMatchObject({ param: 'mode' });
    expect(mode.body.error.message).toMatch(/mode must be one of all-or-nothing, per-row/);
    const strict = await upsert(org, [{ name: 'X' }], '?strict=true');
    expect(strict.body.error.message).toMatch(
      /Unknown query parameter "strict"; this endpoint accepts: mode, dryRun/,
    );
    const unknown = await t.admin('POST', '/admin/v1/organizations/nope/items/bulk-upsert', {
      json: [],
    });
    expect(unknown.status).toBe(404);
    expect(await t.server.store.countItems(org.id)).toBe(0);
  });

  it('takes 1000 rows of the largest items in one request', async () => {
    const org = await t.server.createOrganization();
    const rows = Array.from({ length: 1000 }, (_, i) => ({
      name: 'n'.repeat(200),
      sku: `BIG-${i}`,
      description: 'é'.repeat(5000),
      customFields: { blob: 'x'.repeat(16_000) },
    }));
    const answer = await upsert(org, rows, '?mode=per-row');
    expect(answer.status, answer.text.slice(0, 300)).toBe(200);
    expect(answer.body.data.created).toBe(1000);
  });
});

describe('POST /admin/v1/organizations/{org}/items/bulk-delete', () => {
  it('deletes by id and sku, leaving tombstones that incremental sync reports, and audit events', async () => {
    const org = await t.server.createOrganization();
    await t.server.createItems(org.id, [
      { name: 'A', sku: 'A-1' },
      { name: 'B', sku: 'B-1' },
      { name: 'C', sku: 'C-1' },
    ]);
    const [a, b, c] = await t.server.store.listItems(org.id, { limit: 10 });
    const { key } = await t.server.createKey({ organizationId: org.id, rateLimit: null });
    const start = await t.server.request(
      `/api/v1/inventory/items?updatedSince=${encodeURIComponent(new Date(Date.now() - 60_000).toISOString())}&includeDeleted=true`,
      { key },
    );
    expect(start.status).toBe(200);
    const since = start.body.nextSince as string;
    const answer = await t.admin('POST', `/admin/v1/organizations/${org.id}/items/bulk-delete`, {
      json: { ids: [a?.id, '0123456789abcdef01234567'], skus: ['B-1', 'NOPE'] },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual({
      deleted: 2,
      notFound: 2,
      rows: [
        { id: a?.id, outcome: 'deleted' },
        { id: '0123456789abcdef01234567', outcome: 'not_found' },
        { sku: 'B-1', outcome: 'deleted' },
        { sku: 'NOPE', outcome: 'not_found' },
      ],
    });
    const left = await t.server.store.listItems(org.id, { limit: 10 });
    expect(left.map((item) => item.id)).toEqual([c?.id]);
    const sync = await t.server.request(
      `/api/v1/inventory/items?updatedSince=${encodeURIComponent(since)}&includeDeleted=true`,
      { key },
    );
    expect(sync.status).toBe(200);
    expect(sync.body.deleted.map((d: { _id: string }) => d._id).sort()).toEqual(
      [a?.id, b?.id].sort(),
    );
    const events = await t.server.store.listAuditEvents(org.id);
    expect(events.map((e) => [e.action, e.target, e.details.id ?? e.details.sku, e.actor])).toEqual(
      [
        ['items.deleted', a?.id, a?.id, 'admin-api:127.0.0.1'],
        ['items.deleted', null, 'B-1', 'admin-api:127.0.0.1'],
      ],
    );
  });

  it.each([
    [{}, 'body', /Nothing to delete/],
    [{ ids: [], skus: [] }, 'body', /Nothing to delete/],
    [{ ids: ['abc'] }, 'ids[0]', /24 lowercase hex characters/],
    [{ skus: ['ok', ''] }, 'skus[1]', /must be 1-100 characters/],
    [{ skus: ['A\u0000'] }, 'skus[0]', /must not contain the NUL character/],
    [{ skus: 'A-1' }, 'skus', /skus must be an array, got a string/],
    [{ ids: [42] }, 'ids[0]', /ids\[0\] must be a string, got a number/],
    [{ skus: Array.from({ length: 1001 }, (_, i) => `S-${i}`) }, 'skus', /at most 1000 entries/],
    [{ sku: 'A-1' }, 'sku', /Unknown field "sku"; this endpoint accepts: ids, skus/],
  ])('refuses %j naming %s, and deletes nothing', async (json, param, message) => {
    const org = await t.server.createOrganization();
    await t.server.createItems(org.id, [{ name: 'A', sku: 'A-1' }]);
    const before = await items(org);
    const answer = await t.admin('POST', `/admin/v1/organizations/${org.id}/items/bulk-delete`, {
      json,
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: 'INVALID_REQUEST', param });
    expect(answer.body.error.message).toMatch(message);
    expect(await items(org)).toBe(before);
    expect(await t.server.store.listAuditEvents(org.id)).toEqual([]);
  });

  it('refuses a valid id list mixed with an invalid sku before deleting anything', async () => {
    const org = await t.server.createOrganization();
    await t.server.createItems(org.id, [{ name: 'A', sku: 'A-1' }]);
    const [a] = await t.server.store.listItems(org.id, { limit: 1 });
    const answer = await t.admin('POST', `/admin/v1/organizations/${org.id}/items/bulk-delete`, {
      json: { ids: [a?.id], skus: ['x'.repeat(101)] },
    });
    expect(answer.status).toBe(400);
    expect(await t.server.store.countItems(org.id)).toBe(1);
  });
});
