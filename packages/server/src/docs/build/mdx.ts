import type { Root } from 'mdast';
import type { MdxJsxAttribute, MdxJsxExpressionAttribute, MdxJsxFlowElement } from 'mdast-util-mdx';
import remarkFrontmatter from 'remark-frontmatter';
import remarkGfm from 'remark-gfm';
import remarkMdx from 'remark-mdx';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { visit } from 'unist-util-visit';
import { parse as parseYaml } from 'yaml';
import { CALLOUT_TYPES, COMPONENT_NAMES, isComponentName } from './components.js';

/**
 * MDX parsing and validation. Everything a page can get wrong is caught here, at start, so a
 * broken page stops the docs host (and CI) instead of rendering half a page to a reader.
 */

export class DocsContentError extends Error {
  override name = 'DocsContentError';
}

export interface ParsedPage {
  title: string;
  description: string;
  /** The MDX syntax tree, frontmatter included. Treat as read-only: renderers clone it. */
  tree: Root;
}

/** Fence languages the highlighter knows; `text` and `csv` are shown unhighlighted. */
export const CODE_LANGUAGES = [
  'bash',
  'sh',
  'shell',
  'json',
  'js',
  'javascript',
  'ts',
  'typescript',
  'yaml',
  'ini',
  'text',
  'csv',
] as const;

const FRONTMATTER_KEYS = ['title', 'description'];

const parser = unified()
  .use(remarkParse)
  .use(remarkMdx)
  .use(remarkFrontmatter, ['yaml'])
  .use(remarkGfm);

/** Anything with a source position: nodes and JSX attributes alike. */
interface Located {
  position?: { start: { line: number; column: number } } | undefined;
}

function where(file: string, node: Located | undefined): string {
  const start = node?.position?.start;
  return start ? `${file}:${start.line}:${start.column}` : file;
}

function fail(file: string, node: Located | undefined, message: string): never {
  throw new DocsContentError(`${where(file, node)}: ${message}`);
}

/** String-literal attributes of a component; expressions and spreads are refused. */
export function attributes(
  node: { attributes: Array<MdxJsxAttribute | MdxJsxExpressionAttribute>; name: string | null },
  file: string,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const attribute of node.attributes) {
    if (attribute.type !== 'mdxJsxAttribute' || typeof attribute.value !== 'string') {
      fail(file, attribute, `<${node.name}> attributes must be plain strings (name="value")`);
    }
    out[attribute.name] = attribute.value;
  }
  return out;
}

function only(
  file: string,
  node: MdxJsxFlowElement,
  attrs: Record<string, string>,
  allowed: string[],
): void {
  for (const name of Object.keys(attrs)) {
    if (!allowed.includes(name)) {
      const list = allowed.length > 0 ? allowed.join(', ') : 'none';
      fail(file, node, `<${node.name}> has no attribute "${name}" (allowed: ${list})`);
    }
  }
}

function validateComponent(file: string, node: MdxJsxFlowElement, parentName: string | null): void {
  const name = node.name ?? '';
  if (!isComponentName(name)) {
    fail(file, node, `unknown component <${name || '>'}> (allowed: ${COMPONENT_NAMES.join(', ')})`);
  }
  const attrs = attributes(node, file);
  switch (name) {
    case 'Callout': {
      only(file, node, attrs, ['type']);
      const type = attrs.type ?? 'note';
      if (!(CALLOUT_TYPES as readonly string[]).includes(type)) {
        fail(file, node, `<Callout type="${type}"> must be one of ${CALLOUT_TYPES.join(', ')}`);
      }
      return;
    }
    case 'Tabs': {
      only(file, node, attrs, []);
      const tabs = node.children.filter(
        (child) => !(child.type === 'mdxFlowExpression' && isComment(child.value)),
      );
      if (tabs.length === 0) fail(file, node, '<Tabs> needs at least one <Tab>');
      for (const child of tabs) {
        if (child.type !== 'mdxJsxFlowElement' || child.name !== 'Tab') {
          fail(file, child, '<Tabs> may only contain <Tab label="…"> elements');
        }
      }
      return;
    }
    case 'Tab': {
      only(file, node, attrs, ['label']);
      if (parentName !== 'Tabs') fail(file, node, '<Tab> must be a direct child of <Tabs>');
      if (!attrs.label?.trim()) fail(file, node, '<Tab> needs a non-empty label="…"');
      return;
    }
    case 'OpenApiReference': {
      only(file, node, attrs, []);
      if (node.children.length > 0) fail(file, node, '<OpenApiReference /> takes no children');
      return;
    }
  }
}

