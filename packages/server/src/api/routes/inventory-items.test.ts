import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ItemFields } from '../../store/types.js';
import { startTestServer, type TestServer } from '../../testing/harness.js';
import {
  expectApiError,
  KEYED_ROUTES,
  keyedRouteSecuritySuite,
} from '../../testing/security-suite.js';
import { ITEM_FIELDS } from '../item-fields.js';

keyedRouteSecuritySuite(KEYED_ROUTES.items);

const ITEMS = '/api/v1/inventory/items';

describe('GET /api/v1/inventory/items', () => {
  let server: TestServer;
  let key: string;
  let orgId: string;

  beforeAll(async () => {
    server = await startTestServer();
    const org = await server.createOrganization();
    orgId = org.id;
    key = (await server.createKey({ organizationId: org.id, rateLimit: null })).key;
    const rows: ItemFields[] = [];
    for (let i = 0; i < 1005; i++) {
      rows.push({
        name: `Bulk item ${i}`,
        sku: `BULK-${String(i).padStart(4, '0')}`,
        status: (['Draft', 'Active', 'Inactive', 'Discontinued'] as const)[i % 4],
        quantity: i,
      });
    }
    rows.push(
      {
        name: 'Crème Brûlée Torch',
        description: 'Kitchen TORCH for ÉCLAIRS',
        sku: 'CBT-1',
        barcode: '4006381333931',
        quantity: 2.5,
        status: 'Active',
        customFields: '{"z":1,"a":{"nested":[1,"two",null]},"m":"ünïcode"}',
      },
      {
        name: 'Discount 100% off tag',
        sku: 'PCT_TAG',
        description: 'under_score and back\\slash',
        status: 'Active',
      },
      { name: 'Σίσυφος stone', description: null, sku: null, barcode: null, status: 'Draft' },
    );
    await server.createItems(orgId, rows);
  });
  afterAll(() => server.close());

  const get = (query: string) => server.request(`${ITEMS}${query}`, { key });

  it('returns the envelope with 100 items by default in _id order', async () => {
    const response = await get('');
    expect(response.status).toBe(200);
    expect(Object.keys(response.body)).toEqual(['data', 'organizationId', 'count', 'nextCursor']);
    expect(response.body.organizationId).toBe(orgId);
    expect(response.body.count).toBe(100);
    expect(response.body.data).toHaveLength(100);
    const ids = response.body.data.map((item: { _id: string }) => item._id);
    expect([...ids].sort()).toEqual(ids);
    expect(typeof response.body.nextCursor).toBe('string');
  });

  it('serializes every field in the documented order', async () => {
    const response = await get('?search=cbt-1');
    expect(response.body.count).toBe(1);
    const item = response.body.data[0];
    expect(Object.keys(item)).toEqual([...ITEM_FIELDS]);
    expect(item).toMatchObject({
      organizationId: orgId,
      name: 'Crème Brûlée Torch',
      sku: 'CBT-1',
      barcode: '4006381333931',
      status: 'Active',
      quantity: 2.5,
    });
    expect(item.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    // customFields come back as stored, key order included.
    expect(response.text).toContain(
      '"customFields":{"z":1,"a":{"nested":[1,"two",null]},"m":"ünïcode"}',
    );
  });

  it('serves at most 1000 items per page', async () => {
    const response = await get('?limit=5000');
    expect(response.status).toBe(200);
    expect(response.body.count).toBe(1000);
    expect((await get('?limit=1000')).body.count).toBe(1000);
    expect((await get('?limit=1')).body.count).toBe(1);
  });

  it.each(['0', '-1', '1.5', 'abc', '01', '', ' 5', '1e3', '99999999999999999999x'])(
    'rejects limit=%j',
    async (limit) => {
      const response = await get(`?limit=${encodeURIComponent(limit)}`);
      expectApiError(response, 400, 'INVALID_PARAMETER');
      expect(response.body.error.param).toBe('limit');
      expect(response.body.error.message).toContain('positive integer');
    },
  );

  it('searches name, description, sku and barcode, case-insensitively', async () => {
    const names = async (search: string) =>
      (await get(`?search=${encodeURIComponent(search)}&fields=name`)).body.data.map(
        (item: { name: string }) => item.name,
      );
    expect(await names('crème')).toEqual(['Crème Brûlée Torch']);
    expect(await names('CRÈME BRÛLÉE')).toEqual(['Crème Brûlée Torch']);
    expect(await names('éclairs')).toEqual(['Crème Brûlée Torch']);
    expect(await names('cbt-')).toEqual(['Crème Brûlée Torch']);
    expect(await names('333931')).toEqual(['Crème Brûlée Torch']);
    expect(await names('ΣΊΣΥΦΟΣ')).toEqual(['Σίσυφος stone']);
    // Accents are significant.
    expect(await names('creme')).toEqual([]);
  });

  it('matches by Unicode simple case folding, exactly', async () => {
    const org = await server.createOrganization();
    const { key: orgKey } = await server.createKey({ organizationId: org.id, rateLimit: null });
    await server.createItems(org.id, [
      { name: 'Dıvan cover' }, // U+0131 dotless ı
      { name: 'Divan cushion' },
      { name: 'İzmir rug' }, // U+0130 İ
      { name: 'STRAẞE sign' }, // U+1E9E capital sharp s
      { name: 'Fuß mat' },
      { name: 'ſtool' }, // U+017F long s
      { name: '\u212Aettle' }, // U+212A Kelvin sign
      { name: 'ΟΔΟΣ map' },
      { name: 'ᏣᎳᎩ primer' }, // Cherokee capitals
    ]);
    const names = async (search: string) =>
      (
        await server.request(`${ITEMS}?search=${encodeURIComponent(search)}&fields=name`, {
          key: orgKey,
        })
      ).body.data.map((item: { name: string }) => item.name);
    // ı has no simple folding (only the Turkic one): it matches neither i nor I.
    expect(await names('divan')).toEqual(['Divan cushion']);
    expect(await names('DIVAN')).toEqual(['Divan cushion']);
    expect(await names('dıvan')).toEqual(['Dıvan cover']);
    // İ has only full and Turkic foldings: it matches itself, not i.
    expect(await names('izmir')).toEqual([]);
    expect(await names('İZMIR')).toEqual(['İzmir rug']);
    // ẞ folds to ß; ß does not fold to ss (that is full folding).
    expect(await names('straße')).toEqual(['STRAẞE sign']);
    expect(await names('strasse')).toEqual([]);
    expect(await names('FUẞ')).toEqual(['Fuß mat']);
    expect(await names('STOOL')).toEqual(['ſtool']);
    expect(await names('kettle')).toEqual(['\u212Aettle']);
    // Final sigma and capital sigma both fold to σ.
    expect(await names('οδος')).toEqual(['ΟΔΟΣ map']);
    expect(await names('οδοσ')).toEqual(['ΟΔΟΣ map']);
    // Cherokee small letters fold to the capitals.
    expect(await names('ꮳꮃꭹ')).toEqual(['ᏣᎳᎩ primer']);
  });

  it('treats %, _ and \\ literally', async () => {
    const names = async (search: string) =>
      (await get(`?search=${encodeURIComponent(search)}&fields=name`)).body.data.map(
        (item: { name: string }) => item.name,
      );
    expect(await names('100%')).toEqual(['Discount 100% off tag']);
    expect(await names('%')).toEqual(['Discount 100% off tag']);
    expect(await names('pct_tag')).toEqual(['Discount 100% off tag']);
    expect(await names('_')).toEqual(['Discount 100% off tag']);
    expect(await names('back\\slash')).toEqual(['Discount 100% off tag']);
    expect(await names('k_i')).toEqual([]);
  });

  it('rejects an empty or too long search', async () => {
    expectApiError(await get('?search='), 400, 'INVALID_PARAMETER');
    expectApiError(await get(`?search=${'a'.repeat(201)}`), 400, 'INVALID_PARAMETER');
    expect((await get(`?search=${'a'.repeat(200)}`)).status).toBe(200);
  });

  it('filters by status with exact case', async () => {
    const response = await get('?status=Discontinued&limit=1000&fields=status');
    expect(response.body.count).toBe(251);
    expect(new Set(response.body.data.map((item: { status: string }) => item.status))).toEqual(
      new Set(['Discontinued']),
    );
    const wrongCase = await get('?status=active');
    expectApiError(wrongCase, 400, 'INVALID_PARAMETER');
    expect(wrongCase.body.error.message).toContain('Draft, Active, Inactive, Discontinued');
  });

  it('narrows items to the requested fields in the documented order', async () => {
    const response = await get('?limit=3&fields=sku,name,_id,sku');
    for (const item of response.body.data)
      expect(Object.keys(item)).toEqual(['_id', 'name', 'sku']);
    const nulls = await get('?search=%CF%83%CE%AF%CF%83&fields=description,barcode');
    expect(nulls.body.data).toEqual([{ description: null, barcode: null }]);
  });

  it.each(['', 'name,', ',name', 'name,price', 'Name', 'name, sku', 'id'])(
    'rejects fields=%j listing the allowed names',
    async (fields) => {
      const response = await get(`?fields=${encodeURIComponent(fields)}`);
      expectApiError(response, 400, 'INVALID_PARAMETER');
      expect(response.body.error.param).toBe('fields');
      expect(response.body.error.message).toContain(ITEM_FIELDS.join(', '));
    },
  );

  it('walks every item exactly once with cursors, combined with filters', async () => {
    for (const filters of [
      '',
      '&status=Active',
      '&search=bulk%20item%201',
      '&status=Inactive&search=item',
    ]) {
      const expected = (await server.store.listItems(orgId, { limit: 100_000 })).filter((item) => {
        const status = /status=(\w+)/.exec(filters)?.[1];
        const search = /search=([^&]+)/.exec(filters)?.[1];
        if (status && item.status !== status) return false;
        if (search && !item.name.toLowerCase().includes(decodeURIComponent(search))) return false;
        return true;
      });
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const query: string = `?limit=97&fields=_id${filters}${cursor ? `&cursor=${cursor}` : ''}`;
        const response = await get(query);
        expect(response.status, response.text).toBe(200);
        seen.push(...response.body.data.map((item: { _id: string }) => item._id));
        cursor = response.body.nextCursor;
        pages++;
      } while (cursor !== null && pages < 100);
      expect(seen).toEqual(expected.map((item) => item.id));
    }
  });

  it('keeps a walk exact while items are added behind it', async () => {
    const first = await get('?limit=10&fields=_id');
    await server.createItems(orgId, [{ name: 'Added during the walk', sku: 'ADDED-1' }]);
    const seen = first.body.data.map((item: { _id: string }) => item._id);
    let cursor = first.body.nextCursor;
    while (cursor) {
      const page = await get(`?limit=1000&fields=_id&cursor=${cursor}`);
      seen.push(...page.body.data.map((item: { _id: string }) => item._id));
      cursor = page.body.nextCursor;
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBe(await server.store.countItems(orgId));
  });

  it('returns a null nextCursor on the last page', async () => {
    const response = await get('?search=cbt-1');
    expect(response.body.nextCursor).toBeNull();
  });

  it('rejects malformed cursors and cursors made for other filters', async () => {
    const page = await get('?limit=2&status=Active');
    const cursor = page.body.nextCursor;
    expect((await get(`?limit=2&status=Active&cursor=${cursor}`)).status).toBe(200);
    for (const query of [
      `?limit=2&cursor=${cursor}`,
      `?limit=2&status=Draft&cursor=${cursor}`,
      `?limit=2&status=Active&search=x&cursor=${cursor}`,
      '?cursor=garbage',
      '?cursor=',
      `?cursor=${Buffer.from('{"v":1,"a":"zz","f":"x"}').toString('base64url')}`,
      '?cursor=%00',
    ]) {
      const response = await get(query);
      expectApiError(response, 400, 'INVALID_PARAMETER');
      expect(response.body.error.param).toBe('cursor');
    }
  });

  it('names a malformed cursor beside the other problems, with param naming the first', async () => {
    const both = await get('?limit=0&cursor=garbage');
    expectApiError(both, 400, 'INVALID_PARAMETER');
    expect(both.body.error.param).toBe('limit');
    expect(both.body.error.message).toContain('Invalid limit "0"');
    expect(both.body.error.message).toContain('Invalid cursor');
    const ranked = await get('?zzz=1&cursor=garbage');
    expectApiError(ranked, 400, 'UNKNOWN_PARAMETER');
    expect(ranked.body.error.param).toBe('zzz');
    expect(ranked.body.error.message).toContain('Invalid cursor');
    // A well-formed cursor is only judged against filters that are themselves valid.
    const page = await get('?limit=2&status=Active');
    const badStatus = await get(`?status=active&cursor=${page.body.nextCursor}`);
    expectApiError(badStatus, 400, 'INVALID_PARAMETER');
    expect(badStatus.body.error.param).toBe('status');
    expect(badStatus.body.error.message).not.toContain('cursor');
    const otherFilters = await get(`?limit=0&status=Draft&cursor=${page.body.nextCursor}`);
    expect(otherFilters.body.error.param).toBe('limit');
    expect(otherFilters.body.error.message).toContain('made for other filters');
  });

  it('names unknown, bracketed and prototype-polluting parameters', async () => {
    for (const name of ['foo', 'limit[]', 'status[$ne]', '__proto__', 'constructor', 'itemId']) {
      const response = await get(`?${encodeURIComponent(name)}=1`);
      expectApiError(response, 400, 'UNKNOWN_PARAMETER');
      expect(response.body.error.param).toBe(name);
      expect(response.body.error.message).toContain('limit, search, status, fields, cursor');
    }
  });

  it('rejects a repeated parameter', async () => {
    const response = await get('?limit=1&limit=2');
    expectApiError(response, 400, 'INVALID_PARAMETER');
    expect(response.body.error.param).toBe('limit');
    expect(response.body.error.message).toContain('sent 2 times');
  });

  it('ranks several problems: unknown > repeated > invalid, naming all of them', async () => {
    const all = await get('?status=bad&search=a&search=b&zzz=1');
    expectApiError(all, 400, 'UNKNOWN_PARAMETER');
    expect(all.body.error.param).toBe('zzz');
    expect(all.body.error.message).toContain('"zzz"');
    expect(all.body.error.message).toContain('"search" was sent 2 times');
    expect(all.body.error.message).toContain('Invalid status');
    const repeated = await get('?status=bad&search=a&search=b');
    expect(repeated.body.error.param).toBe('search');
    expect(repeated.body.error.code).toBe('INVALID_PARAMETER');
  });

  it('never lets another organization see its items', async () => {
    const other = await server.createOrganization();
    const { key: otherKey } = await server.createKey({ organizationId: other.id });
    const response = await server.request(`${ITEMS}?search=bulk`, { key: otherKey });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      data: [],
      organizationId: other.id,
      count: 0,
      nextCursor: null,
    });
  });

  it('answers HEAD like GET without a body', async () => {
    const response = await server.request(`${ITEMS}?limit=2`, { key, method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(response.text).toBe('');
  });
});
