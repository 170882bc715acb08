import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkStringify from 'remark-stringify';
import { unified } from 'unified';
import { afterEach, describe, expect, test } from 'vitest';
import { bindSite } from '../bind-site.js';
import { PLACEHOLDERS, type RenderedSite, readSite, SITE_DIR, SITE_FILES } from '../built-site.js';
import { LOCALES } from '../i18n.js';
import { type Site, type SiteUrls, siteResources } from '../resources.js';
import { FIXTURE_OPENAPI, fixtureDocs, page, REPO_DOCS_DIR } from '../testing.js';
import { apiDocument } from './api-document.js';
import { loadPages } from './content.js';
import { renderPages, renderSite } from './site.js';
import { writeSite } from './write-site.js';

/**
 * The site is rendered once, at build time, with placeholders for the public URLs; a server
 * puts its own in. What it serves must be, byte for byte, what rendering with its URLs would
 * give, and the files in dist/site must be what the renderer makes of the repository now.
 */

/** Every resource of a site as comparable values, in a fixed order. */
function contents(site: Site) {
  return [...siteResources(site)].map((resource) => ({
    body: resource.body.toString('utf8'),
    type: resource.type,
    etag: resource.etag,
  }));
}

/** A copy of an OpenAPI document whose server URL is `url`. */
function servedAt(doc: unknown, url: string): unknown {
  const copy = structuredClone(doc) as { servers?: Array<{ url: string }> };
  if (copy.servers) copy.servers = copy.servers.map((server) => ({ ...server, url }));
  return copy;
}

const URLS: Array<[string, SiteUrls]> = [
  [
    'local ports',
    { publicDocsUrl: 'http://127.0.0.1:3001', publicApiUrl: 'http://127.0.0.1:3000' },
  ],
  [
    'long URLs with paths',
    {
      publicDocsUrl: 'https://documentation.inventory.example.com:8443/stockroom/public-docs_v2',
      publicApiUrl: 'https://api.inventory.example.com:8443/stockroom/api-gateway/v2~current',
    },
  ],
  [
    // HTML escapes `&` one way in an attribute (the canonical link) and another in text (the
    // examples' code), and the API URL's `&` and `<` in text and code. (Markdown escapes `&`
    // before a letter or `#`, where it could start a character reference.) A docs URL holding `(`,
    // `)`, `<`, `>`, `\\` or spaces would be escaped in Markdown links by the renderer and not by
    // bind-site.ts; one holding a quote (`'`, `"`) or `#` would be highlighted differently in the
    // examples' shell code; no base URL holds them.
    'characters HTML escapes',
    {
      publicDocsUrl: 'https://docs.example.test/it&~docs_*1',
      publicApiUrl: 'https://api.example.test/x&y<z',
    },
  ],
  ['one letter', { publicDocsUrl: 'http://d', publicApiUrl: 'http://a' }],
];

let cleanup: (() => void) | undefined;
afterEach(() => {
  cleanup?.();
  cleanup = undefined;
});

