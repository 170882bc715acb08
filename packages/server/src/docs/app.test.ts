import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ERROR_CODES, errorDocUrl } from '../api/errors.js';
import { PAGE_ORDER } from './build/content.js';
import { LOCALES, STRINGS } from './i18n.js';
import { PAGE_SCRIPT, PAGE_SCRIPT_HASH } from './page-script.js';
import { FIXTURE_OPENAPI, type RunningDocs, rawGet, startDocs } from './testing.js';

let docs: RunningDocs;
const SLUGS = [
  'introduction',
  'quickstart',
  'authentication',
  'keys-and-limits',
  'key-views',
  'errors',
  'organization',
  'inventory-items',
  'inventory-item',
  'locations',
  'client-library',
  'mcp',
  'webhooks',
  'self-hosting',
  'admin-api',
  'api-reference',
];

beforeAll(async () => {
  docs = await startDocs();
});

afterAll(async () => {
  await docs.close();
});

interface Answer {
  status: number;
  headers: Headers;
  text(): Promise<string>;
  json(): Promise<unknown>;
}

/** Reads the whole body at once: an unread body would hold its connection open. */
async function request(url: string, init: RequestInit = {}): Promise<Answer> {
  const response = await fetch(url, { redirect: 'manual', ...init });
  const body = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    text: async () => body,
    json: async () => JSON.parse(body),
  };
}

function get(path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return request(docs.url + path, { headers });
}

