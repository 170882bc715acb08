import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { strongEtag } from '../http/representation.js';
import { CLIENT_MANIFEST, CLIENT_TARBALL, DOWNLOADS_DIR, registerDownloads } from './downloads.js';
import { type RunningDocs, startDocs } from './testing.js';

/**
 * `/downloads/stockroom-client.tgz` on the real docs app, serving the tarball the build packed
 * (`npm run build`, which `npm test` runs first). Installing it with npm is
 * test/client-download.e2e.test.ts.
 */

let docs: RunningDocs;
let tarball: Buffer;
let version: string;

beforeAll(async () => {
  try {
    tarball = readFileSync(path.join(DOWNLOADS_DIR, CLIENT_TARBALL));
    version = JSON.parse(readFileSync(path.join(DOWNLOADS_DIR, CLIENT_MANIFEST), 'utf8')).version;
  } catch {
    throw new Error(
      'packages/server/dist/downloads has no client tarball: run `npm run build` (npm test does it first)',
    );
  }
  docs = await startDocs();
});

afterAll(async () => {
  await docs?.close();
});

const URL_PATH = '/downloads/stockroom-client.tgz';

describe('the client package on the docs host', () => {
  test('is the packed tarball, as application/gzip, with a strong ETag, never re-encoded', async () => {
    const response = await fetch(docs.url + URL_PATH, {
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/gzip');
    expect(response.headers.get('content-encoding')).toBeNull();
    expect(response.headers.get('etag')).toBe(strongEtag(tarball));
    expect(response.headers.get('cache-control')).toBe('public, no-cache');
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="stockroom-client-${version}.tgz"`,
    );
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(Buffer.from(await response.arrayBuffer()).equals(tarball)).toBe(true);
    // A gzip stream (magic bytes 1f 8b).
    expect([...tarball.subarray(0, 2)]).toEqual([0x1f, 0x8b]);
  });

  test('answers HEAD with the same headers and no body', async () => {
    const response = await fetch(docs.url + URL_PATH, { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/gzip');
    expect(response.headers.get('content-length')).toBe(String(tarball.length));
    expect(response.headers.get('etag')).toBe(strongEtag(tarball));
    expect(await response.text()).toBe('');
  });

  test('answers 304 to If-None-Match with its ETag', async () => {
    const etag = strongEtag(tarball);
    const response = await fetch(docs.url + URL_PATH, { headers: { 'if-none-match': etag } });
    expect(response.status).toBe(304);
    expect(response.headers.get('etag')).toBe(etag);
    expect(await response.text()).toBe('');
  });

  test('refuses other methods as the rest of the docs host does', async () => {
    const response = await fetch(docs.url + URL_PATH, { method: 'POST', body: '{}' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
  });
});

describe('a server built without the tarball', () => {
  test('says how to get it, 404 in plain text', async () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'stockroom-downloads-'));
    const app = Fastify();
    registerDownloads(app, empty);
    try {
      const response = await app.inject({ method: 'GET', url: URL_PATH });
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(response.body).toContain('run `npm run build`');
    } finally {
      await app.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
