import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { overOneConnection } from '../testing/one-connection.js';
import { type ServeProcess, startServeProcess } from '../testing/serve-process.js';
import { ADMIN_TOKEN } from './testing.js';

/**
 * The admin host over real sockets, in a real `stockroom serve` with ADMIN_TOKEN: the everyday
 * suite reaches it through app.inject(), which never opens a connection, so this is where
 * keep-alive, HEAD, a refusal and a 404 are seen as an HTTP client sees them.
 */
let dir: string;
let serve: ServeProcess;
let adminOrigin: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'stockroom-admin-smoke-'));
  serve = await startServeProcess({
    DATABASE_URL: path.join(dir, 'stockroom.db'),
    ADMIN_TOKEN,
    ADMIN_PORT: '0',
  });
  const line = await serve.waitForLine(/^\s+Admin:\s+http/);
  const url = /Admin:\s+(http\S+)\/admin\/v1/.exec(line)?.[1];
  if (!url) throw new Error(`no admin URL in: ${line}`);
  adminOrigin = url;
});

afterAll(async () => {
  if (serve) expect(await serve.stop()).toBe(0);
  rmSync(dir, { recursive: true, force: true });
});

describe('the admin host over HTTP', () => {
  it('answers a GET, its HEAD, a refusal and a 404 over one kept-alive connection', async () => {
    const authorization = { authorization: `Bearer ${ADMIN_TOKEN}` };
    const [list, head, refused, missing] = await overOneConnection(adminOrigin, [
      { path: '/admin/v1/organizations', headers: authorization },
      { method: 'HEAD', path: '/admin/v1/organizations', headers: authorization },
      { path: '/admin/v1/organizations' },
      { path: '/admin/v1/no-such-route', headers: authorization },
    ]);
    expect(list?.status).toBe(200);
    expect(list?.headers['content-type']).toMatch(/^application\/json/);
    expect(head?.status).toBe(200);
    expect(head?.body).toBe('');
    expect(refused?.status).toBe(401);
    expect(missing?.status).toBe(404);
    expect([list, head, refused, missing].map((reply) => reply?.connection)).toEqual([0, 0, 0, 0]);
  });
});