describe('the placeholders of the public URLs', async () => {
  const pages = await loadPages(REPO_DOCS_DIR);
  const api = await apiDocument();
  // Rendering with the placeholders does not depend on the URLs: once per document for the
  // whole file (a rendering of every page takes a second or two; bindSite copies, never
  // changes, what it is given).
  const withPlaceholders = new Map<unknown, RenderedSite>();
  const rendered = (doc: unknown): RenderedSite => {
    let site = withPlaceholders.get(doc);
    if (!site) {
      site = renderPages(pages, doc);
      withPlaceholders.set(doc, site);
    }
    return site;
  };

  test.each(URLS)(
    'are replaced as rendering with the URLs would write them: %s',
    (_label, urls) => {
      for (const doc of [FIXTURE_OPENAPI, api, undefined]) {
        const served = bindSite(rendered(doc), urls);
        const direct = bindSite(
          renderPages(
            pages,
            doc === undefined ? undefined : servedAt(doc, urls.publicApiUrl),
            urls,
          ),
          PLACEHOLDERS,
        );
        expect(contents(served)).toEqual(contents(direct));
      }
    },
    // Up to six renderings of every page of both languages: slow on a busy machine.
    120_000,
  );

  test('tables of hand-written pages too: every alignment, links in a callout', async () => {
    const table = [
      '| Left | Centre | Right | Plain |',
      '| :--- | :----: | ----: | ----- |',
      '| [a](./other) | [b](./other#part) | [c](/llms.txt) | `x \\| y` |',
      '| d | e | f | |',
    ].join('\n');
    const fixture = fixtureDocs({
      'en/intro.mdx': page('Intro', `${table}\n\n<Callout>\n\n${table}\n\n</Callout>`),
      'en/other.mdx': page('Other', '## Part\n\nText.'),
      'es/intro.mdx': page('Intro', 'Texto.'),
      'es/other.mdx': page('Otra', 'Texto.'),
    });
    cleanup = fixture.remove;
    const fixturePages = await loadPages(fixture.dir);
    for (const [, urls] of URLS) {
      const served = bindSite(renderPages(fixturePages, undefined), urls);
      const direct = bindSite(renderPages(fixturePages, undefined, urls), PLACEHOLDERS);
      expect(contents(served)).toEqual(contents(direct));
      expect(served.markdown.get('en/intro')?.body.toString()).toContain(
        `${urls.publicDocsUrl}/en/docs/other#part`,
      );
    }
  });

  test('llms-full.txt is well under the size of its pages with padded tables', () => {
    // What it used to be: the same pages with every table cell padded to its column's width.
    const padded = unified().use(remarkParse).use(remarkGfm).use(remarkStringify, {
      bullet: '-',
      emphasis: '_',
      fence: '`',
      fences: true,
      listItemIndent: 'one',
      rule: '-',
      strong: '*',
    });
    const site = rendered(api);
    const size = (name: string) => Buffer.byteLength(site.files.get(name)?.body ?? '');
    let before = 0;
    for (const locale of LOCALES) {
      for (const slug of site.slugs[locale]) {
        const markdown = site.files.get(SITE_FILES.page(locale, slug, 'markdown'))?.body ?? '';
        before += Buffer.byteLength(String(padded.processSync(markdown)));
      }
    }
    // Compact tables alone save over a quarter of both languages (/llms-full.txt, which drops
    // no page: issue 41); each language's file is under half of both padded (issue 34).
    expect(size(SITE_FILES.llmsFull)).toBeLessThan(0.75 * before);
    for (const locale of LOCALES) {
      expect(size(SITE_FILES.llmsFullOf(locale))).toBeLessThan(0.5 * before);
    }
  });

  test('llms-full.txt is its pages’ words with little Markdown around them', () => {
    // What is left is content: the words (text, inline code, code blocks, link addresses),
    // counted here from the file itself, are over nine tenths of it.
    const site = rendered(api);
    const full = site.files.get(SITE_FILES.llmsFull)?.body ?? '';
    const tree = unified().use(remarkParse).use(remarkGfm).parse(full);
    let words = 0;
    const walk = (node: object): void => {
      for (const key of ['value', 'url'] as const) {
        const value = (node as Record<string, unknown>)[key];
        if (typeof value === 'string') words += Buffer.byteLength(value);
      }
      const children = (node as { children?: object[] }).children;
      for (const child of children ?? []) walk(child);
    };
    walk(tree);
    const size = Buffer.byteLength(full);
    // 1.081 before issue 34's second part, 1.067 after: the rest is headings, list markers,
    // pipes, fences and line breaks.
    expect(size).toBeLessThan(1.075 * words);
    // The English pages then the Spanish ones, and nothing else but the opening.
    const [english, spanish] = LOCALES.map(
      (locale) => site.files.get(SITE_FILES.llmsFullOf(locale))?.body ?? '',
    );
    const pagesOf = (text = '') => text.slice(text.indexOf('\n---\n\n'));
    expect(full.startsWith('# Stockroom\n\n> Stockroom is ')).toBe(true);
    expect(pagesOf(full)).toBe(pagesOf(english) + pagesOf(spanish));
  });

  test('appear in the built files, and nowhere once a server put its URLs in', () => {
    const site = rendered(api);
    const all = [...site.files.values()].map((file) => file.body).join('\n');
    expect(all).toContain(PLACEHOLDERS.publicDocsUrl);
    expect(all).toContain(PLACEHOLDERS.publicApiUrl);
    const served = bindSite(site, URLS[0]?.[1] as SiteUrls);
    for (const resource of siteResources(served)) {
      expect(resource.body.toString()).not.toContain('stockroom.invalid');
    }
  });
});

describe('the built site', () => {
  test('dist/site is what the renderer makes of the repository now (`npm run build` writes it)', async () => {
    if (!existsSync(SITE_DIR)) throw new Error('packages/server is not built: run `npm run build`');
    const [built, rendered] = await Promise.all([
      readSite(SITE_DIR),
      renderSite({ docsDir: REPO_DOCS_DIR, openapi: await apiDocument() }),
    ]);
    expect(built.slugs).toEqual(rendered.slugs);
    expect([...built.files.keys()].sort()).toEqual([...rendered.files.keys()].sort());
    for (const [name, file] of rendered.files) expect(built.files.get(name), name).toEqual(file);
  });

  test('files written and read back are the rendered site; a new build replaces the old one whole', async () => {
    const fixture = fixtureDocs({
      'en/intro.mdx': page('Intro', 'Hello.'),
      'es/intro.mdx': page('Intro', 'Hola.'),
    });
    cleanup = fixture.remove;
    const out = path.join(fixture.dir, 'out', 'site');
    const roundTrip = async (site: RenderedSite) => {
      await writeSite(out, site, 'fingerprint');
      const read = await readSite(out);
      expect(read.slugs).toEqual(site.slugs);
      expect(new Map([...read.files].sort())).toEqual(new Map([...site.files].sort()));
      return read;
    };
    const withDoc = await roundTrip(
      await renderSite({ docsDir: fixture.dir, openapi: FIXTURE_OPENAPI }),
    );
    expect(bindSite(withDoc, URLS[0]?.[1] as SiteUrls).openapi).not.toBeNull();
    const without = await roundTrip(await renderSite({ docsDir: fixture.dir, openapi: undefined }));
    expect(bindSite(without, URLS[0]?.[1] as SiteUrls).openapi).toBeNull();
    expect(existsSync(path.join(out, 'openapi.json'))).toBe(false);
    // Nothing left beside it.
    expect(readdirSync(path.dirname(out))).toEqual(['site']);
  });

  test('a folder without a build is refused with what to run', async () => {
    await expect(readSite(path.join(REPO_DOCS_DIR, 'nowhere'))).rejects.toThrow(/npm run build/);
  });
});
