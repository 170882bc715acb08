import type { Root } from 'mdast';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { visit } from 'unist-util-visit';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { LOCALES } from '../i18n.js';
import { fixtureDocs, page, REPO_DOCS_DIR, type RunningDocs, startDocs } from '../testing.js';
import { loadPages } from './content.js';
import { liveExample } from './render.js';

/** The processed Markdown rules of the docs issue, checked over HTTP. */

const F = '```';
// A code line that Markdown escaping would love to touch: backticks, emphasis, a tab and
// trailing spaces. It must come out exactly as it went in.
const TRICKY = 'const weird = `a *b* _c_ \\`d\\``;   // trailing spaces and a tab\there  ';
const CURL =
  'curl -H "x-api-key: $KEY" "http://127.0.0.1:3000/api/v1/inventory/items?limit=2&fields=_id,name"\n# → 200';
/** As served: the example's address is the API URL of the server (startDocs: api.example.test). */
const LIVE_CURL =
  'curl -H "x-api-key: $KEY" "https://api.example.test/api/v1/inventory/items?limit=2&fields=_id,name"\n# → 200';

const SOURCE = `---
title: Rules
description: Every rule of processed Markdown on one page.
---

import { Something } from '../somewhere.js'

export const meta = { draft: false }

Text with a [relative link](./other), one [to a section](other#details), one
[to this page](#tabs), a [root-relative one](/llms.txt) and an
[external one](https://example.com/a?b=c#d).

{/* A comment the reader never sees. */}

<Callout type="warning">
Keys are **secret**.

Keep them safe.
</Callout>

<Callout>
${F}bash
echo first
${F}
</Callout>

## Tabs

<Tabs>
<Tab label="curl">

${F}bash
${CURL}
${F}

</Tab>
<Tab label="JavaScript">

${F}ts
${TRICKY}
${F}

</Tab>
</Tabs>
`;

const EXPECTED = `# Rules

> Every rule of processed Markdown on one page.

Text with a [relative link](https://docs.example.test/en/docs/other), one [to a section](https://docs.example.test/en/docs/other#details), one
[to this page](https://docs.example.test/en/docs/rules#tabs), a [root-relative one](https://docs.example.test/llms.txt) and an
[external one](https://example.com/a?b=c#d).

> **Warning:** Keys are **secret**.
>
> Keep them safe.

> **Note:**
>
> ${F}bash
> echo first
> ${F}

## Tabs

**curl**

${F}bash
${LIVE_CURL}
${F}

**JavaScript**

${F}ts
${TRICKY}
${F}
`;

const parser = unified().use(remarkParse).use(remarkGfm);

/** Every text and inline code value of a Markdown tree, run together. */
function prose(tree: Root): string {
  const values: string[] = [];
  visit(tree, (node) => {
    if (node.type === 'text' || node.type === 'inlineCode') values.push(node.value);
  });
  return values.join('');
}

function codeBlocks(tree: Root): Array<{ lang: string | null | undefined; value: string }> {
  const blocks: Array<{ lang: string | null | undefined; value: string }> = [];
  visit(tree, 'code', (node) => {
    blocks.push({ lang: node.lang, value: node.value });
  });
  return blocks;
}

