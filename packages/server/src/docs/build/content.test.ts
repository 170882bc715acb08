import { rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Root } from 'mdast';
import { visit } from 'unist-util-visit';
import { afterEach, describe, expect, test } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { ERROR_CODES } from '../../api/errors.js';
import { createDocsApp } from '../app.js';
import { readSite } from '../built-site.js';
import { LOCALES } from '../i18n.js';
import { fixtureDocs, page, REPO_DOCS_DIR } from '../testing.js';
import { loadPages, PAGE_ORDER, type Page } from './content.js';
import { curlExamples } from './examples.js';
import { renderSite } from './site.js';
import { writeSite } from './write-site.js';

/** The repository's pages, and the checks that stop the build at a broken page. */

function frontmatterKeys(tree: Root): string[] {
  const first = tree.children[0];
  if (first?.type !== 'yaml') return [];
  return Object.keys(parseYaml(first.value) as object).sort();
}

describe('the repository docs', async () => {
  // Loading parses every page and checks every internal link; it throws on the first problem.
  const pages = await loadPages(REPO_DOCS_DIR);

  test('both languages have exactly the pages the docs issue lists, in navigation order', () => {
    for (const locale of LOCALES) {
      expect([...pages[locale].keys()].sort()).toEqual([...PAGE_ORDER].sort());
    }
  });

  test('twin pages have the same frontmatter keys, each with a title and a description', () => {
    for (const slug of PAGE_ORDER) {
      const en = pages.en.get(slug);
      const es = pages.es.get(slug);
      expect(en && es, slug).toBeTruthy();
      if (!en || !es) continue;
      expect(frontmatterKeys(en.tree)).toEqual(['description', 'title']);
      expect(frontmatterKeys(es.tree)).toEqual(frontmatterKeys(en.tree));
      // A page left untranslated would show the same title in both languages.
      expect(es.title, slug).not.toBe(en.title);
    }
  });

  test('every API error code has a section whose id is the lower-case code, in both languages', () => {
    for (const locale of LOCALES) {
      const errors = pages[locale].get('errors');
      for (const code of ERROR_CODES) {
        expect(errors?.anchors.has(code.toLowerCase()), `${locale}: ${code}`).toBe(true);
      }
    }
  });

  test('twin error pages document the codes in the same order', () => {
    const order = (locale: 'en' | 'es') =>
      [...(pages[locale].get('errors')?.anchors ?? [])].filter((id) =>
        ERROR_CODES.some((code) => code.toLowerCase() === id),
      );
    expect(order('es')).toEqual(order('en'));
    expect(order('en')).toEqual(ERROR_CODES.map((code) => code.toLowerCase()));
  });
});

/**
 * What twin pages must share: a translation reorganised, shortened or left behind shows up as a
 * difference here. Prose is free; structure, commands and their promised statuses are not.
 */
interface Structure {
  /** How many headings of each level, `{ 2: 7, 3: 4 }`. */
  headings: Record<number, number>;
  /** The language of each code block, in order. */
  codeBlocks: string[];
  /** Each curl example with its promised status; a docs-host path's locale reads `{locale}`. */
  curl: string[];
  /** The type of each Callout, in order. */
  callouts: string[];
  /** How many tabs each Tabs holds, in order. */
  tabs: number[];
}