describe('content negotiation on /{locale}/docs/<page>', () => {
  const MD = 'text/markdown; charset=utf-8';
  const HTML = 'text/html; charset=utf-8';
  test.each([
    ['no Accept header', undefined, HTML],
    ['text/markdown', 'text/markdown', MD],
    ['upper case', 'TEXT/MARKDOWN', MD],
    ['with a parameter', 'text/markdown; charset=utf-8', MD],
    ['text/html', 'text/html', HTML],
    ['a browser', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', HTML],
    ['*/* only', '*/*', HTML],
    ['text/* only', 'text/*', HTML],
    ['a tie, markdown first', 'text/markdown, text/html', HTML],
    ['a tie, html first', 'text/html, text/markdown', HTML],
    ['equal explicit q', 'text/markdown;q=0.5, text/html;q=0.5', HTML],
    ['markdown preferred by q', 'text/html;q=0.5, text/markdown', MD],
    ['markdown preferred by q, listed first', 'text/markdown, text/html;q=0.9', MD],
    ['html preferred by q', 'text/markdown;q=0.9, text/html', HTML],
    ['markdown over a low wildcard', 'text/markdown, */*;q=0.1', MD],
    ['markdown named, html only by wildcard', 'text/markdown, */*', MD],
    ['markdown named, html only by text/*', 'text/markdown, text/*', MD],
    ['markdown refused', 'text/markdown;q=0, */*', HTML],
    ['another type only', 'application/json', HTML],
    ['nothing we have, never 406', 'image/png', HTML],
    ['markdown acceptable, html not', 'image/png, text/markdown;q=0.1', MD],
    ['garbage', 'this is not an accept header', HTML],
    // RFC 7763's own parameters (and any other) describe a Markdown; they do not rule ours out.
    ['a variant, html low', 'text/markdown; variant=CommonMark, text/html;q=0.1', MD],
    ['a variant alone', 'text/markdown; variant=GFM', MD],
    ['an unknown parameter, html lower', 'text/markdown;level=1, text/html;q=0.5', MD],
    ['a quoted parameter holding a comma', 'text/markdown; variant="a,b", text/html;q=0.1', MD],
    ['another charset asked for', 'text/markdown; charset=iso-8859-1', MD],
    ['a parameter before q', 'text/markdown; variant=GFM; q=0.4, text/html;q=0.5', HTML],
    ['a parameter on html, markdown preferred', 'text/html;level=1;q=0.2, text/markdown', MD],
    ['a tie with a parameter', 'text/markdown; variant=GFM, text/html', HTML],
    ['a variant refused', 'text/markdown; variant=GFM; q=0, */*', HTML],
  ])('%s → %s', async (_name, accept, expected) => {
    const response = await get('/en/docs/quickstart', accept === undefined ? {} : { accept });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(expected);
    expect(response.headers.get('vary')).toMatch(/\bAccept\b/);
    const body = await response.text();
    if (expected === MD) expect(body.startsWith('# Quickstart\n\n> ')).toBe(true);
    else expect(body.startsWith('<!doctype html>')).toBe(true);
  });

  test('the negotiated Markdown is the .mdx and the .md representation, byte for byte', async () => {
    for (const locale of LOCALES) {
      for (const slug of SLUGS) {
        const negotiated = await get(`/${locale}/docs/${slug}`, { accept: 'text/markdown' });
        const explicit = await get(`/${locale}/docs/${slug}.mdx`, { accept: 'text/html' });
        const md = await get(`/${locale}/docs/${slug}.md`, { accept: 'text/html' });
        expect(md.status).toBe(200);
        expect(md.headers.get('content-type')).toBe(MD);
        expect(await md.text()).toBe(await explicit.text());
        expect(md.headers.get('etag')).toBe(explicit.headers.get('etag'));
        expect(explicit.status).toBe(200);
        expect(explicit.headers.get('content-type')).toBe(MD);
        expect(await negotiated.text()).toBe(await explicit.text());
        expect(negotiated.headers.get('etag')).toBe(explicit.headers.get('etag'));
      }
    }
  });
});

describe('ETags', () => {
  const targets: Array<[string, Record<string, string>]> = [
    ['/en/docs/introduction', {}],
    ['/en/docs/introduction', { accept: 'text/markdown' }],
    ['/es/docs/errors.mdx', {}],
    ['/en/docs/api-reference', {}],
    ['/llms.txt', {}],
    ['/llms-full.txt', {}],
    ['/openapi.json', {}],
    ['/assets/docs.css', {}],
  ];

  test.each(targets)('%s %j has a strong ETag answered with 304', async (path, headers) => {
    const first = await get(path, headers);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toMatch(/; charset=utf-8$/);
    const etag = first.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const again = await get(path, { ...headers, 'if-none-match': ifNoneMatch });
      expect(again.status).toBe(304);
      expect(again.headers.get('etag')).toBe(etag);
      expect(await again.text()).toBe('');
    }
    const changed = await get(path, { ...headers, 'if-none-match': '"something-else"' });
    expect(changed.status).toBe(200);
    const head = await request(docs.url + path, { method: 'HEAD', headers });
    expect(head.status).toBe(200);
    expect(head.headers.get('etag')).toBe(etag);
    expect(await head.text()).toBe('');
  });

  test('the two representations of a page have different ETags', async () => {
    const html = await get('/en/docs/errors');
    const md = await get('/en/docs/errors', { accept: 'text/markdown' });
    expect(html.headers.get('etag')).not.toBe(md.headers.get('etag'));
    // An HTML validator does not validate the Markdown representation.
    const cross = await get('/en/docs/errors', {
      accept: 'text/markdown',
      'if-none-match': html.headers.get('etag') ?? '',
    });
    expect(cross.status).toBe(200);
  });
});

