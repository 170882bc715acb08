import http from 'node:http';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { strongEtag } from '../http/representation.js';
import { startTestServer, type TestServer } from '../testing/harness.js';
import { PIECEWISE_FROM_BYTES } from './respond.js';

/** A raw GET: the bytes as sent (fetch would decode them) and the headers. */
function rawGet(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks),
          }),
        );
      })
      .on('error', reject);
  });
}

// One server for the file, listening: these tests read the bytes on the wire (compression,
// Content-Length, a page larger than the socket buffers). Each describe has its organization.
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ listen: true });
});
afterAll(() => server.close());

describe('conditional requests and compression on the item routes', () => {
  let key: string;
  let orgId: string;
  let itemId: string;

  beforeAll(async () => {
    const org = await server.createOrganization();
    orgId = org.id;
    key = (await server.createKey({ organizationId: orgId, rateLimit: null })).key;
    await server.createItems(
      orgId,
      Array.from({ length: 30 }, (_, i) => ({
        name: `Compressible item ${i}`,
        sku: `CMP-${i}`,
        description: 'A description long enough that a page of these is worth compressing.',
        status: 'Active' as const,
      })),
    );
    const first = (await server.store.listItems(orgId, { limit: 1 }))[0];
    if (!first) throw new Error('no item');
    itemId = first.id;
  });

  const detail = () => `/api/v1/inventory/item?itemId=${itemId}`;

  it('gives item detail a strong ETag and Last-Modified, and answers 304 to either validator', async () => {
    const first = await server.request(detail(), { key });
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    const lastModified = first.headers.get('last-modified');
    expect(new Date(lastModified ?? '').getTime()).toBe(
      Math.floor(new Date(first.body.data.updatedAt).getTime() / 1000) * 1000,
    );

    const byTag = await server.request(detail(), { key, headers: { 'if-none-match': etag ?? '' } });
    expect(byTag.status).toBe(304);
    expect(byTag.text).toBe('');
    expect(byTag.headers.get('etag')).toBe(etag);
    // The weak comparison of If-None-Match, and a list of tags.
    const weak = await server.request(detail(), {
      key,
      headers: { 'if-none-match': `"other", W/${etag}` },
    });
    expect(weak.status).toBe(304);
    const byDate = await server.request(detail(), {
      key,
      headers: { 'if-modified-since': lastModified ?? '' },
    });
    expect(byDate.status).toBe(304);
    // If-None-Match wins over If-Modified-Since (RFC 9110 13.2.2).
    const both = await server.request(detail(), {
      key,
      headers: { 'if-none-match': '"stale"', 'if-modified-since': lastModified ?? '' },
    });
    expect(both.status).toBe(200);
  });

  it('changes the ETag when the item changes, so the client gets the new version', async () => {
    const before = await server.request(detail(), { key });
    const etag = before.headers.get('etag') ?? '';
    const sku = before.body.data.sku as string;
    await server.createItems(orgId, [{ sku, quantity: 12345 }]);
    const after = await server.request(detail(), { key, headers: { 'if-none-match': etag } });
    expect(after.status).toBe(200);
    expect(after.body.data.quantity).toBe(12345);
    expect(after.headers.get('etag')).not.toBe(etag);
  });

  it('gives each list page an ETag that follows its content and its parameters', async () => {
    const page = await server.request('/api/v1/inventory/items?limit=5', { key });
    const etag = page.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"/);
    const again = await server.request('/api/v1/inventory/items?limit=5', {
      key,
      headers: { 'if-none-match': etag },
    });
    expect(again.status).toBe(304);
    const narrower = await server.request('/api/v1/inventory/items?limit=5&fields=_id', {
      key,
      headers: { 'if-none-match': etag },
    });
    expect(narrower.status).toBe(200);
    expect(narrower.headers.get('etag')).not.toBe(etag);
  });

  it('charges a 304 like any other answer', async () => {
    const quota = await server.createKey({ organizationId: orgId, rateLimit: null, remaining: 3 });
    const first = await server.request(detail(), { key: quota.key });
    const etag = first.headers.get('etag') ?? '';
    const conditional = await server.request(detail(), {
      key: quota.key,
      headers: { 'if-none-match': etag },
    });
    expect(conditional.status).toBe(304);
    expect(await server.store.getRemaining(quota.record.id)).toBe(1);
  });

  it('compresses large bodies with brotli or gzip, with a tag per encoding', async () => {
    const url = `${server.apiUrl}/api/v1/inventory/items?limit=30`;
    const identity = await rawGet(url, { 'x-api-key': key });
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.body.length).toBeGreaterThan(1024);
    expect(identity.headers.vary).toMatch(/accept-encoding/i);

    const br = await rawGet(url, { 'x-api-key': key, 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(br.body).equals(identity.body)).toBe(true);
    expect(br.body.length).toBeLessThan(identity.body.length / 2);
    expect(br.headers.etag).toBe(`${identity.headers.etag?.slice(0, -1)}-br"`);

    const gzip = await rawGet(url, { 'x-api-key': key, 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.body).equals(identity.body)).toBe(true);
    expect(gzip.headers.etag).toBe(`${identity.headers.etag?.slice(0, -1)}-gzip"`);

    // The client's q-values decide; identity;q=0 with nothing else acceptable falls back to
    // identity rather than failing.
    const preferGzip = await rawGet(url, {
      'x-api-key': key,
      'accept-encoding': 'br;q=0.5, gzip;q=1',
    });
    expect(preferGzip.headers['content-encoding']).toBe('gzip');

    // A tag of any encoding of the same body revalidates.
    const revalidated = await rawGet(url, {
      'x-api-key': key,
      'accept-encoding': 'gzip',
      'if-none-match': br.headers.etag ?? '',
    });
    expect(revalidated.status).toBe(304);
    expect(revalidated.body.length).toBe(0);
    expect(revalidated.headers.etag).toBe(gzip.headers.etag);
  });

  it('leaves small bodies and error answers uncompressed', async () => {
    const small = await rawGet(`${server.apiUrl}/api/v1/inventory/items?limit=1&fields=_id`, {
      'x-api-key': key,
      'accept-encoding': 'br, gzip',
    });
    expect(small.status).toBe(200);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.body.toString()).count).toBe(1);
    const error = await rawGet(`${server.apiUrl}/api/v1/inventory/items?limit=0`, {
      'x-api-key': key,
      'accept-encoding': 'br, gzip',
    });
    expect(error.status).toBe(400);
    expect(error.headers['content-encoding']).toBeUndefined();
    expect(error.headers.etag).toBeUndefined();
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const url = `${server.apiUrl}/api/v1/inventory/items?limit=30`;
    const headers = { 'x-api-key': key, 'accept-encoding': 'br' };
    const get = await rawGet(url, headers);
    const head = await new Promise<http.IncomingMessage>((resolve, reject) => {
      http
        .request(url, { method: 'HEAD', headers }, (response) => {
          response.resume();
          response.on('end', () => resolve(response));
        })
        .on('error', reject)
        .end();
    });
    expect(head.statusCode).toBe(200);
    expect(head.headers.etag).toBe(get.headers.etag);
    expect(head.headers['content-encoding']).toBe('br');
    expect(head.headers['content-length']).toBe(String(get.body.length));
  });
});

