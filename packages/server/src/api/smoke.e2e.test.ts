import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueKey } from '../keys/issue.js';
import { SqliteStore } from '../store/sqlite/sqlite-store.js';
import { overOneConnection } from '../testing/one-connection.js';
import { type ServeProcess, startServeProcess } from '../testing/serve-process.js';

/**
 * The API host over real sockets, in a real `stockroom serve`: the everyday suite reaches the
 * API through app.inject(), which never opens a connection, so this is where keep-alive, HEAD
 * and a 404 are seen as an HTTP client sees them.
 */
let dir: string;
let serve: ServeProcess;
let key: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'stockroom-api-smoke-'));
  const file = path.join(dir, 'stockroom.db');
  const store = new SqliteStore(file);
  try {
    await store.migrate();
    const org = await store.createOrganization({
      name: 'Smoke',
      slug: 'smoke',
      features: ['inventory'],
    });
    await store.writeItems(
      org.id,
      ['A', 'B', 'C'].map((name, i) => ({
        name: `Item ${name}`,
        description: null,
        sku: `SMOKE-${i}`,
        barcode: null,
        status: 'Active',
        quantity: i,
        customFields: '{}',
      })),
    );
    ({ key } = await issueKey(store, { organizationId: org.id, rateLimit: null }));
  } finally {
    await store.close();
  }
  serve = await startServeProcess({ DATABASE_URL: file });
});

afterAll(async () => {
  if (serve) expect(await serve.stop()).toBe(0);
  rmSync(dir, { recursive: true, force: true });
});

describe('the API host over HTTP', () => {
  it('answers a GET, a HEAD, a keyed page and a 404 over one kept-alive connection', async () => {
    const [health, head, page, missing] = await overOneConnection(serve.apiUrl, [
      { path: '/api/v1/health' },
      { method: 'HEAD', path: '/api/v1/health' },
      { path: '/api/v1/inventory/items?limit=2', headers: { 'x-api-key': key } },
      { path: '/api/v1/no-such-route' },
    ]);
    expect(health?.status).toBe(200);
    expect(health?.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(health?.body ?? '')).toMatchObject({ status: 'ok' });
    expect(head?.status).toBe(200);
    expect(head?.body).toBe('');
    expect(page?.status).toBe(200);
    expect(JSON.parse(page?.body ?? '')).toMatchObject({ count: 2 });
    expect(page?.headers['x-request-id']).toEqual(expect.any(String));
    expect(missing?.status).toBe(404);
    expect(JSON.parse(missing?.body ?? '').error.code).toBe('ROUTE_NOT_FOUND');
    expect([health, head, page, missing].map((reply) => reply?.connection)).toEqual([0, 0, 0, 0]);
  });
});
