import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LOCALES, type Locale } from './i18n.js';
import type { ErrorPage, SiteUrls } from './resources.js';

/**
 * The docs site as the build writes it (build/main.ts) and a serving process reads it: one file
 * per answer, named after the address that serves it, and a manifest (`site.json`) holding each
 * file's media type, the page names of each locale and a fingerprint of what the site was built
 * from. The addresses only known at run time are written as PLACEHOLDERS, which bind-site.ts
 * replaces once per process.
 */

/** `packages/server/dist/site`, whether this module runs from src/ (tests) or from dist/. */
export const SITE_DIR = fileURLToPath(new URL('../../dist/site', import.meta.url));
export const MANIFEST_FILE = 'site.json';
/** Bumped when the layout of the files changes: a server never reads another layout. */
export const SITE_FORMAT = 2;

/**
 * Stand-ins for the public URLs. Absolute URLs like the real ones, so every renderer treats them
 * alike, under the reserved `.invalid` domain, so they cannot occur in a page by chance (the
 * build refuses a page that holds one).
 */
export const PLACEHOLDERS: SiteUrls = {
  publicDocsUrl: 'https://public-docs-url.stockroom.invalid',
  publicApiUrl: 'https://public-api-url.stockroom.invalid',
};

export interface RenderedFile {
  type: string;
  body: string;
}

/** The whole site as rendered: every answer's file, with placeholders for the public URLs. */
export interface RenderedSite {
  slugs: Record<Locale, string[]>;
  /** File name (SITE_FILES) → content. */
  files: Map<string, RenderedFile>;
}

export interface SiteManifest {
  format: number;
  /** Of the build's inputs: an unchanged fingerprint means the files are current. */
  fingerprint: string;
  slugs: Record<Locale, string[]>;
  /** File name → media type. */
  files: Record<string, string>;
}

type Representation = 'html' | 'markdown';
const EXTENSION: Record<Representation, string> = { html: 'html', markdown: 'md' };
const ERROR_NAME: Record<ErrorPage, string> = { notFound: 'not-found', badRequest: 'bad-request' };

/** The file of each answer. */
export const SITE_FILES = {
  page: (locale: Locale, slug: string, representation: Representation) =>
    `${locale}/docs/${slug}.${EXTENSION[representation]}`,
  error: (locale: Locale, page: ErrorPage, representation: Representation) =>
    `errors/${locale}/${ERROR_NAME[page]}.${EXTENSION[representation]}`,
  llms: 'llms.txt',
  llmsFull: 'llms-full.txt',
  /** One language's pages. */
  llmsFullOf: (locale: Locale) => `${locale}/llms-full.txt`,
  /** The search index of the page script (page-script.ts). */
  searchIndex: (locale: Locale) => `${locale}/search-index.json`,
  openapi: 'openapi.json',
  stylesheet: 'assets/docs.css',
} as const;

export class SiteNotBuiltError extends Error {
  override name = 'SiteNotBuiltError';
}

export async function readManifest(dir: string): Promise<SiteManifest> {
  const file = path.join(dir, MANIFEST_FILE);
  let manifest: SiteManifest;
  try {
    manifest = JSON.parse(await readFile(file, 'utf8')) as SiteManifest;
  } catch (error) {
    throw new SiteNotBuiltError(
      `the docs site is not built (${file}: ${(error as Error).message}); run \`npm run build\` in the repository`,
    );
  }
  if (manifest.format !== SITE_FORMAT || !LOCALES.every((l) => Array.isArray(manifest.slugs[l]))) {
    throw new SiteNotBuiltError(
      `${file} was written by another version of the docs build; run \`npm run build\` in the repository`,
    );
  }
  return manifest;
}

/** Reads a built site: the manifest, then every file it lists. */
export async function readSite(dir: string = SITE_DIR): Promise<RenderedSite> {
  const manifest = await readManifest(dir);
  const entries = await Promise.all(
    Object.entries(manifest.files).map(
      async ([name, type]) =>
        [name, { type, body: await readFile(path.join(dir, name), 'utf8') }] as const,
    ),
  );
  return { slugs: manifest.slugs, files: new Map(entries) };
}

let built: Promise<RenderedSite> | undefined;

/** The site of this package's build, read once per process. */
export function builtSite(): Promise<RenderedSite> {
  built ??= readSite(SITE_DIR);
  return built;
}
