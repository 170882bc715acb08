import type { RootContent } from 'mdast';
import { PLACEHOLDERS, type RenderedFile, type RenderedSite, SITE_FILES } from '../built-site.js';
import { escapeHtml } from '../html.js';
import { LOCALES, type Locale, STRINGS } from '../i18n.js';
import {
  CSS_TYPE,
  type ErrorPage,
  HTML_TYPE,
  JSON_TYPE,
  MARKDOWN_TYPE,
  pagePath,
  type SiteUrls,
  TEXT_TYPE,
} from '../resources.js';
import { loadPages, type Page, type Pages, sectionOf, sortSlugs } from './content.js';
import { type NavEntry, renderLayout } from './layout.js';
import { DocsContentError } from './mdx.js';
import { OpenApiView } from './openapi.js';
import { openapiTranslator } from './openapi-texts.js';
import { renderHtml, renderMarkdown, type SearchEntry, searchEntries } from './render.js';
import { STYLESHEET } from './style.js';

/**
 * Rendering: every page read, parsed, cross-checked and turned into the files the docs host
 * serves (built-site.ts), with placeholders for the public URLs unless others are given.
 */

export interface SiteInput {
  /** The folder holding `en/*.mdx` and `es/*.mdx`. */
  docsDir: string;
  /**
   * The API's OpenAPI document, or undefined: the reference page then says it is not
   * available, and /openapi.json answers 503.
   */
  openapi: unknown;
  /** What the public URLs are written as; the placeholders by default. */
  urls?: SiteUrls;
}

export function navigation(pages: Pages, locale: Locale): NavEntry[] {
  return sortSlugs(pages[locale].keys()).map((slug) => ({
    slug,
    title: pages[locale].get(slug)?.title ?? slug,
    section: sectionOf(slug),
  }));
}

/**
 * `markdown`: for the processed Markdown, which lists each named schema's fields once and links
 * each error code the first time only (what an agent reads in llms-full.txt; issue 34).
 */
function openapiNodes(
  page: Page,
  pages: Pages,
  doc: unknown,
  urls: SiteUrls,
  markdown: boolean,
): RootContent[] {
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
    apiUrl: urls.publicApiUrl,
    translate: openapiTranslator(page.locale),
    errorAnchors: pages[page.locale].get('errors')?.anchors ?? new Set(),
    repeatNamedBodies: !markdown,
    linkEveryError: !markdown,
  }).render();
}

function file(body: string, type: string): RenderedFile {
  return { body, type };
}

function renderErrorPages(pages: Pages, urls: SiteUrls, files: Map<string, RenderedFile>): void {
  for (const locale of LOCALES) {
    const strings = STRINGS[locale];
    const nav = navigation(pages, locale);
    const home = pagePath(locale, nav[0]?.slug ?? 'introduction');
    const render = (page: ErrorPage, title: string, text: string) => {
      files.set(
        SITE_FILES.error(locale, page, 'markdown'),
        file(
          `# ${title}\n\n${text}\n\n${strings.pageIndex} ${urls.publicDocsUrl}/llms.txt\n`,
          MARKDOWN_TYPE,
        ),
      );
      files.set(
        SITE_FILES.error(locale, page, 'html'),
        file(
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
            publicDocsUrl: urls.publicDocsUrl,
          }),
          HTML_TYPE,
        ),
      );
    };
    render('notFound', strings.notFoundTitle, strings.notFoundText);
    render('badRequest', strings.badRequestTitle, strings.badRequestText);
  }
}

/** The summary that opens llms.txt and /llms-full.txt. */
const SUMMARY =
  'Stockroom is a self-hosted public HTTP API for inventory data: an organization exposes its inventory items and organization summary to external integrations, authenticated with organization or user API keys.';

