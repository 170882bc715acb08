import { createHash } from 'node:crypto';
import type { RootContent } from 'mdast';
import { type Page, type Pages, sortSlugs } from './content.js';
import { LOCALES, type Locale, STRINGS } from './i18n.js';
import { escapeHtml, type NavEntry, pagePath, renderLayout } from './layout.js';
import { OpenApiView } from './openapi.js';
import { renderHtml, renderMarkdown } from './render.js';
import { STYLESHEET } from './style.js';

/** Every response body of the docs host, rendered once and kept in memory with its ETag. */

export interface Resource {
  body: Buffer;
  type: string;
  /** Strong validator: a hash of the exact bytes. */
  etag: string;
}

export interface SiteOptions {
  publicDocsUrl: string;
  publicApiUrl: string;
}

/** The docs host's own error pages: an unknown page, and an address that is not a valid URL. */
export type ErrorPage = 'notFound' | 'badRequest';

export interface Site {
  pages: Pages;
  /** `${locale}/${slug}` → representation. */
  markdown: Map<string, Resource>;
  html: Map<string, Resource>;
  llms: Resource;
  llmsFull: Resource;
  /** Null when the OpenAPI document could not be read. */
  openapi: Resource | null;
  stylesheet: Resource;
  /** Per locale, each error page in both representations. */
  errors: Record<Locale, Record<ErrorPage, { html: Resource; markdown: Resource }>>;
}

export const MARKDOWN_TYPE = 'text/markdown; charset=utf-8';
export const HTML_TYPE = 'text/html; charset=utf-8';

export function resource(body: string, type: string): Resource {
  const bytes = Buffer.from(body, 'utf8');
  const hash = createHash('sha256').update(bytes).digest('base64url').slice(0, 32);
  return { body: bytes, type, etag: `"${hash}"` };
}

export function pageKey(locale: Locale, slug: string): string {
  return `${locale}/${slug}`;
}

export function navigation(pages: Pages, locale: Locale): NavEntry[] {
  return sortSlugs(pages[locale].keys()).map((slug) => ({
    slug,
    title: pages[locale].get(slug)?.title ?? slug,
  }));
}

function openapiNodes(page: Page, pages: Pages, doc: unknown, options: SiteOptions): RootContent[] {
  const strings = STRINGS[page.locale];
  if (doc === undefined) {
    return [
      {
        type: 'blockquote',
        children: [
          { type: 'paragraph', children: [{ type: 'text', value: strings.api.unavailable }] },
        ],
      },
    ];
  }
  return new OpenApiView(doc, {
    strings,
    apiUrl: options.publicApiUrl,
    errorAnchors: pages[page.locale].get('errors')?.anchors ?? new Set(),
  }).render();
}

function errorPages(
  pages: Pages,
  options: SiteOptions,
): Record<Locale, Record<ErrorPage, { html: Resource; markdown: Resource }>> {
  const out = {} as Record<Locale, Record<ErrorPage, { html: Resource; markdown: Resource }>>;
  for (const locale of LOCALES) {
    const strings = STRINGS[locale];
    const nav = navigation(pages, locale);
    const home = pagePath(locale, nav[0]?.slug ?? 'introduction');
    const render = (title: string, text: string) => ({
      markdown: resource(
        `# ${title}\n\n${text}\n\n${strings.pageIndex} ${options.publicDocsUrl}/llms.txt\n`,
        MARKDOWN_TYPE,
      ),
      html: resource(
        renderLayout({
          locale,
          slug: null,
          title,
          // The layout shows the description as the lead paragraph under the title.
          description: text,
          body: `<p><a href="${escapeHtml(home)}">${escapeHtml(strings.backToIntroduction)}</a></p>`,
          toc: [],
          nav,
          twins: { en: false, es: false },
          publicDocsUrl: options.publicDocsUrl,
        }),
        HTML_TYPE,
      ),
    });
    out[locale] = {
      notFound: render(strings.notFoundTitle, strings.notFoundText),
      badRequest: render(strings.badRequestTitle, strings.badRequestText),
    };
  }
  return out;
}

