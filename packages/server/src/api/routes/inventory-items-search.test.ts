import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ItemFields } from '../../store/types.js';
import { startTestServer, type TestServer } from '../../testing/harness.js';

/**
 * Search at a size where the engine's bounds matter (more items than one request examines):
 * whatever shape the pages take, following `nextCursor` returns every match exactly once.
 */

const ITEMS = '/api/v1/inventory/items';
const SIZE = 10_300;

describe('GET /api/v1/inventory/items?search= in a large organization', () => {
  let server: TestServer;
  let key: string;
  let smallKey: string;

  beforeAll(async () => {
    server = await startTestServer();
    const org = await server.createOrganization();
    key = (await server.createKey({ organizationId: org.id, rateLimit: null })).key;
    const rows: ItemFields[] = [];
    for (let i = 0; i < SIZE; i++) {
      let description = `Plain description ${i % 97}`;
      if (i === 10_100) description = 'The only ÿq in stock';
      if (i === 5 || i === 10_200) description = 'Limited run by Quillfeather';
      rows.push({ name: `Steel item ${i}`, sku: `SKU-${i}`, description, status: 'Active' });
    }
    // Large writes, as an import makes them (on SQLite they are indexed in one batch).
    for (let i = 0; i < rows.length; i += 5000) {
      await server.createItems(org.id, rows.slice(i, i + 5000));
    }
    const small = await server.createOrganization();
    smallKey = (await server.createKey({ organizationId: small.id, rateLimit: null })).key;
    await server.createItems(small.id, [
      { name: 'Small steel shelf', sku: 'S-1', status: 'Active' },
      { name: 'Small brass hook', sku: 'S-2', status: 'Active' },
    ]);
  }, 120_000);
  afterAll(() => server.close());

  async function walk(query: string, apiKey = key) {
    const skus: string[] = [];
    const counts: number[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 1000; page++) {
      const response = await server.request(
        `${ITEMS}?${query}&fields=sku${cursor ? `&cursor=${cursor}` : ''}`,
        { key: apiKey },
      );
      expect(response.status).toBe(200);
      expect(response.body.count).toBe(response.body.data.length);
      counts.push(response.body.count);
      skus.push(...response.body.data.map((item: { sku: string }) => item.sku));
      cursor = response.body.nextCursor;
      if (cursor === null) return { skus, counts };
    }
    throw new Error('the walk did not end');
  }

  it('finds a rare 3+ character term in one page', async () => {
    expect(await walk('search=QUILLFEATHER')).toEqual({
      skus: ['SKU-5', 'SKU-10200'],
      counts: [2],
    });
  });

  it('finds nothing for an absent term, in one page', async () => {
    expect(await walk('search=unobtainium')).toEqual({ skus: [], counts: [0] });
  });

  it('pages a common term in full pages', async () => {
    const { skus, counts } = await walk('search=steel%20item%201&limit=1000');
    const expected = Array.from({ length: SIZE }, (_, i) => i)
      .filter((i) => `steel item ${i}`.includes('steel item 1'))
      .map((i) => `SKU-${i}`);
    expect(skus).toEqual(expected);
    expect(counts.slice(0, -1).every((count) => count === 1000)).toBe(true);
  });

  it('finds a rare 2-character term by following nextCursor, even past short pages', async () => {
    const { skus, counts } = await walk('search=%C3%BFQ&limit=10');
    expect(skus).toEqual(['SKU-10100']);
    // Every engine examines at most 10,000 items per request for a needle of 1–2 characters:
    // the first page stops short, empty, and the second finds the match.
    expect(counts).toEqual([0, 1]);
  });

  it('keeps a small organization’s search to its own items', async () => {
    expect(await walk('search=steel', smallKey)).toEqual({ skus: ['S-1'], counts: [1] });
    expect(await walk('search=st', smallKey)).toEqual({ skus: ['S-1'], counts: [1] });
  });
});
