import type { RootContent } from 'mdast';
import { loadPages, type Page, type Pages, sortSlugs } from './content.js';
import { LOCALES, type Locale, STRINGS } from './i18n.js';
import { escapeHtml, type NavEntry, pagePath, renderLayout } from './layout.js';
import { OpenApiView } from './openapi.js';
import { renderHtml, renderMarkdown } from './render.js';
import {
  type ErrorPage,
  HTML_TYPE,
  MARKDOWN_TYPE,
  pageKey,
  type Resource,
  resource,
  type Site,
  type SiteInput,
  type SiteOptions,
} from './resources.js';
import { STYLESHEET } from './style.js';

/**
 * Rendering: every page read, parsed, cross-checked and turned into the bytes the docs host
 * serves (resources.ts). This module and what it imports (unified, micromark, highlight.js)
 * run in a thread of their own in the server (site-thread.ts).
 */

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

/** Reads the pages of `docsDir` and renders them; rejects naming the file of an invalid page. */
export async function renderSite(input: SiteInput): Promise<Site> {
  return buildSite(await loadPages(input.docsDir), input.options, input.openapi);
}

/**
 * Renders everything. `openapi` is the API's OpenAPI document, or undefined when it is not
 * available (the reference page then says so, and /openapi.json answers 503).
 */
export function buildSite(pages: Pages, options: SiteOptions, openapi: unknown): Site {
  const markdown = new Map<string, Resource>();
  const html = new Map<string, Resource>();
  const fullText: string[] = [];
  for (const locale of LOCALES) {
    const nav = navigation(pages, locale);
    for (const { slug } of nav) {
      const page = pages[locale].get(slug);
      if (!page) continue;
      const key = pageKey(locale, slug);
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
    slugs: Object.fromEntries(
      LOCALES.map((locale) => [locale, new Set(pages[locale].keys())]),
    ) as Record<Locale, Set<string>>,
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
    errors: errorPages(pages, options),
  };
}