describe('headers', () => {
  test('HTML pages link to their Markdown, their twin and llms.txt', async () => {
    const response = await get('/es/docs/organization');
    const link = response.headers.get('link') ?? '';
    expect(link).toContain('</es/docs/organization.mdx>; rel="alternate"; type="text/markdown"');
    expect(link).toContain('</en/docs/organization>; rel="alternate"; hreflang="en"');
    expect(link).toContain('</llms.txt>; rel="describedby"');
    const html = await response.text();
    expect(html).toContain(
      '<link rel="alternate" type="text/markdown" href="/es/docs/organization.mdx">',
    );
    expect(html).toContain('<html lang="es">');
    expect(html).toContain('href="/en/docs/organization"');
  });

  test('Markdown answers point to the page and to llms.txt', async () => {
    for (const response of [
      await get('/en/docs/errors', { accept: 'text/markdown' }),
      await get('/en/docs/errors.mdx'),
    ]) {
      const link = response.headers.get('link') ?? '';
      expect(link).toContain('</en/docs/errors>; rel="canonical"');
      expect(link).toContain('</llms.txt>; rel="describedby"');
    }
  });

  test('security headers: nosniff everywhere, a restrictive CSP on HTML', async () => {
    for (const path of [
      '/en/docs/introduction',
      '/en/docs/introduction.mdx',
      '/llms.txt',
      '/openapi.json',
      '/nope',
    ]) {
      const response = await get(path);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    }
    const csp = (await get('/en/docs/introduction')).headers.get('content-security-policy') ?? '';
    expect(csp).toContain("style-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe');
    // One script: the page script, by its hash, which is the hash of the script in the page.
    expect(csp).toContain(`script-src ${PAGE_SCRIPT_HASH};`);
    expect(csp).toContain("connect-src 'self';");
    const html = await (await get('/en/docs/introduction')).text();
    const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1] ?? '');
    expect(scripts).toEqual([PAGE_SCRIPT]);
    const digest = createHash('sha256')
      .update(scripts[0] ?? '')
      .digest('base64');
    expect(PAGE_SCRIPT_HASH).toBe(`'sha256-${digest}'`);
    expect(html).not.toMatch(/<script [^>]*src=/);
  });
});

describe('routes', () => {
  test('/ redirects to the introduction in the preferred language', async () => {
    const en = await get('/');
    expect(en.status).toBe(302);
    expect(en.headers.get('location')).toBe('/en/docs/introduction');
    const es = await get('/', { 'accept-language': 'es-ES,es;q=0.9,en;q=0.5' });
    expect(es.headers.get('location')).toBe('/es/docs/introduction');
    expect((await get('/es')).headers.get('location')).toBe('/es/docs/introduction');
    expect((await get('/en/docs')).headers.get('location')).toBe('/en/docs/introduction');
  });

  test('every page of both languages is served', async () => {
    for (const locale of LOCALES) {
      for (const slug of SLUGS) {
        const response = await get(`/${locale}/docs/${slug}`);
        expect(response.status, `${locale}/${slug}`).toBe(200);
      }
    }
  });

  test.each([
    '/en/docs/no-such-page',
    '/en/docs/no-such-page.mdx',
    '/fr/docs/introduction',
    '/EN/docs/introduction',
    '/en/docs/Introduction',
    '/en/docs/introduction/',
    '/en/docs/introduction.md.md',
    '/en/docs/introduction.mdx.md',
    '/fr/llms-full.txt',
    '/fr/search-index.json',
    '/en/docs/introduction.mdx.mdx',
    '/fr',
    '/favicon.ico',
  ])('%s → 404', async (path) => {
    const response = await get(path);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await response.text()).toContain('Page not found');
  });

  test.each(LOCALES)('the %s 404 page says its message once', async (locale) => {
    const { notFoundText } = STRINGS[locale];
    const html = await (await get(`/${locale}/docs/nothing-here`)).text();
    const body = html.slice(html.indexOf('<body'));
    expect(body.split(notFoundText)).toHaveLength(2);
    const md = await (
      await get(`/${locale}/docs/nothing-here`, { accept: 'text/markdown' })
    ).text();
    expect(md.split(notFoundText)).toHaveLength(2);
  });

  test('a 404 asked for as Markdown is Markdown', async () => {
    const response = await get('/es/docs/nada', { accept: 'text/markdown' });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(await response.text()).toContain('# Página no encontrada');
  });

  test.each([
    '/en/docs/../../package.json',
    '/en/docs/..%2F..%2Fpackage.json',
    '/en/docs/%2e%2e%2f%2e%2e%2fpackage.json',
    '/en/docs/..%5C..%5Cpackage.json',
    '/en/docs/%2e%2e',
    '/en/docs/introduction.mdx%00',
    '/en/docs/..%2fen%2fintroduction.mdx',
    '/../../etc/passwd',
    '/en/docs//etc/passwd',
    '/en/docs/%252e%252e%252fpackage.json',
    '/en/docs/..\\..\\package.json',
    '/en/docs/%2e%2e%2f%2e%2e%2fen%2fintroduction.mdx',
    '/en/docs/..%2f..%2f..%2fdocs%2fen%2fintroduction.mdx',
    '/en/docs/%00',
    '/en/docs/.mdx',
  ])('no path escapes the docs: %s', async (path) => {
    const response = await rawGet(docs.url, path);
    expect([400, 404]).toContain(response.status);
    expect(response.body).not.toContain('stockroom-monorepo');
    expect(response.body).not.toContain('root:');
    // Nor is a page's source file ever served raw.
    expect(response.body).not.toContain('title: Introduction');
  });

  test('other methods → 405 with Allow', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const response = await request(`${docs.url}/en/docs/introduction`, { method });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('GET, HEAD');
    }
  });

  test('/openapi.json serves the API document', async () => {
    const response = await get('/openapi.json');
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await response.json()).toEqual(FIXTURE_OPENAPI);
  });
});

