import GithubSlugger from 'github-slugger';
import type { Element, ElementContent, RootContent as HastContent, Root as HastRoot } from 'hast';
import type { Parent, Root, RootContent } from 'mdast';
import { toString as mdastToString } from 'mdast-util-to-string';
import rehypeHighlight from 'rehype-highlight';
import rehypeSlug from 'rehype-slug';
import rehypeStringify from 'rehype-stringify';
import remarkGfm from 'remark-gfm';
import remarkRehype from 'remark-rehype';
import remarkStringify from 'remark-stringify';
import { unified } from 'unified';
import { PLACEHOLDERS } from '../built-site.js';
import type { Strings } from '../i18n.js';
import type { SiteUrls } from '../resources.js';
import { componentHandlers, componentToMarkdown } from './components.js';
import { isComment } from './mdx.js';

/** Turns a parsed page into its two representations: processed Markdown and an HTML fragment. */

export interface RenderInput {
  title: string;
  description: string;
  tree: Root;
  /** Where the page lives, e.g. `/en/docs/errors`: relative links are resolved against it. */
  path: string;
  strings: Strings;
  /** What `<OpenApiReference />` expands to (only the API reference page uses it). */
  openapi?: RootContent[];
  /** The public URLs the examples' code is written with; the placeholders by default. */
  urls?: SiteUrls;
}

export interface TocEntry {
  id: string;
  text: string;
}

type AnyParent = Parent & { children: RootContent[] };

/**
 * Rewrites every child list bottom-up: `fn` sees a node after its children were rewritten and
 * returns what replaces it (nothing, itself, or several nodes).
 */
function rewrite(parent: AnyParent, fn: (node: RootContent) => RootContent[]): void {
  parent.children = parent.children.flatMap((child) => {
    if ('children' in child && Array.isArray(child.children)) rewrite(child as AnyParent, fn);
    return fn(child);
  });
}

/**
 * The addresses the pages' examples are written with (a local server on its default ports), and
 * the public URL each becomes when served: the placeholders at build time, which the serving
 * process replaces with its own (bind-site.ts). Only in code blocks of the languages a reader
 * runs or copies into a client (shell, JavaScript, TypeScript, JSON); `text` (a program's
 * output), configuration files (`yaml`, `ini`) and prose keep what they say. The source pages,
 * which the examples test runs against a local server, are not changed.
 */
export const EXAMPLE_URLS: ReadonlyArray<readonly [string, keyof SiteUrls]> = [
  ['http://127.0.0.1:3000', 'publicApiUrl'],
  ['http://127.0.0.1:3001', 'publicDocsUrl'],
];
const LIVE_URL_LANGUAGES = new Set([
  'bash',
  'sh',
  'shell',
  'js',
  'javascript',
  'ts',
  'typescript',
  'json',
]);

/** A code block's text with the example addresses made the served ones. */
export function liveExample(
  lang: string | null | undefined,
  code: string,
  urls: SiteUrls = PLACEHOLDERS,
): string {
  if (!LIVE_URL_LANGUAGES.has(lang ?? '')) return code;
  // Not when a digit follows (":30001" would be another port).
  return EXAMPLE_URLS.reduce(
    (out, [from, to]) =>
      out.replace(new RegExp(`${from.replaceAll('.', '\\.')}(?![0-9])`, 'g'), () => urls[to]),
    code,
  );
}

/** A copy of the page tree without frontmatter, imports/exports and comments, components expanded. */
function prepare(input: RenderInput): Root {
  const tree = structuredClone(input.tree);
  rewrite(tree, (node) => {
    switch (node.type) {
      case 'code':
        node.value = liveExample(node.lang, node.value, input.urls);
        return [node];
      case 'yaml':
      case 'mdxjsEsm':
        return [];
      case 'mdxFlowExpression':
      case 'mdxTextExpression':
        return isComment(node.value) ? [] : [node];
      case 'mdxJsxFlowElement':
        return node.name === 'OpenApiReference' ? structuredClone(input.openapi ?? []) : [node];
      default:
        return [node];
    }
  });
  return tree;
}

const ORIGIN = 'http://docs.invalid';

/** A link that stays on the docs host, resolved to `/path?query#hash`; null for external links. */
export function resolveInternal(url: string, pagePath: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('//')) return null;
  const resolved = new URL(url, ORIGIN + pagePath);
  return resolved.pathname + resolved.search + resolved.hash;
}

function rewriteLinks(tree: Root, map: (url: string) => string): void {
  rewrite(tree, (node) => {
    if (node.type === 'link' || node.type === 'definition' || node.type === 'image') {
      node.url = map(node.url);
    }
    return [node];
  });
}

// Tables are written compactly (`|a|b|`, delimiter cells `-`): padding every cell to its
// column's widest made a quarter of llms-full.txt blank space, and the space either side of each
// pipe another 1.5% (issue 34); neither meant anything to a reader.
const markdownProcessor = unified()
  .use(remarkGfm, { tablePipeAlign: false, tableCellPadding: false })
  .use(remarkStringify, {
    bullet: '-',
    emphasis: '_',
    fence: '`',
    fences: true,
    listItemIndent: 'one',
    rule: '-',
    strong: '*',
  });