type ItemInput = Parameters<TestServer['createItems']>[1][number];

/** An organization of the file's server, its key without rate limit, and `count` items. */
async function organizationWithItems(count: number, item: (i: number) => ItemInput) {
  const org = await server.createOrganization();
  const key = (await server.createKey({ organizationId: org.id, rateLimit: null })).key;
  await server.createItems(
    org.id,
    Array.from({ length: count }, (_, i) => item(i)),
  );
  return { key };
}

describe('large pages, written piece by piece', () => {
  let key: string;
  const url = () => `${server.apiUrl}/api/v1/inventory/items?limit=300`;

  beforeAll(async () => {
    ({ key } = await organizationWithItems(300, (i) => ({
      name: `Large item ${i}`,
      sku: `LRG-${i}`,
      description: `Item ${i} é ${'a long description, '.repeat(50)}`,
      status: 'Active',
    })));
  });

  it('sends the same bytes as smaller pages, with Content-Length, not chunked', async () => {
    const whole = await rawGet(url(), { 'x-api-key': key });
    expect(whole.status).toBe(200);
    expect(whole.body.length).toBeGreaterThan(PIECEWISE_FROM_BYTES);
    expect(whole.headers['transfer-encoding']).toBeUndefined();
    expect(whole.headers['content-length']).toBe(String(whole.body.length));
    expect(whole.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(whole.headers.etag).toBe(strongEtag(whole.body));
    const page = JSON.parse(whole.body.toString());
    expect(page.count).toBe(300);

    // The same items, read 100 at a time (pages small enough to be joined before sending).
    const items: unknown[] = [];
    let cursor: string | null = null;
    do {
      const next: Awaited<ReturnType<typeof rawGet>> = await rawGet(
        `${server.apiUrl}/api/v1/inventory/items?limit=100${cursor ? `&cursor=${cursor}` : ''}`,
        { 'x-api-key': key },
      );
      expect(next.body.length).toBeLessThan(PIECEWISE_FROM_BYTES);
      const body = JSON.parse(next.body.toString());
      items.push(...body.data);
      cursor = body.nextCursor;
    } while (cursor);
    expect(page.data).toEqual(items);
  });

  it('revalidates, compresses and answers HEAD as for any page', async () => {
    const identity = await rawGet(url(), { 'x-api-key': key });
    const etag = identity.headers.etag ?? '';
    const conditional = await rawGet(url(), { 'x-api-key': key, 'if-none-match': etag });
    expect(conditional.status).toBe(304);
    expect(conditional.body.length).toBe(0);

    const br = await rawGet(url(), { 'x-api-key': key, 'accept-encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(br.body).equals(identity.body)).toBe(true);

    const head = await new Promise<http.IncomingMessage & { bytes: number }>((resolve, reject) => {
      http
        .request(url(), { method: 'HEAD', headers: { 'x-api-key': key } }, (response) => {
          let bytes = 0;
          response.on('data', (chunk: Buffer) => {
            bytes += chunk.length;
          });
          response.on('end', () => resolve(Object.assign(response, { bytes })));
        })
        .on('error', reject)
        .end();
    });
    expect(head.statusCode).toBe(200);
    expect(head.bytes).toBe(0);
    expect(head.headers.etag).toBe(etag);
    expect(head.headers['content-length']).toBe(String(identity.body.length));
  });
});

describe('large pages, their memory reused', () => {
  let key: string;

  beforeAll(async () => {
    // 1000 items of about 12 KB: a 12 MB page, more than the socket buffers take before the
    // client reads (6 MB was not always enough), so most of it waits in the server.
    ({ key } = await organizationWithItems(1000, (i) => ({
      name: `Heavy item ${i}`,
      sku: `HVY-${i}`,
      description: `${i} ${'ß and é, a description that repeats itself. '.repeat(260)}`,
      status: 'Active',
    })));
  });

  it('never writes over a page a slow client has not read yet', async () => {
    const url = `${server.apiUrl}/api/v1/inventory/items?limit=1000`;
    const reference = await rawGet(url, { 'x-api-key': key });
    expect(reference.body.length).toBeGreaterThan(10_000_000);
    expect(reference.headers.etag).toBe(strongEtag(reference.body));

    // A client that reads the first bytes and then stops.
    let resumeSlow = () => {};
    const slow = new Promise<Buffer>((resolve, reject) => {
      http
        .get(url, { headers: { 'x-api-key': key } }, (response) => {
          const chunks: Buffer[] = [];
          response.once('data', () => {
            response.pause();
            resumeSlow = () => response.resume();
            started();
          });
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => resolve(Buffer.concat(chunks)));
        })
        .on('error', reject);
    });
    let started = () => {};
    await new Promise<void>((resolve) => {
      started = resolve;
    });

    // Meanwhile other pages, with other bytes, are made and sent in full, one cut short too.
    const others = await Promise.all(
      ['_id,name', 'name,sku', '_id,description', 'sku'].map((fields) =>
        rawGet(`${url}&fields=${fields}`, { 'x-api-key': key }),
      ),
    );
    for (const other of others) expect(other.headers.etag).toBe(strongEtag(other.body));
    await new Promise<void>((resolve, reject) => {
      const request = http.get(url, { headers: { 'x-api-key': key } }, (response) => {
        response.once('data', () => {
          request.destroy();
          resolve();
        });
      });
      request.on('error', (error) => {
        if (!request.destroyed) reject(error);
      });
    });
    const after = await rawGet(`${url}&fields=description`, { 'x-api-key': key });
    expect(after.headers.etag).toBe(strongEtag(after.body));

    resumeSlow();
    const slowBody = await slow;
    expect(slowBody.equals(reference.body)).toBe(true);
  });
});
