import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor } from '../../operations/audit.js';
import { importItemsFile } from '../../operations/items.js';
import { createLocation, removeLocation } from '../../operations/locations.js';
import type { Organization } from '../../store/types.js';
import { engineAvailability } from '../../testing/engines.js';
import { startTestServer, type TestServer } from '../../testing/harness.js';
import {
  expectApiError,
  KEYED_ROUTES,
  keyedRouteSecuritySuite,
} from '../../testing/security-suite.js';
import { parseAllowedNetworks } from '../../webhooks/destination.js';
import { createWebhook } from '../../webhooks/manage.js';
import { startReceiver, type TestReceiver } from '../../webhooks/testing.js';

/**
 * Stock per location end to end (issue 31), on both engines: locations, a CSV import with
 * stock.CODE columns, items read with fields=stock and location=, a stock change seen by
 * updatedSince and a webhook, and a location's removal seen the same way.
 */
keyedRouteSecuritySuite(KEYED_ROUTES.locations);

describe("GET /api/v1/inventory/locations: the item endpoints' gate", () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t?.close());

  it('needs the inventory feature and the inventory:view permission', async () => {
    const noFeature = await t.createOrganization({ features: [] });
    const { key: featureless } = await t.createKey({ organizationId: noFeature.id });
    expectApiError(
      await t.request('/api/v1/inventory/locations', { key: featureless }),
      403,
      'FEATURE_DISABLED',
    );
    const org = await t.createOrganization();
    const { key: noPermission } = await t.createKey({ organizationId: org.id, permissions: [] });
    expectApiError(
      await t.request('/api/v1/inventory/locations', { key: noPermission }),
      403,
      'INSUFFICIENT_PERMISSIONS',
    );
  });

  it('answers an ETag, and 304 for If-None-Match', async () => {
    const org = await t.createOrganization();
    const { key } = await t.createKey({ organizationId: org.id });
    const first = await t.request('/api/v1/inventory/locations', { key });
    expect(first.body).toEqual({ data: [], organizationId: org.id, count: 0 });
    const etag = first.headers.get('etag') as string;
    const again = await t.request('/api/v1/inventory/locations', {
      key,
      headers: { 'if-none-match': etag },
    });
    expect(again.status).toBe(304);
  });
});

const LEGS = await engineAvailability('stock per location walk');
const ENV = {
  WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1',
  WEBHOOK_POLL_INTERVAL: '20ms',
  WEBHOOK_RETRY_DELAYS: '50ms,50ms',
};
const ITEMS = '/api/v1/inventory/items';