describe('processed Markdown of a fixture page', () => {
  let docs: RunningDocs;
  let remove: () => void;

  beforeAll(async () => {
    const fixture = fixtureDocs({
      'en/rules.mdx': SOURCE,
      'en/other.mdx': page('Other', '## Details\n\nText.'),
      'es/rules.mdx': page('Reglas', 'Texto.'),
      'es/other.mdx': page('Otra', 'Texto.'),
    });
    remove = fixture.remove;
    docs = await startDocs({ docsDir: fixture.dir });
  });

  afterAll(async () => {
    await docs.close();
    remove();
  });

  test('follows every rule: title, description, no imports, components as Markdown, absolute links', async () => {
    const markdown = await (await fetch(`${docs.url}/en/docs/rules.mdx`)).text();
    expect(markdown).toBe(EXPECTED);
  });

  test('examples use the served API URL, in the HTML as in the Markdown', async () => {
    const html = await (await fetch(`${docs.url}/en/docs/rules`)).text();
    expect(html).toContain('https://api.example.test/api/v1/inventory/items');
    expect(html).not.toContain('127.0.0.1:3000');
  });

  test('the HTML renders the same components for people', async () => {
    const html = await (await fetch(`${docs.url}/en/docs/rules`)).text();
    expect(html).toContain(
      '<aside class="callout callout-warning" role="note"><p class="callout-title">Warning</p>',
    );
    expect(html).toContain('<label for="tabs-1-0" class="tab-label">curl</label>');
    expect(html).toContain('<a href="/en/docs/other#details">to a section</a>');
    expect(html).toContain('<a href="#tabs">to this page</a>');
    expect(html).toContain('<span class="hljs-string">');
    expect(html).not.toContain('import {');
    expect(html).not.toContain('A comment the reader never sees');
  });
});

describe('processed Markdown of the repository pages', async () => {
  const pages = await loadPages(REPO_DOCS_DIR);
  let docs: RunningDocs;

  beforeAll(async () => {
    docs = await startDocs();
  });

  afterAll(async () => {
    await docs.close();
  });

  // Each page's Markdown as served, fetched and parsed once for both tests (they only read the
  // trees): the second does not fetch and parse every page of both languages again.
  const served = new Map<string, Promise<{ markdown: string; output: Root }>>();
  const fetchPage = (locale: string, slug: string) => {
    const url = `${docs.url}/${locale}/docs/${slug}.mdx`;
    let page = served.get(url);
    if (!page) {
      page = fetch(url)
        .then((response) => response.text())
        .then((markdown) => ({ markdown, output: parser.parse(markdown) }));
      served.set(url, page);
    }
    return page;
  };

  test('keeps every code block byte for byte, and leaves no MDX behind', async () => {
    for (const locale of LOCALES) {
      for (const [slug, source] of pages[locale]) {
        const { markdown, output } = await fetchPage(locale, slug);
        // Byte for byte, but for the example addresses, which are the server's URLs.
        const expected = codeBlocks(source.tree).map(({ lang, value }) => ({
          lang,
          value: liveExample(lang, value, {
            publicApiUrl: 'https://api.example.test',
            publicDocsUrl: 'https://docs.example.test',
          }),
        }));
        // The API reference adds no code blocks, so the lists match for every page.
        expect(codeBlocks(output), `${locale}/${slug}`).toEqual(expected);
        expect(markdown.startsWith(`# ${source.title}\n\n> `), `${locale}/${slug}`).toBe(true);
        const outside = markdown.replace(/```[\s\S]*?```/g, '');
        expect(outside, `${locale}/${slug}`).not.toMatch(
          /<\/?(Callout|Tabs|Tab|OpenApiReference)\b/,
        );
        expect(outside, `${locale}/${slug}`).not.toMatch(
          /^import\s.*\sfrom\s['"]|^export\s+(const|let|function|default)\b/m,
        );
        // Every link is absolute.
        visit(output, 'link', (link) => {
          expect(link.url, `${locale}/${slug}`).toMatch(/^https?:\/\//);
        });
      }
    }
  });

  test('loses no words: every text, inline code and tab label of a page reaches its Markdown', async () => {
    for (const locale of LOCALES) {
      for (const [slug, source] of pages[locale]) {
        const words = prose((await fetchPage(locale, slug)).output);
        const expected: string[] = [];
        visit(source.tree, (node) => {
          if (node.type === 'text' || node.type === 'inlineCode') expected.push(node.value);
          if (node.type === 'mdxJsxFlowElement' && node.name === 'Tab') {
            for (const attribute of node.attributes) {
              if (attribute.type === 'mdxJsxAttribute' && typeof attribute.value === 'string') {
                expected.push(attribute.value);
              }
            }
          }
        });
        expect(expected.length, `${locale}/${slug}`).toBeGreaterThan(0);
        for (const value of expected) {
          expect(words.includes(value), `${locale}/${slug}: "${value}"`).toBe(true);
        }
      }
    }
  });
});
