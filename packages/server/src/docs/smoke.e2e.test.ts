import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { overOneConnection } from '../testing/one-connection.js';
import { type ServeProcess, startServeProcess } from '../testing/serve-process.js';

/**
 * The docs host over real sockets, in a real `stockroom serve`: the everyday suite reaches it
 * through app.inject(), which never opens a connection, so this is where keep-alive, HEAD and
 * a 404 are seen as a browser sees them.
 */
let dir: string;
let serve: ServeProcess;
let docsOrigin: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'stockroom-docs-smoke-'));
  serve = await startServeProcess({ DATABASE_URL: path.join(dir, 'stockroom.db') });
  const line = await serve.waitForLine(/^\s+Docs:\s+http/);
  const url = /Docs:\s+(http\S+)\/en\/docs\/introduction/.exec(line)?.[1];
  if (!url) throw new Error(`no docs URL in: ${line}`);
  docsOrigin = url;
});

afterAll(async () => {
  if (serve) expect(await serve.stop()).toBe(0);
  rmSync(dir, { recursive: true, force: true });
});

describe('the docs host over HTTP', () => {
  it('answers a page, its HEAD, llms.txt and a 404 over one kept-alive connection', async () => {
    const [page, head, llms, missing] = await overOneConnection(docsOrigin, [
      { path: '/en/docs/introduction' },
      { method: 'HEAD', path: '/en/docs/introduction' },
      { path: '/llms.txt' },
      { path: '/en/docs/no-such-page' },
    ]);
    expect(page?.status).toBe(200);
    expect(page?.headers['content-type']).toMatch(/^text\/html/);
    expect(page?.body).toContain('<html');
    expect(head?.status).toBe(200);
    expect(head?.headers['content-type']).toBe(page?.headers['content-type']);
    expect(head?.body).toBe('');
    expect(llms?.status).toBe(200);
    expect(llms?.headers['content-type']).toMatch(/^text\/plain/);
    expect(missing?.status).toBe(404);
    expect([page, head, llms, missing].map((reply) => reply?.connection)).toEqual([0, 0, 0, 0]);
  });
});