function llmsIndex(pages: Pages, options: SiteOptions): string {
  const docs = options.publicDocsUrl;
  const lines = [
    '# Stockroom',
    '',
    '> Stockroom is a self-hosted public HTTP API for inventory data: an organization exposes its inventory items and organization summary to external integrations, authenticated with organization or user API keys. This index lists every documentation page, in English and in Spanish, as Markdown.',
    '',
    `Each page is Markdown at the address listed here; the same address without \`.mdx\` serves HTML, or Markdown when requested with \`Accept: text/markdown\`. Every page of both languages in one file: ${docs}/llms-full.txt. The OpenAPI 3.1 document: ${docs}/openapi.json. The API itself: ${options.publicApiUrl}/api/v1/.`,
  ];
  for (const locale of LOCALES) {
    lines.push('', `## ${STRINGS[locale].languageName}`, '');
    for (const entry of navigation(pages, locale)) {
      const page = pages[locale].get(entry.slug);
      if (!page) continue;
      lines.push(
        `- [${page.title}](${docs}${pagePath(locale, page.slug)}.mdx): ${page.description}`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Renders everything. `openapi` is the API's OpenAPI document, or undefined when it is not
 * available (the reference page then says so, and /openapi.json answers 503). With `previous`,
 * pages that do not depend on the OpenAPI document are reused rather than rendered again.
 */
export function buildSite(
  pages: Pages,
  options: SiteOptions,
  openapi: unknown,
  previous?: Site,
): Site {
  const markdown = new Map<string, Resource>();
  const html = new Map<string, Resource>();
  const fullText: string[] = [];
  for (const locale of LOCALES) {
    const nav = navigation(pages, locale);
    for (const { slug } of nav) {
      const page = pages[locale].get(slug);
      if (!page) continue;
      const key = pageKey(locale, slug);
      const kept = page.generated ? undefined : previous;
      const keptMarkdown = kept?.markdown.get(key);
      const keptHtml = kept?.html.get(key);
      if (keptMarkdown && keptHtml) {
        fullText.push(keptMarkdown.body.toString('utf8'));
        markdown.set(key, keptMarkdown);
        html.set(key, keptHtml);
        continue;
      }
      const input = {
        title: page.title,
        description: page.description,
        tree: page.tree,
        path: pagePath(locale, slug),
        strings: STRINGS[locale],
        ...(page.generated ? { openapi: openapiNodes(page, pages, openapi, options) } : {}),
      };
      const md = renderMarkdown(input, options.publicDocsUrl);
      fullText.push(md);
      markdown.set(key, resource(md, MARKDOWN_TYPE));
      const fragment = renderHtml(input);
      const twins = Object.fromEntries(LOCALES.map((l) => [l, pages[l].has(slug)])) as Record<
        Locale,
        boolean
      >;
      const document = renderLayout({
        locale,
        slug,
        title: page.title,
        description: page.description,
        body: fragment.html,
        toc: fragment.toc,
        nav,
        twins,
        publicDocsUrl: options.publicDocsUrl,
      });
      html.set(key, resource(document, HTML_TYPE));
    }
  }
  return {
    pages,
    markdown,
    html,
    llms: resource(llmsIndex(pages, options), 'text/plain; charset=utf-8'),
    // A thematic break between pages; each page opens with its own `# Title`.
    llmsFull: resource(fullText.join('\n---\n\n'), 'text/plain; charset=utf-8'),
    openapi:
      openapi === undefined
        ? null
        : resource(`${JSON.stringify(openapi, null, 2)}\n`, 'application/json; charset=utf-8'),
    stylesheet: resource(STYLESHEET, 'text/css; charset=utf-8'),
    errors: previous?.errors ?? errorPages(pages, options),
  };
}