function llmsIndex(pages: Pages, urls: SiteUrls): string {
  const docs = urls.publicDocsUrl;
  const perLanguage = LOCALES.map(
    (locale) => `${docs}/${locale}/llms-full.txt (${STRINGS[locale].languageName})`,
  ).join(', ');
  const lines = [
    '# Stockroom',
    '',
    `> ${SUMMARY} This index lists every documentation page, in English and in Spanish, as Markdown.`,
    '',
    `Each page is Markdown at the address listed here (\`.md\` works as well as \`.mdx\`); the same address without the extension serves HTML, or Markdown when requested with \`Accept: text/markdown\`. Every page in one file, English then Spanish: ${docs}/llms-full.txt. One language's pages in one file: ${perLanguage}. The OpenAPI 3.1 document: ${docs}/openapi.json. The API itself: ${urls.publicApiUrl}/api/v1/.`,
  ];
  for (const locale of LOCALES) {
    lines.push('', `## ${STRINGS[locale].languageName}`, '');
    lines.push(
      `- [${STRINGS[locale].languageName}: ${STRINGS[locale].llmsEveryPage}](${docs}/${locale}/llms-full.txt): ${STRINGS[locale].llmsSummary}`,
    );
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
 * An llms-full file: `# Stockroom`, a one-paragraph summary, then each page's processed Markdown
 * (opening with its own `# Title`), a thematic break between them.
 */
function llmsFull(summary: string, pages: string[]): string {
  return [`# Stockroom\n\n> ${summary}\n`, ...pages].join('\n---\n\n');
}

/** A placeholder written in a page would be replaced in what is served: refused. */
function refusePlaceholders(pages: Pages): void {
  for (const locale of LOCALES) {
    for (const page of pages[locale].values()) {
      const source = JSON.stringify(page.tree);
      for (const placeholder of Object.values(PLACEHOLDERS)) {
        if (source.includes(placeholder)) {
          throw new DocsContentError(
            `${page.file}: holds ${placeholder}, which the build reserves`,
          );
        }
      }
    }
  }
}

/** Renders everything from pages already loaded. */
export function renderPages(
  pages: Pages,
  openapi: unknown,
  urls: SiteUrls = PLACEHOLDERS,
): RenderedSite {
  refusePlaceholders(pages);
  const files = new Map<string, RenderedFile>();
  const fullText: Record<Locale, string[]> = { en: [], es: [] };
  for (const locale of LOCALES) {
    const nav = navigation(pages, locale);
    const search: SearchEntry[] = [];
    for (const { slug } of nav) {
      const page = pages[locale].get(slug);
      if (!page) continue;
      const input = {
        title: page.title,
        description: page.description,
        tree: page.tree,
        path: pagePath(locale, slug),
        strings: STRINGS[locale],
        urls,
        ...(page.generated ? { openapi: openapiNodes(page, pages, openapi, urls, false) } : {}),
      };
      const md = renderMarkdown(
        page.generated
          ? { ...input, openapi: openapiNodes(page, pages, openapi, urls, true) }
          : input,
        urls.publicDocsUrl,
      );
      fullText[locale].push(md);
      search.push(...searchEntries(input));
      files.set(SITE_FILES.page(locale, slug, 'markdown'), file(md, MARKDOWN_TYPE));
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
        publicDocsUrl: urls.publicDocsUrl,
      });
      files.set(SITE_FILES.page(locale, slug, 'html'), file(document, HTML_TYPE));
    }
    files.set(SITE_FILES.searchIndex(locale), file(`${JSON.stringify(search)}\n`, JSON_TYPE));
    files.set(
      SITE_FILES.llmsFullOf(locale),
      file(llmsFull(STRINGS[locale].llmsSummary, fullText[locale]), TEXT_TYPE),
    );
  }
  files.set(SITE_FILES.llms, file(llmsIndex(pages, urls), TEXT_TYPE));
  files.set(
    SITE_FILES.llmsFull,
    file(
      llmsFull(
        `${SUMMARY} This file holds every page of the documentation as Markdown, in English and then in Spanish (one language: ${LOCALES.map((locale) => `${urls.publicDocsUrl}/${locale}/llms-full.txt`).join(', ')}).`,
        LOCALES.flatMap((locale) => fullText[locale]),
      ),
      TEXT_TYPE,
    ),
  );
  if (openapi !== undefined) {
    files.set(SITE_FILES.openapi, file(`${JSON.stringify(openapi, null, 2)}\n`, JSON_TYPE));
  }
  files.set(SITE_FILES.stylesheet, file(STYLESHEET, CSS_TYPE));
  renderErrorPages(pages, urls, files);
  return {
    slugs: Object.fromEntries(
      LOCALES.map((locale) => [locale, sortSlugs(pages[locale].keys())]),
    ) as Record<Locale, string[]>,
    files,
  };
}

/** Reads the pages of `docsDir` and renders them; rejects naming the file of an invalid page. */
export async function renderSite(input: SiteInput): Promise<RenderedSite> {
  return renderPages(await loadPages(input.docsDir), input.openapi, input.urls);
}
