import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import GithubSlugger from 'github-slugger';
import type { Root } from 'mdast';
import { toString as mdastToString } from 'mdast-util-to-string';
import { visit } from 'unist-util-visit';
import { LOCALES, type Locale } from '../i18n.js';
import { DocsContentError, parseMdx } from './mdx.js';
import { resolveInternal } from './render.js';

/** Loading the pages of `docs/{locale}/*.mdx`, and the checks that span pages. */

export interface Page {
  locale: Locale;
  slug: string;
  /** Path of the source file, for error messages. */
  file: string;
  title: string;
  description: string;
  tree: Root;
  /** Ids of the headings, as rehype-slug will give them in HTML. */
  anchors: Set<string>;
  /** True when part of the page is generated from the OpenAPI document. */
  generated: boolean;
}

export type Pages = Record<Locale, Map<string, Page>>;

/**
 * The sidebar: its sections, in order, each listing its pages in order. This is the one place a
 * page is placed in the navigation: a new page takes one line here (its slug, in the section it
 * belongs to). Section titles are per locale (i18n.ts `sections`). A page missing here still
 * works, and is listed after these in a last section ("More"), by slug.
 */
export const NAV_SECTIONS = [
  {
    id: 'get-started',
    pages: [
      'introduction',
      'quickstart',
      'authentication',
      'keys-and-limits',
      'key-views',
      'errors',
    ],
  },
  {
    id: 'api',
    pages: ['organization', 'inventory-items', 'inventory-item', 'locations', 'api-reference'],
  },
  { id: 'guides', pages: ['client-library', 'mcp', 'webhooks'] },
  { id: 'operate', pages: ['self-hosting', 'admin-api'] },
] as const satisfies ReadonlyArray<{ id: string; pages: readonly string[] }>;

export type SectionId = (typeof NAV_SECTIONS)[number]['id'] | 'more';

/** Navigation order: every page of NAV_SECTIONS, section by section. */
export const PAGE_ORDER: string[] = NAV_SECTIONS.flatMap((section) => [...section.pages]);

/** The section a page is listed in. */
export function sectionOf(slug: string): SectionId {
  return (
    NAV_SECTIONS.find((section) => (section.pages as readonly string[]).includes(slug))?.id ??
    'more'
  );
}

/** Paths on the docs host that are not pages but may be linked to. */
const OTHER_TARGETS = new Set([
  '/',
  '/llms.txt',
  '/llms-full.txt',
  '/en/llms-full.txt',
  '/es/llms-full.txt',
  '/openapi.json',
]);
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const PAGE_PATH = /^\/([a-z]{2})\/docs\/([^/]+?)(\.mdx?)?$/;

function headingAnchors(tree: Root): Set<string> {
  // Same algorithm and order as rehype-slug, so a link checked here lands on the HTML id.
  const slugger = new GithubSlugger();
  const anchors = new Set<string>();
  visit(tree, 'heading', (heading) => {
    anchors.add(slugger.slug(mdastToString(heading)));
  });
  return anchors;
}

function hasOpenApi(tree: Root): boolean {
  let found = false;
  visit(tree, 'mdxJsxFlowElement', (node) => {
    if (node.name === 'OpenApiReference') found = true;
  });
  return found;
}

export function sortSlugs(slugs: Iterable<string>): string[] {
  const rank = (slug: string) => {
    const index = PAGE_ORDER.indexOf(slug);
    return index === -1 ? PAGE_ORDER.length : index;
  };
  return [...slugs].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

async function loadLocale(docsDir: string, locale: Locale): Promise<Map<string, Page>> {
  const dir = path.join(docsDir, locale);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    throw new DocsContentError(
      `${dir}: cannot read the ${locale} docs folder (${(error as Error).message})`,
    );
  }
  const pages = new Map<string, Page>();
  for (const name of names.filter((n) => n.endsWith('.mdx')).sort()) {
    const file = path.join(dir, name);
    const slug = name.slice(0, -'.mdx'.length);
    if (!SLUG.test(slug)) {
      throw new DocsContentError(`${file}: page names must be lower-case words joined by "-"`);
    }
    const parsed = parseMdx(await readFile(file, 'utf8'), file);
    pages.set(slug, {
      locale,
      slug,
      file,
      ...parsed,
      anchors: headingAnchors(parsed.tree),
      generated: hasOpenApi(parsed.tree),
    });
  }
  if (pages.size === 0) throw new DocsContentError(`${dir}: no .mdx pages`);
  return pages;
}

/** Every locale must have exactly the same pages: the language switch relies on it. */
function checkTwins(pages: Pages): void {
  const [first, ...others] = LOCALES;
  for (const locale of others) {
    for (const [a, b] of [
      [first, locale],
      [locale, first],
    ] as const) {
      for (const page of pages[a].values()) {
        if (!pages[b].has(page.slug)) {
          throw new DocsContentError(`${page.file}: has no ${b} twin (docs/${b}/${page.slug}.mdx)`);
        }
      }
    }
  }
}

/** Every link that stays on the docs host must land on a page (and heading) of its own locale. */
export function checkLinks(pages: Pages): void {
  for (const locale of LOCALES) {
    for (const page of pages[locale].values()) {
      const pagePath = `/${locale}/docs/${page.slug}`;
      visit(page.tree, (node) => {
        if (node.type !== 'link' && node.type !== 'definition') return;
        const target = resolveInternal(node.url, pagePath);
        if (target === null) return;
        const at = `${page.file}:${node.position?.start.line ?? 0}`;
        const url = new URL(target, 'http://docs.invalid');
        if (OTHER_TARGETS.has(url.pathname)) return;
        const match = PAGE_PATH.exec(url.pathname);
        const linked = match ? pages[match[1] as Locale]?.get(match[2] ?? '') : undefined;
        if (!match || !linked)
          throw new DocsContentError(`${at}: link "${node.url}" goes to no page`);
        if (linked.locale !== locale) {
          throw new DocsContentError(`${at}: link "${node.url}" leaves the ${locale} docs`);
        }
        const anchor = decodeURIComponent(url.hash.slice(1));
        if (anchor && !linked.anchors.has(anchor) && !linked.generated) {
          throw new DocsContentError(
            `${at}: link "${node.url}" names no heading of ${linked.slug}`,
          );
        }
      });
    }
  }
}

/** Reads, parses and cross-checks every page; rejects with a message naming the file at fault. */
export async function loadPages(docsDir: string): Promise<Pages> {
  const pages = {} as Pages;
  for (const locale of LOCALES) pages[locale] = await loadLocale(docsDir, locale);
  checkTwins(pages);
  checkLinks(pages);
  return pages;
}