function structure(page: Page): Structure {
  const headings: Record<number, number> = {};
  const codeBlocks: string[] = [];
  const callouts: string[] = [];
  const tabs: number[] = [];
  visit(page.tree, (node) => {
    if (node.type === 'heading') headings[node.depth] = (headings[node.depth] ?? 0) + 1;
    if (node.type === 'code') codeBlocks.push(node.lang ?? '');
    if (node.type === 'mdxJsxFlowElement' && node.name === 'Callout') {
      const type = node.attributes.find((a) => a.type === 'mdxJsxAttribute' && a.name === 'type');
      callouts.push(typeof type?.value === 'string' ? type.value : 'note');
    }
    if (node.type === 'mdxJsxFlowElement' && node.name === 'Tabs') {
      tabs.push(node.children.filter((c) => c.type === 'mdxJsxFlowElement').length);
    }
  });
  const single = { en: new Map(), es: new Map() } as Record<'en' | 'es', Map<string, Page>>;
  single[page.locale].set(page.slug, page);
  const curl = curlExamples(single).map(
    (example) =>
      `${example.command.replace(/\/(en|es)\/docs\//g, '/{locale}/docs/')} → ${example.status}`,
  );
  return { headings, codeBlocks, curl, callouts, tabs };
}

/**
 * Where twin pages differ on purpose. Each entry pins both sides, so it fails when either page
 * changes and the exception has to be looked at again.
 */
const INTENDED_DIFFERENCES: Array<{
  slug: string;
  aspect: keyof Structure;
  en: unknown;
  es: unknown;
  reason: string;
}> = [
  {
    slug: 'api-reference',
    aspect: 'callouts',
    en: [],
    es: ['note'],
    reason:
      'the generated reference keeps the OpenAPI document’s English descriptions; the Spanish page says so',
  },
];

describe('twin pages match in structure', async () => {
  const pages = await loadPages(REPO_DOCS_DIR);
  const aspects: Array<keyof Structure> = ['headings', 'codeBlocks', 'curl', 'callouts', 'tabs'];

  test.each(PAGE_ORDER)('%s', (slug) => {
    const en = pages.en.get(slug);
    const es = pages.es.get(slug);
    if (!en || !es) throw new Error(`${slug} is missing a twin`);
    const [a, b] = [structure(en), structure(es)];
    for (const aspect of aspects) {
      const intended = INTENDED_DIFFERENCES.find((d) => d.slug === slug && d.aspect === aspect);
      if (intended) {
        expect(a[aspect], `${slug} ${aspect} (en): ${intended.reason}`).toEqual(intended.en);
        expect(b[aspect], `${slug} ${aspect} (es): ${intended.reason}`).toEqual(intended.es);
      } else {
        expect(b[aspect], `${slug}: ${aspect} of the Spanish page`).toEqual(a[aspect]);
      }
    }
  });

  test('the list of intended differences names real pages and aspects, once each', () => {
    const seen = new Set<string>();
    for (const difference of INTENDED_DIFFERENCES) {
      expect(PAGE_ORDER).toContain(difference.slug);
      expect(aspects).toContain(difference.aspect);
      expect(difference.reason.length).toBeGreaterThan(20);
      const key = `${difference.slug}/${difference.aspect}`;
      expect(seen.has(key), key).toBe(false);
      seen.add(key);
    }
  });
});

