import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness.js';
import {
  expectApiError,
  KEYED_ROUTES,
  keyedRouteSecuritySuite,
} from '../../testing/security-suite.js';
import { ITEM_FIELDS } from '../item-fields.js';

keyedRouteSecuritySuite(KEYED_ROUTES.item);

describe('GET /api/v1/inventory/item', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const get = (query: string) =>
    server.request(`/api/v1/inventory/item${query}`, { key: server.demo.key });

  it('returns one item with every field', async () => {
    const response = await get(`?itemId=${server.demo.itemId}`);
    expect(response.status).toBe(200);
    expect(Object.keys(response.body)).toEqual(['data']);
    expect(Object.keys(response.body.data)).toEqual([...ITEM_FIELDS]);
    const stored = await server.store.getItem(server.demo.organizationId, server.demo.itemId);
    expect(response.body.data).toMatchObject({
      _id: server.demo.itemId,
      organizationId: server.demo.organizationId,
      name: stored?.name,
      sku: stored?.sku,
      quantity: stored?.quantity,
      customFields: JSON.parse(stored?.customFields ?? 'null'),
    });
  });

  it('narrows the item to the requested fields', async () => {
    const response = await get(`?itemId=${server.demo.itemId}&fields=quantity,name`);
    expect(Object.keys(response.body.data)).toEqual(['name', 'quantity']);
  });

  it('needs itemId', async () => {
    const response = await get('');
    expectApiError(response, 400, 'MISSING_PARAMETER');
    expect(response.body.error.param).toBe('itemId');
  });

  it.each(['abc', '', 'ZZZZZZZZZZZZZZZZZZZZZZZZ', `${'a'.repeat(25)}`, '6740A1F2C3D4E5F6A7B8C9D0'])(
    'rejects itemId=%j',
    async (itemId) => {
      const response = await get(`?itemId=${itemId}`);
      expectApiError(response, 400, 'INVALID_PARAMETER');
      expect(response.body.error.param).toBe('itemId');
    },
  );

  it('answers 404 for an unknown item', async () => {
    const response = await get(`?itemId=${'f'.repeat(24)}`);
    expectApiError(response, 404, 'ITEM_NOT_FOUND');
  });

  it('answers 404 for another organization’s item, like an unknown one', async () => {
    const other = await server.createOrganization();
    await server.createItems(other.id, [{ name: 'Secret prototype', sku: 'SECRET-1' }]);
    const [secret] = await server.store.listItems(other.id, { limit: 1 });
    const response = await get(`?itemId=${secret?.id}`);
    expectApiError(response, 404, 'ITEM_NOT_FOUND');
    expect(response.text).not.toContain('Secret');
  });

  it('ranks a repeated parameter above a missing itemId, and a missing itemId above an invalid one', async () => {
    const repeated = await get('?fields=name&fields=sku');
    expectApiError(repeated, 400, 'INVALID_PARAMETER');
    expect(repeated.body.error.param).toBe('fields');
    expect(repeated.body.error.message).toContain('"itemId" is required');
    const missing = await get('?fields=price');
    expectApiError(missing, 400, 'MISSING_PARAMETER');
    expect(missing.body.error.param).toBe('itemId');
    expect(missing.body.error.message).toContain('Invalid fields "price"');
  });

  it('ranks an unknown parameter above a missing itemId', async () => {
    const response = await get('?foo=1');
    expectApiError(response, 400, 'UNKNOWN_PARAMETER');
    expect(response.body.error.message).toContain('"itemId" is required');
  });
});