describe('the docs host’s own error pages', () => {
  const LONG = 'a'.repeat(201);

  test.each([
    ['a page of 201 characters', `/en/docs/${LONG}`, 'en'],
    ['a .mdx page of 205 characters', `/es/docs/${LONG}.mdx`, 'es'],
    ['a page of 12,000 characters', `/es/docs/${'b'.repeat(12_000)}`, 'es'],
    ['a locale of 300 characters', `/${'c'.repeat(300)}`, 'en'],
    ['a locale of 300 characters, then a page', `/${'d'.repeat(300)}/docs/introduction`, 'en'],
  ] as const)('%s gets the 404 page', async (_name, path, locale) => {
    const html = await rawGet(docs.url, path);
    expect(html.status).toBe(404);
    expect(html.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(html.body).toContain(`<h1>${STRINGS[locale].notFoundTitle}</h1>`);
    const md = await get(path, { accept: 'text/markdown' });
    expect(md.status).toBe(404);
    expect(md.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(await md.text()).toMatch(new RegExp(`^# ${STRINGS[locale].notFoundTitle}\n`));
  });

  test.each([
    ['/en/docs/%zz', 'en'],
    ['/es/docs/%E0%A4%A', 'es'],
    ['/es/docs/introduction%', 'es'],
    ['/%', 'en'],
    ['/en/docs/%C0%AF', 'en'],
  ] as const)('a malformed URL gets the 400 page: %s', async (path, locale) => {
    const strings = STRINGS[locale];
    const html = await rawGet(docs.url, path);
    expect(html.status).toBe(400);
    expect(html.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(html.body).toContain(`<h1>${strings.badRequestTitle}</h1>`);
    expect(html.body).toContain(strings.badRequestText);
    // The same headers as every other answer, though no route (nor hook) ran.
    expect(html.headers['x-content-type-options']).toBe('nosniff');
    expect(html.headers['content-security-policy']).toContain("default-src 'none'");
    expect(html.headers['access-control-allow-origin']).toBe('*');
    expect(html.headers.vary).toBe('Accept');
    const md = await rawGet(docs.url, path, 'GET', { accept: 'text/markdown' });
    expect(md.status).toBe(400);
    expect(md.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(md.body).toBe(
      `# ${strings.badRequestTitle}\n\n${strings.badRequestText}\n\n${strings.pageIndex} https://docs.example.test/llms.txt\n`,
    );
  });

  test('error pages carry a strong ETag, but are always sent in full and never stored', async () => {
    const etags = new Set<string>();
    for (const [path, accept] of [
      ['/en/docs/nothing', 'text/html'],
      ['/en/docs/nothing', 'text/markdown'],
      ['/es/docs/nada', 'text/html'],
      ['/es/docs/nada', 'text/markdown'],
    ] as const) {
      const first = await get(path, { accept });
      expect(first.status).toBe(404);
      const etag = first.headers.get('etag') ?? '';
      expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
      expect(first.headers.get('cache-control')).toBe('no-store');
      etags.add(etag);
      // RFC 9110 13.2.1: a precondition only applies where the answer would be 2xx.
      const again = await get(path, { accept, 'if-none-match': etag });
      expect(again.status).toBe(404);
      expect(again.headers.get('etag')).toBe(etag);
      expect(await again.text()).toBe(await first.text());
    }
    expect(etags.size).toBe(4);
    const bad = await rawGet(docs.url, '/en/docs/%zz');
    expect(bad.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(bad.headers['cache-control']).toBe('no-store');
  });
});

describe('links in the HTML', () => {
  test('every link on the docs host leads to a page that exists, and to an element with its id', async () => {
    const cache = new Map<string, { status: number; html: string }>();
    const load = async (path: string) => {
      let entry = cache.get(path);
      if (!entry) {
        const response = await get(path);
        entry = { status: response.status, html: await response.text() };
        cache.set(path, entry);
      }
      return entry;
    };
    let checked = 0;
    for (const locale of LOCALES) {
      for (const slug of SLUGS) {
        const from = `/${locale}/docs/${slug}`;
        const { html } = await load(from);
        for (const match of html.matchAll(/<a [^>]*href="([^"]+)"/g)) {
          const href = (match[1] ?? '').replaceAll('&#x26;', '&').replaceAll('&amp;', '&');
          if (/^[a-z]+:/i.test(href)) continue;
          const target = new URL(href, `http://docs.invalid${from}`);
          const page = await load(target.pathname);
          expect(page.status, `${from} → ${href}`).toBe(200);
          const id = decodeURIComponent(target.hash.slice(1));
          if (id) expect(page.html, `${from} → ${href}`).toContain(`id="${id}"`);
          checked += 1;
        }
      }
    }
    expect(checked).toBeGreaterThan(500);
  });
});

describe('llms.txt', () => {
  test('follows the llmstxt.org format', async () => {
    const response = await get('/llms.txt');
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const text = await response.text();
    expect(text.length).toBeLessThan(50_000);
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^# \S/);
    expect(lines[1]).toBe('');
    expect(lines[2]).toMatch(/^> \S/);
    const sections = lines.filter((line) => line.startsWith('## '));
    expect(sections).toEqual(['## English', '## Español']);
    expect(lines.filter((line) => line.startsWith('# '))).toHaveLength(1);
    for (const [index, locale] of LOCALES.entries()) {
      const start = lines.indexOf(sections[index] ?? '');
      const end =
        index + 1 < sections.length ? lines.indexOf(sections[index + 1] ?? '') : lines.length;
      const entries = lines.slice(start + 1, end).filter((line) => line.startsWith('- '));
      // Every page, and the language's llms-full.txt first.
      expect(entries).toHaveLength(SLUGS.length + 1);
      expect(entries[0]).toContain(
        `- [${STRINGS[locale].languageName}: ${STRINGS[locale].llmsEveryPage}](https://docs.example.test/${locale}/llms-full.txt): `,
      );
      for (const slug of SLUGS) {
        const url = `https://docs.example.test/${locale}/docs/${slug}.mdx`;
        const entry = entries.find((line) => line.includes(`](${url})`));
        expect(entry, `${locale}/${slug}`).toMatch(/^- \[[^\]]+\]\(https:\/\/[^)]+\): \S.*$/);
      }
    }
  });

  test('every URL in it is absolute and served', async () => {
    const text = await (await get('/llms.txt')).text();
    const urls = [...text.matchAll(/https:\/\/docs\.example\.test(\/[^\s)]*)/g)].map((m) =>
      (m[1] ?? '').replace(/[.,]$/, ''),
    );
    expect(urls.length).toBeGreaterThanOrEqual(SLUGS.length * 2);
    for (const path of urls) expect((await get(path)).status, path).toBe(200);
    expect(text).not.toMatch(/\]\((?!https?:)/);
  });

  test('llms-full.txt holds every page of both languages as processed Markdown, English first', async () => {
    const full = await (await get('/llms-full.txt')).text();
    // Where each page's processed Markdown starts in the file: all there, English before Spanish.
    const at: Record<string, number[]> = { en: [], es: [] };
    for (const locale of LOCALES) {
      for (const slug of SLUGS) {
        const markdown = await (await get(`/${locale}/docs/${slug}.mdx`)).text();
        at[locale]?.push(full.indexOf(markdown));
        expect(full.indexOf(markdown), `${locale}/${slug}`).toBeGreaterThan(0);
      }
    }
    expect(Math.max(...(at.en ?? []))).toBeLessThan(Math.min(...(at.es ?? [])));
    // Words only the Spanish pages hold (the introduction's lead paragraph, the API reference's
    // generated table headings) are in it.
    expect(full).toContain('Stockroom es una API');
    expect(full).toContain('|Nombre|En|Obligatorio|Tipo|Descripción|');
  });

  /** The pieces of an llms-full file: its opening, then one processed page each. */
  const parts = (text: string) => text.split('\n---\n\n');

  test('llms-full.txt opens with # Stockroom and a one-paragraph summary, then the pages in order', async () => {
    const full = await (await get('/llms-full.txt')).text();
    const [opening, ...pages] = parts(full);
    expect(opening).toMatch(/^# Stockroom\n\n> [^\n]+\n$/);
    for (const locale of LOCALES) {
      expect(opening).toContain(`https://docs.example.test/${locale}/llms-full.txt`);
    }
    const titles = pages.map((page) => page.split('\n')[0]);
    const expected: string[] = [];
    for (const locale of LOCALES) {
      for (const slug of PAGE_ORDER) {
        const markdown = await (await get(`/${locale}/docs/${slug}.md`)).text();
        expected.push(markdown.split('\n')[0] ?? '');
      }
    }
    expect(titles).toEqual(expected);
  });

  test.each(LOCALES)('/%s/llms-full.txt holds the pages of that language only', async (locale) => {
    const response = await get(`/${locale}/llms-full.txt`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const text = await response.text();
    const [opening, ...pages] = parts(text);
    expect(opening).toBe(`# Stockroom\n\n> ${STRINGS[locale].llmsSummary}\n`);
    expect(pages).toHaveLength(SLUGS.length);
    for (const [index, slug] of PAGE_ORDER.entries()) {
      const markdown = await (await get(`/${locale}/docs/${slug}.md`)).text();
      expect(pages[index], `${locale}/${slug}`).toBe(markdown);
    }
  });

  test('tables are compact: no cell padded, not even by a space, one dash per delimiter cell', async () => {
    const full = await (await get('/llms-full.txt')).text();
    const rows = full.split('\n').filter((line) => /^[> ]*\|.*\|$/.test(line));
    expect(rows.length).toBeGreaterThan(100);
    const delimiters = rows.filter((row) => /^[> ]*\|(?: *:?-+:? *\|)+$/.test(row));
    expect(delimiters.length).toBeGreaterThan(20);
    // A space beside a pipe is padding, unless the pipe is escaped inside a cell (`a \| b`).
    for (const row of rows) {
      expect(row.replace(/^[> ]*/, ''), row).not.toMatch(/(?<!\\)\| | (?<!\\)\|/);
    }
    for (const row of delimiters) expect(row, row).toMatch(/^[> ]*\|(?::?-:?\|)+$/);
  });
});

describe('search index', () => {
  test.each(LOCALES)(
    '/%s/search-index.json covers every page and section of that language',
    async (locale) => {
      const response = await get(`/${locale}/search-index.json`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      const entries = (await response.json()) as Array<{
        t: string;
        h: string;
        u: string;
        x: string;
      }>;
      for (const slug of SLUGS) {
        const page = `/${locale}/docs/${slug}`;
        const ofPage = entries.filter(
          (entry) => entry.u === page || entry.u.startsWith(`${page}#`),
        );
        expect(ofPage.length, page).toBeGreaterThan(0);
        const html = await (await get(page)).text();
        for (const entry of ofPage) {
          const id = entry.u.split('#')[1];
          if (id) expect(html, entry.u).toContain(`id="${id}"`);
        }
      }
      expect(entries.every((entry) => entry.u.startsWith(`/${locale}/docs/`))).toBe(true);
    },
  );
});

describe('errors page', () => {
  test.each(LOCALES)('every API error code has its section in %s', async (locale) => {
    const html = await (await get(`/${locale}/docs/errors`)).text();
    for (const code of ERROR_CODES) {
      expect(html, code).toContain(`<h2 id="${code.toLowerCase()}">`);
    }
  });

  test('every docUrl the API builds names an element of the English errors page', async () => {
    const html = await (await get('/en/docs/errors')).text();
    for (const code of ERROR_CODES) {
      const url = new URL(errorDocUrl('https://docs.example.test', code));
      expect(url.pathname).toBe('/en/docs/errors');
      expect(html).toContain(`id="${url.hash.slice(1)}"`);
    }
  });
});

describe('API reference', () => {
  test('renders operations, parameters, responses and schemas from the OpenAPI document', async () => {
    const md = await (await get('/en/docs/api-reference.mdx')).text();
    expect(md).toContain('## GET /api/v1/things');
    expect(md).toContain('**List things**');
    expect(md).toContain('**Base URL:** `https://api.example.test`');
    expect(md).toContain('**Authentication:** API key');
    expect(md).toMatch(
      /\|`limit`\|query\|no\|`string`\|Page size\. \(pattern `\^\[1-9\]\[0-9\]\*\$`\)\|/,
    );
    expect(md).toMatch(/\|`200`\|OK\|`object`\|/);
    expect(md).toMatch(/\|`404`\|Error: THING_NOT_FOUND\|/);
    expect(md).toMatch(/\|`data`\|`array of Thing`\|/);
    expect(md).toMatch(/\|`nextCursor`\|`string \\\| null` \(optional\)\|Next page\.\|/);
    expect(md).toContain('### Thing');
    expect(md).toMatch(/\|`size`\|`number` \(optional\)\|How big\.\|/);
    const es = await (await get('/es/docs/api-reference.mdx')).text();
    expect(es).toContain('### Parámetros');
    const html = await (await get('/en/docs/api-reference')).text();
    expect(html).toContain('<h2 id="get-apiv1things">GET /api/v1/things');
  });

  test('a site rendered without the OpenAPI document says so: 503 on /openapi.json, a note on the reference', async () => {
    const without = await startDocs({ openapi: undefined });
    try {
      const early = await request(`${without.url}/openapi.json`);
      expect(early.status).toBe(503);
      expect(early.headers.get('retry-after')).toBe('1');
      expect(await early.json()).toMatchObject({ error: { code: 'SERVICE_UNAVAILABLE' } });
      const page = await (await request(`${without.url}/en/docs/api-reference.mdx`)).text();
      expect(page).toContain('The OpenAPI document is not available');
      expect(page).not.toContain('## GET /api/v1/things');
      // The site of the same pages with the document: the reference and /openapi.json.
      expect((await request(`${docs.url}/openapi.json`)).status).toBe(200);
      const after = await (await request(`${docs.url}/en/docs/api-reference.mdx`)).text();
      expect(after).toContain('## GET /api/v1/things');
    } finally {
      await without.close();
    }
  });
});

describe('compression', () => {
  test('large resources come in brotli or gzip, each encoding with its own ETag', async () => {
    const { default: zlib } = await import('node:zlib');
    const identity = await rawGet(docs.url, '/llms-full.txt', 'GET', {
      'accept-encoding': 'identity',
    });
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.headers.vary).toMatch(/accept-encoding/i);
    const br = await rawGet(docs.url, '/llms-full.txt', 'GET', { 'accept-encoding': 'br, gzip' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(br.bytes).equals(identity.bytes)).toBe(true);
    expect(br.bytes.length).toBeLessThan(identity.bytes.length / 3);
    expect(br.headers.etag).toBe(`${identity.headers.etag?.slice(0, -1)}-br"`);
    const gzip = await rawGet(docs.url, '/llms-full.txt', 'GET', { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.bytes).equals(identity.bytes)).toBe(true);
    // Any encoding's tag revalidates the same content.
    const again = await rawGet(docs.url, '/llms-full.txt', 'GET', {
      'accept-encoding': 'gzip',
      'if-none-match': String(br.headers.etag),
    });
    expect(again.status).toBe(304);
    expect(again.headers.etag).toBe(gzip.headers.etag);
  });

  test('a page negotiated by Accept varies on both headers', async () => {
    const page = await rawGet(docs.url, '/en/docs/errors', 'GET', { 'accept-encoding': 'gzip' });
    expect(page.headers['content-encoding']).toBe('gzip');
    expect(page.headers.vary).toMatch(/^Accept, Accept-Encoding$/);
  });
});