/** MDX comments (`{/* … *\/}`) are the only expressions a page may hold: pages are static. */
export function isComment(expression: string): boolean {
  const trimmed = expression.trim();
  return trimmed.startsWith('/*') && trimmed.endsWith('*/') && !trimmed.slice(2, -2).includes('*/');
}

function readFrontmatter(tree: Root, file: string): { title: string; description: string } {
  const first = tree.children[0];
  if (first?.type !== 'yaml')
    fail(file, undefined, 'missing frontmatter (--- title, description ---)');
  let data: unknown;
  try {
    data = parseYaml(first.value);
  } catch (error) {
    fail(file, first, `frontmatter is not valid YAML: ${(error as Error).message}`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    fail(file, first, 'frontmatter must be a mapping with title and description');
  }
  const record = data as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (!FRONTMATTER_KEYS.includes(key)) {
      fail(
        file,
        first,
        `unknown frontmatter key "${key}" (allowed: ${FRONTMATTER_KEYS.join(', ')})`,
      );
    }
  }
  const { title, description } = record;
  if (typeof title !== 'string' || title.trim() === '') {
    fail(file, first, 'frontmatter needs a non-empty string "title"');
  }
  if (typeof description !== 'string' || description.trim() === '') {
    fail(file, first, 'frontmatter needs a non-empty string "description"');
  }
  if (/[\r\n]/.test(title) || /[\r\n]/.test(description)) {
    fail(file, first, 'title and description must each fit on one line');
  }
  return { title: title.trim(), description: description.trim() };
}

/** Parses and validates one page; `file` names it in every error. */
export function parseMdx(source: string, file: string): ParsedPage {
  let tree: Root;
  try {
    tree = parser.parse(source);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const place = (error as { place?: { line?: number; column?: number } }).place;
    const at = place?.line ? `${file}:${place.line}:${place.column ?? 1}` : file;
    throw new DocsContentError(`${at}: invalid MDX: ${message}`);
  }
  const { title, description } = readFrontmatter(tree, file);

  visit(tree, (node, _index, parent) => {
    switch (node.type) {
      case 'heading':
        if (node.depth === 1)
          fail(file, node, 'the page title comes from frontmatter; start sections at ##');
        return;
      case 'code':
        if (!node.lang)
          fail(file, node, `code blocks need a language (one of ${CODE_LANGUAGES.join(', ')})`);
        if (!(CODE_LANGUAGES as readonly string[]).includes(node.lang)) {
          fail(
            file,
            node,
            `unknown code language "${node.lang}" (one of ${CODE_LANGUAGES.join(', ')})`,
          );
        }
        return;
      case 'mdxFlowExpression':
      case 'mdxTextExpression':
        if (!isComment(node.value))
          fail(file, node, 'pages are static: only {/* comments */} are allowed');
        return;
      case 'mdxJsxTextElement':
        fail(
          file,
          node,
          `<${node.name ?? ''}> must stand on its own lines (block), not inside text`,
        );
        return;
      case 'mdxJsxFlowElement': {
        const parentName = parent?.type === 'mdxJsxFlowElement' ? parent.name : null;
        validateComponent(file, node, parentName);
        return;
      }
      case 'html':
        fail(file, node, 'raw HTML is not allowed; use Markdown or a component');
        return;
      default:
        return;
    }
  });

  return { title, description, tree };
}