/**
 * Processed Markdown: `# Title`, `> description`, then the body with every component as plain
 * Markdown and every relative link absolute under `publicDocsUrl`. Code blocks keep their
 * content byte for byte (only the fence around them is normalised).
 */
export function renderMarkdown(input: RenderInput, publicDocsUrl: string): string {
  const tree = prepare(input);
  rewrite(tree, (node) =>
    node.type === 'mdxJsxFlowElement' ? componentToMarkdown(node, input.strings) : [node],
  );
  rewriteLinks(tree, (url) => {
    const internal = resolveInternal(url, input.path);
    return internal === null ? url : publicDocsUrl + internal;
  });
  const root: Root = {
    type: 'root',
    children: [
      { type: 'heading', depth: 1, children: [{ type: 'text', value: input.title }] },
      {
        type: 'blockquote',
        children: [{ type: 'paragraph', children: [{ type: 'text', value: input.description }] }],
      },
      ...tree.children,
    ],
  };
  return markdownProcessor.stringify(root);
}

function textOf(node: HastContent | HastRoot): string {
  if (node.type === 'text') return node.value;
  if ('children' in node) return node.children.map((child) => textOf(child)).join('');
  return '';
}

/** Section links on h2/h3, a scroll wrapper around tables, and the h2 outline for the sidebar. */
function decorate(tree: HastRoot, strings: Strings, toc: TocEntry[]): void {
  const visit = (parent: HastRoot | Element): void => {
    parent.children = parent.children.map((child): ElementContent => {
      if (child.type !== 'element') return child as ElementContent;
      if (
        (child.tagName === 'h2' || child.tagName === 'h3') &&
        typeof child.properties.id === 'string'
      ) {
        const id = child.properties.id;
        if (child.tagName === 'h2' && parent.type === 'root') toc.push({ id, text: textOf(child) });
        child.children.push({
          type: 'element',
          tagName: 'a',
          properties: { className: ['anchor'], href: `#${id}`, ariaLabel: strings.linkToSection },
          children: [{ type: 'text', value: '#' }],
        });
        return child;
      }
      if (child.tagName === 'table') {
        return {
          type: 'element',
          tagName: 'div',
          properties: { className: ['table-wrap'] },
          children: [child],
        };
      }
      visit(child);
      return child;
    });
  };
  visit(tree);
}

export interface HtmlFragment {
  html: string;
  toc: TocEntry[];
}

/** The page body as HTML (title and chrome are added by the layout). */
export function renderHtml(input: RenderInput): HtmlFragment {
  const tree = prepare(input);
  rewriteLinks(tree, (url) => {
    if (url.startsWith('#')) return url;
    return resolveInternal(url, input.path) ?? url;
  });
  const toc: TocEntry[] = [];
  const processor = unified()
    .use(remarkRehype, { handlers: { mdxJsxFlowElement: componentHandlers(input.strings) } })
    .use(rehypeSlug)
    .use(rehypeHighlight, { detect: false, plainText: ['text', 'csv'] })
    .use(() => (hast: HastRoot) => decorate(hast, input.strings, toc))
    .use(rehypeStringify);
  const hast = processor.runSync(tree);
  return { html: processor.stringify(hast), toc };
}

/** One entry of a locale's search index: a page's lead, or one of its `##` sections. */
export interface SearchEntry {
  /** The page title. */
  t: string;
  /** The section heading; empty for what comes before the first. */
  h: string;
  /** Address: the page, with `#id` for a section. */
  u: string;
  /** The section's words (prose, tables, inline code; not code blocks), one space apart. */
  x: string;
}

/**
 * A page cut into sections for the search index. Ids are the HTML's: the same slugger over the
 * same headings in the same order as rehype-slug.
 */
export function searchEntries(input: RenderInput): SearchEntry[] {
  const tree = prepare(input);
  rewrite(tree, (node) =>
    node.type === 'mdxJsxFlowElement' ? componentToMarkdown(node, input.strings) : [node],
  );
  const slugger = new GithubSlugger();
  const entries: SearchEntry[] = [{ t: input.title, h: '', u: input.path, x: input.description }];
  const words = (node: RootContent): string => {
    if (node.type === 'code') return '';
    if (node.type === 'heading') {
      slugger.slug(mdastToString(node));
      return mdastToString(node);
    }
    if ('children' in node && Array.isArray(node.children)) {
      return (node.children as RootContent[]).map(words).join(' ');
    }
    return mdastToString(node);
  };
  for (const node of tree.children) {
    if (node.type === 'heading' && node.depth === 2) {
      const text = mdastToString(node);
      entries.push({ t: input.title, h: text, u: `${input.path}#${slugger.slug(text)}`, x: '' });
      continue;
    }
    const entry = entries.at(-1) as SearchEntry;
    entry.x = `${entry.x} ${words(node)}`;
  }
  for (const entry of entries) entry.x = entry.x.replace(/\s+/g, ' ').trim();
  return entries;
}
