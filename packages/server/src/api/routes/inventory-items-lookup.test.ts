import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness.js';
import { expectApiError } from '../../testing/security-suite.js';

const ITEMS = '/api/v1/inventory/items';

describe('exact lookups: sku, barcode and ids', () => {
  let server: TestServer;
  let key: string;
  let orgId: string;
  let otherItemId: string;
  const idsBySku = new Map<string, string>();

  beforeAll(async () => {
    server = await startTestServer();
    const org = await server.createOrganization();
    orgId = org.id;
    key = (await server.createKey({ organizationId: orgId, rateLimit: null })).key;
    await server.createItems(orgId, [
      { name: 'Drill', sku: 'DRL-1', barcode: '4006381333931', status: 'Active' },
      { name: 'Drill, lower-case sku', sku: 'drl-1', barcode: '4006381333931', status: 'Draft' },
      { name: 'Saw', sku: 'SAW-1', barcode: '5901234123457', status: 'Active' },
      { name: 'Percent', sku: '100%_off', barcode: null },
      ...Array.from({ length: 20 }, (_, i) => ({
        name: `Filler ${i}`,
        sku: `FILL-${i}`,
        barcode: '0000000000000',
      })),
    ]);
    for (const item of await server.store.listItems(orgId, { limit: 100 })) {
      if (item.sku) idsBySku.set(item.sku, item.id);
    }
    const other = await server.createOrganization();
    await server.createItems(other.id, [
      { name: 'Theirs', sku: 'DRL-1', barcode: '4006381333931' },
    ]);
    otherItemId = (await server.store.listItems(other.id, { limit: 1 }))[0]?.id as string;
  });
  afterAll(() => server.close());

  const get = (query: string) => server.request(`${ITEMS}${query}`, { key });
  const skus = (body: { data: Array<{ sku: string }> }) => body.data.map((item) => item.sku);

  it('finds an item by its exact sku, case-sensitively, and only in the key’s organization', async () => {
    const response = await get('?sku=DRL-1');
    expect(response.status).toBe(200);
    expect(skus(response.body)).toEqual(['DRL-1']);
    expect(response.body.data[0].organizationId).toBe(orgId);
    expect(response.body.nextCursor).toBeNull();
    expect(skus((await get('?sku=drl-1')).body)).toEqual(['drl-1']);
    // Literal: no pattern characters, no substring.
    expect(skus((await get('?sku=100%25_off')).body)).toEqual(['100%_off']);
    expect((await get('?sku=100%25')).body.data).toEqual([]);
    expect((await get('?sku=DRL')).body.data).toEqual([]);
  });

  it('finds every item with a barcode, combined with status and paged with a cursor', async () => {
    expect(skus((await get('?barcode=4006381333931')).body)).toEqual(['DRL-1', 'drl-1']);
    expect(skus((await get('?barcode=4006381333931&status=Active')).body)).toEqual(['DRL-1']);
    const first = await get('?barcode=0000000000000&limit=15');
    expect(first.body.count).toBe(15);
    const second = await get(`?barcode=0000000000000&limit=15&cursor=${first.body.nextCursor}`);
    expect(second.body.count).toBe(5);
    expect(second.body.nextCursor).toBeNull();
    const all = [...skus(first.body), ...skus(second.body)];
    expect(new Set(all).size).toBe(20);
    // A cursor of the barcode walk is refused for another barcode.
    const mixed = await get(`?barcode=5901234123457&cursor=${first.body.nextCursor}`);
    expectApiError(mixed, 400, 'INVALID_PARAMETER');
    expect(mixed.body.error.param).toBe('cursor');
  });

  it('fetches up to 100 ids at once in _id order; unknown and foreign ids are simply absent', async () => {
    const wanted = ['SAW-1', 'DRL-1', 'FILL-3'].map((sku) => idsBySku.get(sku) as string);
    const unknown = 'ffffffffffffffffffffffff';
    const response = await get(`?ids=${[...wanted, unknown, otherItemId, wanted[0]].join(',')}`);
    expect(response.status).toBe(200);
    expect(response.body.data.map((item: { _id: string }) => item._id)).toEqual([...wanted].sort());
    expect(response.body.data.some((item: { _id: string }) => item._id === otherItemId)).toBe(
      false,
    );
    const hundred = Array.from({ length: 100 }, (_, i) => i.toString(16).padStart(24, '0'));
    expect((await get(`?ids=${hundred.join(',')}`)).status).toBe(200);
  });

  it('refuses malformed lookups and lookups combined with search', async () => {
    const tooMany = Array.from({ length: 101 }, (_, i) => i.toString(16).padStart(24, '0'));
    const cases: Array<[string, string, RegExp]> = [
      [`?ids=${tooMany.join(',')}`, 'ids', /1 to 100/],
      ['?ids=abc', 'ids', /24-character/],
      ['?ids=', 'ids', /24-character/],
      [`?ids=${'a'.repeat(24)},,${'b'.repeat(24)}`, 'ids', /without spaces/],
      ['?sku=', 'sku', /1 to 100/],
      [`?sku=${'x'.repeat(101)}`, 'sku', /1 to 100/],
      ['?barcode=', 'barcode', /1 to 100/],
      ['?sku=DRL-1&search=drill', 'search', /cannot be combined with sku/],
      ['?barcode=1&ids=aaaaaaaaaaaaaaaaaaaaaaaa&search=x', 'search', /sku|barcode or ids/],
    ];
    for (const [query, param, message] of cases) {
      const response = await get(query);
      expectApiError(response, 400, 'INVALID_PARAMETER');
      expect(response.body.error.param, query).toBe(param);
      expect(response.body.error.message, query).toMatch(message);
    }
  });
});
