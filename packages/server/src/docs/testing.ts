import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { createDocsApp, type DocsAppOptions } from './app.js';
import { renderSite } from './build/site.js';
import type { RenderedSite } from './built-site.js';

/**
 * Helpers for the docs host's own tests: a site rendered as the build renders it, a listening
 * app serving it, raw requests, fixture folders.
 */

export const REPO_DOCS_DIR = fileURLToPath(new URL('../../../../docs', import.meta.url));

/** A small OpenAPI document standing in for the API's (the end-to-end suites use the real one). */
export const FIXTURE_OPENAPI = {
  openapi: '3.1.0',
  info: { title: 'Fixture API', version: '1.0.0' },
  paths: {
    '/api/v1/things': {
      get: {
        summary: 'List things',
        description: 'Things of the key’s organization, `oldest` first.',
        security: [{ ApiKeyHeader: [] }],
        parameters: [
          {
            name: 'limit',
            in: 'query',
            required: false,
            description: 'Page size.',
            schema: { type: 'string', pattern: '^[1-9][0-9]*$' },
          },
        ],
        responses: {
          '200': {
            description: 'Default Response',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['data'],
                  properties: {
                    data: { type: 'array', items: { $ref: '#/components/schemas/Thing' } },
                    nextCursor: {
                      anyOf: [{ type: 'string' }, { type: 'null' }],
                      description: 'Next page.',
                    },
                  },
                },
              },
            },
          },
          '404': { description: 'Error: THING_NOT_FOUND' },
        },
      },
    },
  },
  components: {
    schemas: {
      Thing: {
        type: 'object',
        description: 'A thing.',
        required: ['_id'],
        properties: { _id: { type: 'string' }, size: { type: 'number', description: 'How big.' } },
      },
    },
  },
};

export interface RunningDocs {
  app: FastifyInstance;
  url: string;
  close(): Promise<void>;
}

export interface DocsOptions extends Omit<DocsAppOptions, 'site'> {
  /** The pages to render: the repository's by default. */
  docsDir: string;
  /** The OpenAPI document of the reference; FIXTURE_OPENAPI by default, undefined for none. */
  openapi: unknown;
}

/** Renders `docsDir` as the build does (placeholders for the public URLs). */
export function renderTestSite(docsDir: string, openapi: unknown): Promise<RenderedSite> {
  return renderSite({ docsDir, openapi });
}

/** A docs app serving a site rendered from `docsDir` (rejects as the build would). */
export async function createTestDocsApp(options: Partial<DocsOptions> = {}) {
  const { docsDir, openapi, ...app } = options;
  return createDocsApp({
    site: await renderTestSite(
      docsDir ?? REPO_DOCS_DIR,
      'openapi' in options ? openapi : FIXTURE_OPENAPI,
    ),
    publicDocsUrl: 'https://docs.example.test',
    publicApiUrl: 'https://api.example.test',
    ...app,
  });
}

export async function startDocs(options: Partial<DocsOptions> = {}): Promise<RunningDocs> {
  const app = await createTestDocsApp(options);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('docs app has no port');
  return { app, url: `http://127.0.0.1:${address.port}`, close: () => app.close() };
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** The body as sent (still compressed, if it was). */
  bytes: Buffer;
}

/** A request whose path is sent exactly as given (fetch would normalise `..` and `%2e`). */
export function rawGet(
  base: string,
  rawPath: string,
  method = 'GET',
  headers: Record<string, string> = {},
): Promise<RawResponse> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname, port, path: rawPath, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const bytes = Buffer.concat(chunks);
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: bytes.toString('utf8'),
          bytes,
        });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** A docs folder in a temp directory: `{ 'en/intro.mdx': '…' }`. */
export function fixtureDocs(files: Record<string, string>): { dir: string; remove(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'stockroom-docs-'));
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(dir, name);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export function page(title: string, body: string, description = `About ${title}.`): string {
  return `---\ntitle: ${title}\ndescription: ${description}\n---\n\n${body}\n`;
}
