import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { matchesEtag, strongEtag } from '../http/representation.js';

/**
 * `/downloads/stockroom-client.tgz` on the docs host: the client library's package, so that
 * `npm install {docs_url}/downloads/stockroom-client.tgz` installs it without the repository.
 * The build packs it into `dist/downloads` (build/client-package.ts), inside this package, so a
 * server installed from its own tarball serves it as well. It is read on first request and kept.
 */

/** `packages/server/dist/downloads`, whether this module runs from src/ (tests) or dist/. */
export const DOWNLOADS_DIR = fileURLToPath(new URL('../../dist/downloads', import.meta.url));
export const CLIENT_TARBALL = 'stockroom-client.tgz';
/** Beside the tarball: what it was packed from, and the client's version. */
export const CLIENT_MANIFEST = 'stockroom-client.json';
const CLIENT_TARBALL_PATH = `/downloads/${CLIENT_TARBALL}`;

export interface ClientPackageManifest {
  /** Of the packed files: an unchanged fingerprint means the tarball is current. */
  fingerprint: string;
  version: string;
}

interface Download {
  body: Buffer;
  etag: string;
  version: string | null;
}

async function load(dir: string): Promise<Download | null> {
  let body: Buffer;
  try {
    body = await readFile(path.join(dir, CLIENT_TARBALL));
  } catch {
    return null;
  }
  const manifest = await readFile(path.join(dir, CLIENT_MANIFEST), 'utf8')
    .then((text) => JSON.parse(text) as ClientPackageManifest)
    .catch(() => null);
  return { body, etag: strongEtag(body), version: manifest?.version ?? null };
}

/** Adds the download route to a docs app (GET, and HEAD with the same headers). */
export function registerDownloads(app: FastifyInstance, dir: string = DOWNLOADS_DIR): void {
  let download: Promise<Download | null> | undefined;
  app.get(CLIENT_TARBALL_PATH, async (request, reply) => {
    download ??= load(dir);
    const file = await download;
    if (!file) {
      // Only a server built without its last build step gets here (a test-rendered site).
      return reply
        .code(404)
        .type('text/plain; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(
          'The client package is not part of this build of the server: run `npm run build` in the Stockroom repository, which packs it into packages/server/dist/downloads.\n',
        );
    }
    // Already compressed: sent as is, whatever Accept-Encoding says.
    reply.header('etag', file.etag);
    reply.header('cache-control', 'public, no-cache');
    reply.header(
      'content-disposition',
      `attachment; filename="stockroom-client${file.version ? `-${file.version}` : ''}.tgz"`,
    );
    if (matchesEtag(request.headers['if-none-match'], file.etag)) return reply.code(304).send();
    return reply.type('application/gzip').send(file.body);
  });
}
