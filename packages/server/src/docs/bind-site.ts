import { PLACEHOLDERS, type RenderedFile, type RenderedSite, SITE_FILES } from './built-site.js';
import { escapeHtml } from './html.js';
import { LOCALES, type Locale } from './i18n.js';
import {
  type ErrorPage,
  HTML_TYPE,
  pageKey,
  type Resource,
  resource,
  type Site,
  type SiteUrls,
} from './resources.js';

/**
 * A built site made ready to serve: the public URLs of this process put in place of the
 * placeholders, each the way the renderer would have written it there, and every ETag
 * computed from the final bytes. Done once per process, in a few milliseconds.
 *
 * Where the renderer puts each URL: in HTML, the docs URL in the canonical link (an attribute
 * escaped by the layout, always right after `href="`) and both URLs in text (the examples' code,
 * the API reference's `<code>`: text escaped by rehype-stringify); in JSON, inside a string; in
 * Markdown and plain text, as is (tables are not padded, so nothing needs realigning). A URL with
 * characters that Markdown escapes in a link (parentheses, spaces, angle brackets, backslashes)
 * would show them unescaped there.
 */

/** rehype-stringify's escaping of text: the two characters that could start markup. */
function escapeHtmlText(value: string): string {
  return value.replace(/&/g, '&#x26;').replace(/</g, '&#x3C;');
}

function bind(file: RenderedFile, urls: SiteUrls): Resource {
  const { publicDocsUrl: docs, publicApiUrl: api } = PLACEHOLDERS;
  if (file.type === HTML_TYPE) {
    return resource(
      file.body
        .replaceAll(`href="${docs}`, `href="${escapeHtml(urls.publicDocsUrl)}`)
        .replaceAll(docs, escapeHtmlText(urls.publicDocsUrl))
        .replaceAll(api, escapeHtmlText(urls.publicApiUrl)),
      file.type,
    );
  }
  if (file.type.startsWith('application/json')) {
    const inString = (value: string) => JSON.stringify(value).slice(1, -1);
    return resource(
      file.body
        .replaceAll(docs, inString(urls.publicDocsUrl))
        .replaceAll(api, inString(urls.publicApiUrl)),
      file.type,
    );
  }
  return resource(
    file.body.replaceAll(docs, urls.publicDocsUrl).replaceAll(api, urls.publicApiUrl),
    file.type,
  );
}

function perLocale(make: (locale: Locale) => Resource): Record<Locale, Resource> {
  return Object.fromEntries(LOCALES.map((locale) => [locale, make(locale)])) as Record<
    Locale,
    Resource
  >;
}

export function bindSite(site: RenderedSite, urls: SiteUrls): Site {
  const take = (name: string): Resource => {
    const file = site.files.get(name);
    if (!file) throw new Error(`the built docs site has no ${name}; run \`npm run build\``);
    return bind(file, urls);
  };
  const markdown = new Map<string, Resource>();
  const html = new Map<string, Resource>();
  for (const locale of LOCALES) {
    for (const slug of site.slugs[locale]) {
      markdown.set(pageKey(locale, slug), take(SITE_FILES.page(locale, slug, 'markdown')));
      html.set(pageKey(locale, slug), take(SITE_FILES.page(locale, slug, 'html')));
    }
  }
  const errors = {} as Site['errors'];
  for (const locale of LOCALES) {
    const page = (name: ErrorPage) => ({
      html: take(SITE_FILES.error(locale, name, 'html')),
      markdown: take(SITE_FILES.error(locale, name, 'markdown')),
    });
    errors[locale] = { notFound: page('notFound'), badRequest: page('badRequest') };
  }
  return {
    slugs: Object.fromEntries(
      LOCALES.map((locale) => [locale, new Set(site.slugs[locale])]),
    ) as Record<Locale, Set<string>>,
    markdown,
    html,
    llms: take(SITE_FILES.llms),
    llmsFull: take(SITE_FILES.llmsFull),
    llmsFullOf: perLocale((locale) => take(SITE_FILES.llmsFullOf(locale))),
    searchIndex: perLocale((locale) => take(SITE_FILES.searchIndex(locale))),
    openapi: site.files.has(SITE_FILES.openapi) ? take(SITE_FILES.openapi) : null,
    stylesheet: take(SITE_FILES.stylesheet),
    errors,
  };
}