for (const { engine, skip } of LEGS) {
  describe.skipIf(skip !== null)(`stock per location on ${engine.name}`, () => {
    let t: TestServer;
    let receiver: TestReceiver;
    let org: Organization;
    let key: string;
    const dir = mkdtempSync(path.join(tmpdir(), 'stockroom-stock-'));

    beforeAll(async () => {
      t = await startTestServer({ engine: engine.name as 'sqlite' | 'postgres', env: ENV });
      receiver = await startReceiver();
      org = await t.createOrganization();
      key = (await t.createKey({ organizationId: org.id, rateLimit: null })).key;
    });
    afterAll(async () => {
      await receiver?.close();
      await t?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    const get = async (query: string) => {
      const answer = await t.request(`${ITEMS}${query}`, { key });
      expect(answer.status, answer.text).toBe(200);
      return answer.body;
    };
    const importCsv = (name: string, text: string) => {
      const file = path.join(dir, name);
      writeFileSync(file, text);
      return importItemsFile(t.store, cliActor(), org, file);
    };

    it('walks locations, imports, reads, syncs, delivers and removes', async () => {
      await createLocation(t.store, cliActor(), org, { code: 'WH', name: 'Warehouse' });
      await createLocation(t.store, cliActor(), org, { code: 'SHOP', name: 'Shop floor' });
      await createLocation(t.store, cliActor(), org, { code: 'BACK', name: 'Back room' });

      const listed = await t.request('/api/v1/inventory/locations', { key });
      expect(listed.status, listed.text).toBe(200);
      expect(listed.body).toEqual({
        data: [
          { _id: expect.stringMatching(/^[0-9a-f]{24}$/), code: 'BACK', name: 'Back room' },
          { _id: expect.any(String), code: 'SHOP', name: 'Shop floor' },
          { _id: expect.any(String), code: 'WH', name: 'Warehouse' },
        ],
        organizationId: org.id,
        count: 3,
      });

      const imported = await importCsv(
        'first.csv',
        'sku,name,status,stock.WH,stock.SHOP\n' +
          'TENT,Tent,Active,4,1\n' +
          'STOVE,Stove,Active,,3\n' +
          'LAMP,Lamp,Draft,0,\n' +
          'MUG,Mug,Active,,\n',
      );
      expect(imported).toMatchObject({ created: 4, failed: 0 });

      const all = await get('?fields=sku,quantity,stock');
      expect(all.data).toEqual([
        {
          sku: 'TENT',
          quantity: 5,
          stock: [
            { location: 'SHOP', quantity: 1 },
            { location: 'WH', quantity: 4 },
          ],
        },
        { sku: 'STOVE', quantity: 3, stock: [{ location: 'SHOP', quantity: 3 }] },
        { sku: 'LAMP', quantity: 0, stock: [{ location: 'WH', quantity: 0 }] },
        { sku: 'MUG', quantity: 0, stock: [] },
      ]);
      // Field order: stock after quantity, before customFields.
      const full = await get('?limit=1');
      expect(Object.keys(full.data[0])).toEqual([
        '_id',
        'organizationId',
        'name',
        'description',
        'sku',
        'barcode',
        'status',
        'quantity',
        'stock',
        'customFields',
        'createdAt',
        'updatedAt',
      ]);

      const atShop = await get('?location=SHOP&fields=sku');
      expect(atShop.data.map((i: { sku: string }) => i.sku)).toEqual(['TENT', 'STOVE']);
      expect((await get('?location=WH&fields=sku')).data).toEqual([{ sku: 'TENT' }]);
      expect((await get('?location=SHOP&search=sto&fields=sku')).data).toEqual([{ sku: 'STOVE' }]);
      expect((await get('?location=SHOP&sku=TENT&fields=sku')).data).toEqual([{ sku: 'TENT' }]);
      expect((await get('?location=BACK')).data).toEqual([]);
      const firstPage = await get('?location=SHOP&limit=1&fields=sku');
      expect(firstPage.data).toEqual([{ sku: 'TENT' }]);
      const secondPage = await get(
        `?location=SHOP&limit=1&fields=sku&cursor=${firstPage.nextCursor}`,
      );
      expect(secondPage.data).toEqual([{ sku: 'STOVE' }]);
      // A cursor belongs to its location.
      expectApiError(
        await t.request(`${ITEMS}?location=WH&cursor=${firstPage.nextCursor}`, { key }),
        400,
        'INVALID_PARAMETER',
      );
      const unknown = await t.request(`${ITEMS}?location=wh`, { key });
      expectApiError(unknown, 400, 'INVALID_PARAMETER');
      expect(unknown.body.error.param).toBe('location');
      expect(unknown.body.error.message).toMatch(/no location with that code/);

      // A webhook from now on, and the sync point of now.
      await createWebhook(
        t.store,
        cliActor(),
        org,
        {
          url: receiver.url,
          events: ['item.created', 'item.updated', 'item.deleted'],
          description: null,
        },
        parseAllowedNetworks('127.0.0.1'),
      );
      const since = (await get('?updatedSince=1970-01-01&fields=sku')).nextSince as string;
      const etag = (await t.request(`${ITEMS}?sku=TENT`, { key })).headers.get('etag');

      // One location's quantity changes by import; an unchanged row stays untouched.
      const second = await importCsv('second.csv', 'sku,stock.WH,stock.SHOP\nTENT,4,6\nSTOVE,,3\n');
      expect(second).toMatchObject({ updated: 1, unchanged: 1, failed: 0 });
      const changed = await get(`?updatedSince=${since}&fields=sku,quantity,stock`);
      expect(changed.data).toEqual([
        {
          sku: 'TENT',
          quantity: 10,
          stock: [
            { location: 'SHOP', quantity: 6 },
            { location: 'WH', quantity: 4 },
          ],
        },
      ]);
      const after = await t.request(`${ITEMS}?sku=TENT`, { key });
      expect(after.headers.get('etag')).not.toBe(etag);
      const delivery = await receiver.next();
      expect(delivery.json.events).toEqual([
        expect.objectContaining({
          type: 'item.updated',
          item: expect.objectContaining({
            sku: 'TENT',
            quantity: 10,
            stock: [
              { location: 'SHOP', quantity: 6 },
              { location: 'WH', quantity: 4 },
            ],
          }),
        }),
      ]);
      // location= combines with sync.
      const syncAtShop = await get(`?updatedSince=1970-01-01&location=SHOP&fields=sku`);
      expect(syncAtShop.data.map((i: { sku: string }) => i.sku).sort()).toEqual(['STOVE', 'TENT']);

      // Removing SHOP changes TENT and STOVE: quantities become the sum of the rows left.
      const before = changed.nextSince as string;
      expect(await removeLocation(t.store, cliActor(), org, 'SHOP')).toMatchObject({ items: 2 });
      const removed = await get(`?updatedSince=${before}&fields=sku,quantity,stock`);
      expect(removed.data).toEqual([
        { sku: 'TENT', quantity: 4, stock: [{ location: 'WH', quantity: 4 }] },
        { sku: 'STOVE', quantity: 0, stock: [] },
      ]);
      const removal = await receiver.next();
      expect(
        removal.json.events.map((e: { type: string; item: { sku: string; quantity: number } }) => [
          e.type,
          e.item.sku,
          e.item.quantity,
        ]),
      ).toEqual([
        ['item.updated', 'TENT', 4],
        ['item.updated', 'STOVE', 0],
      ]);
      expectApiError(await t.request(`${ITEMS}?location=SHOP`, { key }), 400, 'INVALID_PARAMETER');
      expect((await t.request('/api/v1/inventory/locations', { key })).body.count).toBe(2);
    });
  });
}
