import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseView } from '../domain/view.js';
import { cliActor } from '../operations/audit.js';
import { createLocation } from '../operations/locations.js';
import { stockText } from '../store/items/stock.js';
import type { Organization } from '../store/types.js';
import { startTestServer, type TestServer } from '../testing/harness.js';
import { expectApiError } from '../testing/security-suite.js';

/**
 * A query refused for what the key's view hides or for an unknown location is query validation
 * (docs/architecture.md#keys): it spends no use of the key's quota, on the API's routes and in
 * MCP tools/call alike, while a valid request still spends exactly one.
 */
describe('query checks come before the quota charge', () => {
  let t: TestServer;
  let org: Organization;
  let itemId: string;

  beforeAll(async () => {
    t = await startTestServer();
    org = await t.createOrganization();
    await createLocation(t.store, cliActor(), org, { code: 'WH', name: 'Warehouse' });
    await t.createItems(org.id, [
      { name: 'Tent', sku: 'TENT', barcode: '111', status: 'Active', stock: stockText({ WH: 2 }) },
    ]);
    const full = (await t.createKey({ organizationId: org.id, rateLimit: null })).key;
    itemId = (await t.request('/api/v1/inventory/items?fields=_id', { key: full })).body.data[0]
      ._id;
  });
  afterAll(() => t?.close());

  /** A key with a quota of 10 whose view hides every field a filter could reveal. */
  async function hidingKey(hideFields = ['barcode', 'sku', 'status', 'stock']) {
    const { key, record } = await t.createKey({
      organizationId: org.id,
      rateLimit: null,
      remaining: 10,
      view: parseView({ hideFields }),
    });
    const remaining = async () => (await t.store.getApiKey(record.id))?.remaining;
    return { key, remaining };
  }

  const ITEMS = '/api/v1/inventory/items';
  const ITEM = '/api/v1/inventory/item';

  it('the API routes: a hidden field or filter, an unknown location', async () => {
    const { key, remaining } = await hidingKey();
    const refusals: Array<[string, string]> = [
      [`${ITEMS}?fields=name,barcode`, 'fields'],
      [`${ITEMS}?barcode=111`, 'barcode'],
      [`${ITEMS}?sku=TENT`, 'sku'],
      [`${ITEMS}?status=Active`, 'status'],
      [`${ITEMS}?location=WH`, 'location'],
      [`${ITEMS}?updatedSince=1970-01-01&status=Active`, 'status'],
      [`${ITEM}?itemId=${itemId}&fields=sku`, 'fields'],
    ];
    for (const [path, param] of refusals) {
      const answer = await t.request(path, { key });
      expectApiError(answer, 400, 'INVALID_PARAMETER');
      expect(answer.body.error.param, path).toBe(param);
      expect(answer.body.error.message).toContain('not available to this key');
      expect(await remaining(), path).toBe(10);
    }
    const locating = await hidingKey(['barcode']);
    const unknown = await t.request(`${ITEMS}?location=NOPE`, { key: locating.key });
    expectApiError(unknown, 400, 'INVALID_PARAMETER');
    expect(unknown.body.error.param).toBe('location');
    expect(unknown.body.error.message).toContain('Unknown location "NOPE"');
    expect(await locating.remaining()).toBe(10);

    // A location code is judged only for a key that may read the organization's items: one
    // without the permission learns nothing of which codes exist.
    const outsider = await t.createKey({
      organizationId: org.id,
      rateLimit: null,
      permissions: [],
    });
    const probe = await t.request(`${ITEMS}?location=NOPE`, { key: outsider.key });
    expectApiError(probe, 403, 'INSUFFICIENT_PERMISSIONS');

    expect((await t.request(`${ITEMS}?fields=name`, { key })).status).toBe(200);
    expect(await remaining()).toBe(9);
    expect((await t.request(`${ITEM}?itemId=${itemId}`, { key })).status).toBe(200);
    expect(await remaining()).toBe(8);
    expect((await t.request(`${ITEMS}?location=WH`, { key: locating.key })).status).toBe(200);
    expect(await locating.remaining()).toBe(9);
  });

  it('MCP tools/call: a hidden field or filter, an unknown location', async () => {
    const call = async (key: string, name: string, args: Record<string, unknown>) => {
      const answer = await t.request('/mcp', {
        key,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name, arguments: args },
        }),
      });
      expect(answer.status, answer.text).toBe(200);
      return answer.body.result as { isError?: boolean; content: Array<{ text: string }> };
    };
    const { key, remaining } = await hidingKey();
    const refusals: Array<[string, Record<string, unknown>]> = [
      ['search_items', { fields: 'name,barcode' }],
      ['search_items', { barcode: '111' }],
      ['search_items', { sku: 'TENT' }],
      ['search_items', { status: 'Active' }],
      ['search_items', { location: 'WH' }],
      ['get_item', { itemId, fields: 'sku' }],
    ];
    for (const [name, args] of refusals) {
      const result = await call(key, name, args);
      expect(result.isError, JSON.stringify(args)).toBe(true);
      expect(result.content[0]?.text).toContain('not available to this key');
      expect(await remaining(), JSON.stringify(args)).toBe(10);
    }
    const locating = await hidingKey(['barcode']);
    const unknown = await call(locating.key, 'search_items', { location: 'NOPE' });
    expect(unknown.isError).toBe(true);
    expect(unknown.content[0]?.text).toContain('Unknown location "NOPE"');
    expect(await locating.remaining()).toBe(10);

    expect((await call(key, 'search_items', { fields: 'name' })).isError).toBeUndefined();
    expect(await remaining()).toBe(9);
    expect((await call(key, 'get_item', { itemId })).isError).toBeUndefined();
    expect(await remaining()).toBe(8);
    expect((await call(locating.key, 'search_items', { location: 'WH' })).isError).toBeUndefined();
    expect(await locating.remaining()).toBe(9);
  });
});
