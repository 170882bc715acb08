import { createHash } from 'node:crypto';
import type { Locale } from './i18n.js';

/**
 * Every response body of the docs host, kept in memory with its ETag: what a serving process
 * holds of the docs. They are rendered at build time (build/) and read from files at start
 * (built-site.ts, bind-site.ts).
 */

export interface Resource {
  body: Buffer;
  type: string;
  /** Strong validator: a hash of the exact bytes. */
  etag: string;
}

/** The addresses only known at run time, as the host's answers show them (no trailing slash). */
export interface SiteUrls {
  publicDocsUrl: string;
  publicApiUrl: string;
}

/** The docs host's own error pages: an unknown page, and an address that is not a valid URL. */
export type ErrorPage = 'notFound' | 'badRequest';

export interface Site {
  /** The page names of each locale. */
  slugs: Record<Locale, ReadonlySet<string>>;
  /** `${locale}/${slug}` → representation. */
  markdown: Map<string, Resource>;
  html: Map<string, Resource>;
  llms: Resource;
  /** Both languages. */
  llmsFull: Resource;
  /** One language each. */
  llmsFullOf: Record<Locale, Resource>;
  /** The page script's search index of each language. */
  searchIndex: Record<Locale, Resource>;
  /** Null when the site was rendered without the API's OpenAPI document. */
  openapi: Resource | null;
  stylesheet: Resource;
  /** Per locale, each error page in both representations. */
  errors: Record<Locale, Record<ErrorPage, { html: Resource; markdown: Resource }>>;
}

export const MARKDOWN_TYPE = 'text/markdown; charset=utf-8';
export const HTML_TYPE = 'text/html; charset=utf-8';
export const TEXT_TYPE = 'text/plain; charset=utf-8';
export const JSON_TYPE = 'application/json; charset=utf-8';
export const CSS_TYPE = 'text/css; charset=utf-8';

export function resource(body: string, type: string): Resource {
  const bytes = Buffer.from(body, 'utf8');
  const hash = createHash('sha256').update(bytes).digest('base64url').slice(0, 32);
  return { body: bytes, type, etag: `"${hash}"` };
}

export function pageKey(locale: Locale, slug: string): string {
  return `${locale}/${slug}`;
}

/** Where a page lives on the docs host, e.g. `/en/docs/errors`. */
export function pagePath(locale: Locale, slug: string): string {
  return `/${locale}/docs/${slug}`;
}

/** Every resource of a site, each once. */
export function* siteResources(site: Site): Generator<Resource> {
  yield* site.markdown.values();
  yield* site.html.values();
  yield site.llms;
  yield site.llmsFull;
  yield* Object.values(site.llmsFullOf);
  yield* Object.values(site.searchIndex);
  if (site.openapi) yield site.openapi;
  yield site.stylesheet;
  for (const pages of Object.values(site.errors)) {
    for (const { html, markdown } of Object.values(pages)) {
      yield html;
      yield markdown;
    }
  }
}
