import { escapeHtml } from '../html.js';
import { LOCALES, type Locale, STRINGS } from '../i18n.js';
import { PAGE_SCRIPT, searchIndexPath } from '../page-script.js';
import { pagePath } from '../resources.js';
import type { SectionId } from './content.js';
import type { TocEntry } from './render.js';

/** The HTML document around a page: head links, navigation, language switch, outline. */

export const STYLESHEET_PATH = '/assets/docs.css';

export interface NavEntry {
  slug: string;
  title: string;
  /** The sidebar section it is listed in (content.ts NAV_SECTIONS). */
  section: SectionId;
}

export interface LayoutInput {
  locale: Locale;
  /** Null for pages that are not documentation pages (the 404 page). */
  slug: string | null;
  title: string;
  description: string;
  body: string;
  toc: TocEntry[];
  nav: NavEntry[];
  /** Slugs that exist in each locale, so the language switch only links to real pages. */
  twins: Record<Locale, boolean>;
  publicDocsUrl: string;
}

export function renderLayout(input: LayoutInput): string {
  const strings = STRINGS[input.locale];
  const e = escapeHtml;
  const head: string[] = [
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${e(input.title)} · ${e(strings.siteName)} ${e(strings.docs)}</title>`,
    `<meta name="description" content="${e(input.description)}">`,
    '<meta name="color-scheme" content="light dark">',
    // An empty data: icon spares the browser a request for /favicon.ico that would only 404.
    '<link rel="icon" href="data:,">',
    `<link rel="stylesheet" href="${STYLESHEET_PATH}">`,
  ];
  const switcher: string[] = [];
  if (input.slug !== null) {
    const path = pagePath(input.locale, input.slug);
    head.push(`<link rel="canonical" href="${e(input.publicDocsUrl + path)}">`);
    head.push(`<link rel="alternate" type="text/markdown" href="${e(`${path}.mdx`)}">`);
    for (const locale of LOCALES) {
      if (!input.twins[locale]) continue;
      const twin = pagePath(locale, input.slug);
      head.push(`<link rel="alternate" hreflang="${locale}" href="${e(twin)}">`);
    }
  }
  for (const locale of LOCALES) {
    const name = e(STRINGS[locale].languageName);
    if (locale === input.locale) {
      switcher.push(`<span aria-current="true" lang="${locale}">${name}</span>`);
    } else {
      const target =
        input.slug !== null && input.twins[locale]
          ? input.slug
          : (input.nav[0]?.slug ?? 'introduction');
      switcher.push(
        `<a lang="${locale}" hreflang="${locale}" rel="alternate" href="${e(pagePath(locale, target))}">${name}</a>`,
      );
    }
  }
  const sections: Array<{ id: SectionId; entries: NavEntry[] }> = [];
  for (const entry of input.nav) {
    const last = sections.at(-1);
    if (last?.id === entry.section) last.entries.push(entry);
    else sections.push({ id: entry.section, entries: [entry] });
  }
  const nav = sections
    .map(({ id, entries }) => {
      const items = entries
        .map((entry) => {
          const current = entry.slug === input.slug ? ' aria-current="page"' : '';
          return `<li><a href="${e(pagePath(input.locale, entry.slug))}"${current}>${e(entry.title)}</a></li>`;
        })
        .join('');
      const heading = `nav-${id}`;
      return `<section aria-labelledby="${heading}"><h2 id="${heading}">${e(strings.sections[id])}</h2><ul>${items}</ul></section>`;
    })
    .join('');
  const position = input.nav.findIndex((entry) => entry.slug === input.slug);
  const pager = (entry: NavEntry | undefined, rel: 'prev' | 'next') => {
    if (position === -1 || entry === undefined) return '';
    const label = rel === 'prev' ? strings.previous : strings.next;
    return `<a class="${rel}" rel="${rel}" href="${e(pagePath(input.locale, entry.slug))}"><span>${e(label)}</span>${e(entry.title)}</a>`;
  };
  const prevNext =
    position === -1
      ? ''
      : `<nav class="pager" aria-label="${e(strings.pageNavigation)}">${pager(input.nav[position - 1], 'prev')}${pager(input.nav[position + 1], 'next')}</nav>`;
  const search = `<div class="search" id="search" role="search" hidden data-index="${e(searchIndexPath(input.locale))}"><label for="search-input" class="visually-hidden">${e(strings.search.label)}</label><input id="search-input" type="search" autocomplete="off" spellcheck="false" placeholder="${e(strings.search.placeholder)}" aria-describedby="search-status" aria-controls="search-results"><p id="search-status" role="status"></p><ul id="search-results" aria-label="${e(strings.search.results)}"></ul></div>`;
  const data = [
    ['copy', strings.copy.label],
    ['copied', strings.copy.done],
    ['copy-failed', strings.copy.failed],
    ['no-results', strings.search.noResults],
  ]
    .map(([name, value]) => ` data-${name}="${e(value ?? '')}"`)
    .join('');
  const toc =
    input.toc.length > 1
      ? `<aside class="toc" aria-labelledby="toc-title"><p id="toc-title">${e(strings.onThisPage)}</p><ul>${input.toc
          .map((entry) => `<li><a href="#${e(entry.id)}">${e(entry.text)}</a></li>`)
          .join('')}</ul></aside>`
      : '';
  const markdownLink =
    input.slug !== null
      ? `<a href="${e(`${pagePath(input.locale, input.slug)}.mdx`)}" type="text/markdown">${e(strings.viewMarkdown)}</a> · `
      : '';
  const home = pagePath(input.locale, input.nav[0]?.slug ?? 'introduction');

  return `<!doctype html>
<html lang="${input.locale}">
<head>
${head.join('\n')}
</head>
<body${data}>
<a class="skip" href="#content">${e(strings.skipToContent)}</a>
<header class="topbar">
<a class="brand" href="${e(home)}">${e(strings.siteName)} <span>${e(strings.docs)}</span></a>
${search}
<nav class="lang" aria-label="${e(strings.languageSwitch)}">${switcher.join('')}</nav>
</header>
<div class="layout">
<nav class="sidebar" aria-label="${e(strings.pages)}">${nav}</nav>
<main id="content">
<article>
<h1>${e(input.title)}</h1>
<p class="lead">${e(input.description)}</p>
${input.body}
</article>
${prevNext}
<footer class="page-footer">${markdownLink}<a href="/llms.txt">llms.txt</a> · <a href="/openapi.json">OpenAPI</a></footer>
</main>
${toc}
</div>
<script>${PAGE_SCRIPT}</script>
</body>
</html>
`;
}