/** Prose in program code: string literals (template text between `${…}`) and comments. */
function codeProse(code: string, lang: string): string[] {
  const out: string[] = [];
  if (['ts', 'typescript', 'js', 'javascript'].includes(lang)) {
    const literals = /'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"|`((?:[^`\\]|\\.)*)`/g;
    for (const m of code.matchAll(literals)) {
      out.push(...(m[1] ?? m[2] ?? m[3] ?? '').split(/\$\{[^}]*\}/));
    }
    for (const m of code.matchAll(/\/\/(.*)$/gm)) out.push(m[1] ?? '');
  } else if (['bash', 'sh', 'shell'].includes(lang)) {
    // Comments only: a shell command's strings are data (names, headers), the same in both.
    for (const m of code.matchAll(/(?:^|\s)#(?!\s*→)(.*)$/gm)) out.push(m[1] ?? '');
  }
  // Two words or more: identifiers, URLs and single terms may well be the same in Spanish.
  return out.map((s) => s.trim()).filter((s) => /[A-Za-z]{2,}\s+[A-Za-z]{2,}/.test(s));
}

describe('the Spanish pages', async () => {
  const pages = await loadPages(REPO_DOCS_DIR);

  test('translate the prose of their example code (strings and comments)', () => {
    const untranslated: string[] = [];
    for (const slug of PAGE_ORDER) {
      const blocks = (page: Page | undefined) => {
        const found: Array<{ lang: string; value: string }> = [];
        if (page)
          visit(
            page.tree,
            'code',
            (node) => void found.push({ lang: node.lang ?? '', value: node.value }),
          );
        return found;
      };
      // Twin pages have the same code blocks in the same order (see the structure test).
      const en = blocks(pages.en.get(slug));
      const es = blocks(pages.es.get(slug));
      for (const [index, block] of es.entries()) {
        const english = new Set(codeProse(en[index]?.value ?? '', block.lang));
        for (const text of codeProse(block.value, block.lang)) {
          if (english.has(text)) untranslated.push(`${slug}, code block ${index + 1}: ${text}`);
        }
      }
    }
    expect(untranslated).toEqual([]);
  });

  test('say "datos de demostración", not "siembra"/"sembrar", for seeding', async () => {
    const words: string[] = [];
    for (const page of pages.es.values()) {
      const source = await readFile(page.file, 'utf8');
      for (const m of source.matchAll(/\b\w*(?:siembr|sembr)\w*/gi))
        words.push(`${page.slug}: ${m[0]}`);
    }
    expect(words).toEqual([]);
  });
});

describe('a broken page stops the docs build', () => {
  let remove: (() => void) | undefined;
  afterEach(() => remove?.());

  const good = page('Intro', 'Hello.');

  async function rejection(files: Record<string, string>): Promise<string> {
    const fixture = fixtureDocs(files);
    remove = fixture.remove;
    const built = renderSite({ docsDir: fixture.dir, openapi: {} });
    await expect(built).rejects.toThrow();
    return built.then(
      () => '',
      (error: Error) => error.message,
    );
  }

  test.each([
    ['invalid MDX', '<Callout type="note">\nnever closed'],
    ['an unknown component', '<Video src="x" />'],
    ['an inline component', 'Text <Callout>inline</Callout> text.'],
    ['an expression', 'Two is {1 + 1}.'],
    ['a Callout of an unknown type', '<Callout type="danger">\nHi.\n</Callout>'],
    ['a Callout with an expression attribute', '<Callout type={"note"}>\nHi.\n</Callout>'],
    ['a Tab outside Tabs', '<Tab label="x">\nHi.\n</Tab>'],
    ['Tabs holding something else', '<Tabs>\n<Callout>\nHi.\n</Callout>\n</Tabs>'],
    ['a Tab without a label', '<Tabs>\n<Tab>\nHi.\n</Tab>\n</Tabs>'],
    ['a code block without a language', '```\ncode\n```'],
    ['a code block in an unknown language', '```cobol\ncode\n```'],
    ['a second h1', '# Another title'],
    ['a link to no page', '[x](./nowhere)'],
    ['a link to no heading', '[x](./intro#nowhere)'],
    ['a link into the other language', '[x](/es/docs/intro)'],
  ])('%s', async (_name, body) => {
    const message = await rejection({ 'en/intro.mdx': page('Intro', body), 'es/intro.mdx': good });
    expect(message).toContain('en/intro.mdx');
  });

  test.each([
    ['no frontmatter', 'Just text.\n'],
    ['frontmatter without a description', '---\ntitle: Intro\n---\n\nText.\n'],
    [
      'frontmatter with an unknown key',
      '---\ntitle: Intro\ndescription: D.\nauthor: me\n---\n\nText.\n',
    ],
    ['frontmatter that is not YAML', '---\ntitle: [unclosed\ndescription: D.\n---\n\nText.\n'],
  ])('%s', async (_name, source) => {
    const message = await rejection({ 'en/intro.mdx': source, 'es/intro.mdx': good });
    expect(message).toContain('en/intro.mdx');
  });

  test('a page without its twin', async () => {
    const message = await rejection({
      'en/intro.mdx': good,
      'es/intro.mdx': good,
      'en/extra.mdx': page('Extra', 'More.'),
    });
    expect(message).toContain('en/extra.mdx');
    expect(message).toContain('es');
  });

  test('a page name that is not a slug', async () => {
    const message = await rejection({ 'en/My Page.mdx': good, 'es/My Page.mdx': good });
    expect(message).toContain('My Page.mdx');
  });

  test('a missing language folder', async () => {
    const message = await rejection({ 'en/intro.mdx': good });
    expect(message).toContain('es');
  });

  test('valid links of every kind are accepted', async () => {
    const fixture = fixtureDocs({
      'en/intro.mdx': page(
        'Intro',
        '## Section `A_B`\n\n[a](./other) [b](other#part-two) [c](/en/docs/other.mdx) [d](#section-a_b) [e](/llms.txt) [f](https://example.com/x)\n\n[g]: ./other#part-two',
      ),
      'en/other.mdx': page('Other', '## Part two\n\nText.'),
      'es/intro.mdx': good,
      'es/other.mdx': page('Otra', 'Texto.'),
    });
    remove = fixture.remove;
    const site = await renderSite({ docsDir: fixture.dir, openapi: {} });
    expect(site.slugs).toEqual({ en: ['intro', 'other'], es: ['intro', 'other'] });
  });

  test('a page holding a placeholder of the public URLs', async () => {
    const message = await rejection({
      'en/intro.mdx': page('Intro', 'See https://public-docs-url.stockroom.invalid/x.'),
      'es/intro.mdx': good,
    });
    expect(message).toContain('en/intro.mdx');
  });
});

describe('pages are processed once, at build time, and served from memory', () => {
  test('editing, deleting or adding files afterwards changes nothing that is served', async () => {
    const fixture = fixtureDocs({
      'en/intro.mdx': page('Intro', 'First version.'),
      'es/intro.mdx': page('Intro ES', 'Primera versión.'),
    });
    const built = path.join(fixture.dir, 'site');
    try {
      await writeSite(built, await renderSite({ docsDir: fixture.dir, openapi: {} }), 'test');
      const app = await createDocsApp({
        site: await readSite(built),
        publicDocsUrl: 'https://docs.example.test',
        publicApiUrl: 'https://api.example.test',
      });
      const paths = ['/en/docs/intro', '/en/docs/intro.mdx', '/es/docs/intro.mdx', '/llms.txt'];
      const before = await Promise.all(paths.map((url) => app.inject({ url })));
      for (const response of before) expect(response.statusCode).toBe(200);
      expect(before[1]?.body).toContain('First version.');

      // The sources, and the built files as well.
      writeFileSync(path.join(fixture.dir, 'en/intro.mdx'), page('Changed', 'Second version.'));
      rmSync(path.join(fixture.dir, 'es/intro.mdx'));
      writeFileSync(path.join(fixture.dir, 'en/late.mdx'), page('Late', 'Added after start.'));
      writeFileSync(path.join(built, 'en/docs/intro.md'), '# Changed\n');
      rmSync(path.join(built, 'es/docs/intro.md'));
      writeFileSync(path.join(built, 'en/docs/late.html'), '<p>Late</p>');

      const after = await Promise.all(paths.map((url) => app.inject({ url })));
      for (const [index, response] of after.entries()) {
        expect(response.statusCode, paths[index]).toBe(200);
        expect(response.body, paths[index]).toBe(before[index]?.body);
        expect(response.headers.etag, paths[index]).toBe(before[index]?.headers.etag);
      }
      expect((await app.inject({ url: '/en/docs/late' })).statusCode).toBe(404);
      await app.close();
    } finally {
      fixture.remove();
    }
  });
});
