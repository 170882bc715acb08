import { existsSync } from 'node:fs';
import { afterEach, describe, expect, test } from 'vitest';
import { startTestServer } from '../testing/harness.js';
import { type Site, type SiteInput, siteResources } from './resources.js';
import { renderSite } from './site.js';
import type { renderSiteOffThread as RenderSiteOffThread } from './site-thread.js';
import { FIXTURE_OPENAPI, fixtureDocs, page, REPO_DOCS_DIR } from './testing.js';

/**
 * The rendering thread runs only from the build (the test runner has no worker script beside
 * the TypeScript sources), so the built module is tested here against the sources: the server
 * (`npm test` builds first) serves what it renders.
 */
const BUILT = new URL('../../dist/docs/site-thread.js', import.meta.url);

async function offThread(): Promise<typeof RenderSiteOffThread> {
  if (!existsSync(BUILT)) throw new Error('packages/server is not built: run `npm run build`');
  return ((await import(BUILT.href)) as { renderSiteOffThread: typeof RenderSiteOffThread })
    .renderSiteOffThread;
}

const OPTIONS = {
  publicDocsUrl: 'https://docs.example.test',
  publicApiUrl: 'https://api.example.test',
};

/** Every resource of a site as comparable values, in a fixed order. */
function contents(site: Site) {
  return [...siteResources(site)].map((resource) => ({
    isBuffer: Buffer.isBuffer(resource.body),
    body: Buffer.from(resource.body).toString('base64'),
    type: resource.type,
    etag: resource.etag,
  }));
}

let cleanup: (() => void) | undefined;
afterEach(() => {
  cleanup?.();
  cleanup = undefined;
});

describe('rendering the docs in a thread of their own', () => {
  test.each([
    ['with the OpenAPI document', FIXTURE_OPENAPI],
    ['without it', undefined],
  ])('gives the same bytes as rendering here, %s', async (_label, openapi) => {
    const input: SiteInput = { docsDir: REPO_DOCS_DIR, options: OPTIONS, openapi };
    const [there, here] = await Promise.all([(await offThread())(input), renderSite(input)]);
    const rendered = contents(there);
    expect(rendered.every((resource) => resource.isBuffer)).toBe(true);
    expect(rendered).toEqual(contents(here));
    expect(there.html.size).toBeGreaterThan(10);
    expect(there.openapi === null).toBe(openapi === undefined);
    expect(there.slugs).toEqual(here.slugs);
  });

  test("gives the same bytes for the API's own OpenAPI document (TypeBox schemas, cloned to the thread)", async () => {
    const server = await startTestServer();
    try {
      const input: SiteInput = {
        docsDir: REPO_DOCS_DIR,
        options: OPTIONS,
        openapi: server.server.api.swagger(),
      };
      const [there, here] = await Promise.all([(await offThread())(input), renderSite(input)]);
      expect(contents(there)).toEqual(contents(here));
      expect(there.openapi?.body.toString()).toContain('/api/v1/inventory/items');
    } finally {
      await server.close();
    }
  });

  test('fails as rendering here does: the error names the file of the invalid page', async () => {
    const fixture = fixtureDocs({
      'en/intro.mdx': page('Intro', '[broken](./nowhere)'),
      'es/intro.mdx': page('Intro', 'Texto.'),
    });
    cleanup = fixture.remove;
    const input: SiteInput = { docsDir: fixture.dir, options: OPTIONS, openapi: undefined };
    const here = await renderSite(input).then(
      () => null,
      (error: Error) => error,
    );
    expect(here?.message).toContain('intro.mdx');
    await expect((await offThread())(input)).rejects.toMatchObject({
      name: here?.name,
      message: here?.message,
    });
  });
});
