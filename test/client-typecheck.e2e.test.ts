import { execFile } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';

/**
 * One type-check of what must compile for readers of the client: the client's type tests
 * (src/types.test-d.ts, also run by `npm run typecheck`) and every TypeScript and JavaScript
 * block of the client's README and of the docs pages in both languages (the client-library
 * page, and the client examples of the quickstart, item, organization and other pages),
 * against the client's sources. A renamed option, a changed return shape or a broken `fields`
 * narrowing fails here instead of misleading a reader. A line the docs mark as a type error
 * ("// type error", "// error de tipo") must be one.
 *
 * Examples that import anything besides the client (`node:crypto`, a web framework: the
 * server-side code that receives webhooks) are checked as Node.js code, in a second program
 * with Node's types and the repository's packages; the client examples keep no Node types, so
 * that they stay valid in browsers and edge runtimes.
 */

const run = promisify(execFile);
const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const ROOT = path.resolve(import.meta.dirname, '..');
const TYPE_TESTS = path.join(ROOT, 'packages/client/src/types.test-d.ts');
const CODE_FENCE = /^```(ts|js|typescript|javascript)\s*$/;

/** The reference documents of the client: each must have many examples, one a type error. */
const REFERENCES = [
  'packages/client/README.md',
  'docs/en/client-library.mdx',
  'docs/es/client-library.mdx',
];

/** Every docs page with TypeScript or JavaScript code: all of it is client code today. */
const DOCS_PAGES = ['en', 'es'].flatMap((locale) =>
  readdirSync(path.join(ROOT, 'docs', locale))
    .filter((name) => name.endsWith('.mdx'))
    .map((name) => `docs/${locale}/${name}`)
    .filter((page) =>
      readFileSync(path.join(ROOT, page), 'utf8')
        .split('\n')
        .some((line) => CODE_FENCE.test(line)),
    ),
);

const SOURCES = [...new Set([...REFERENCES, ...DOCS_PAGES])];

interface Snippet {
  file: string;
  /** Where the block starts in its document, for the failure message. */
  where: string;
  code: string;
  marksTypeError: boolean;
}

function snippets(relative: string): Snippet[] {
  const lines = readFileSync(path.join(ROOT, relative), 'utf8').split('\n');
  const found: Snippet[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!CODE_FENCE.test(lines[i] ?? '')) continue;
    const start = i + 1;
    while (i + 1 < lines.length && !(lines[i + 1] ?? '').startsWith('```')) i++;
    const code = lines.slice(start, i + 1).join('\n');
    found.push({
      file: `${relative.replace(/[^a-z0-9]+/gi, '-')}-${found.length + 1}.ts`,
      where: `${relative}:${start}`,
      code,
      marksTypeError: /\/\/ (type error|error de tipo)/.test(code),
    });
    i++;
  }
  return found;
}

/** Names the snippets use without defining them, as a reader's surrounding code would. */
const CONTEXT = `import type * as Client from '@stockroom/client';
declare const stockroom: Client.Stockroom;
declare const itemId: string;
declare const id: string;
declare const apiKey: string;
declare const baseUrl: string;
declare let total: number;
declare const process: { env: Record<string, string | undefined> };
declare const require: (id: '@stockroom/client') => typeof Client;
`;

/** Imports stay at the top; the rest becomes a function body, where `return` is allowed. */
function toModule(snippet: Snippet): string {
  const imports: string[] = [];
  const body: string[] = [];
  let inImport = false;
  for (const line of snippet.code.split('\n')) {
    if (inImport || line.startsWith('import ')) {
      imports.push(line);
      inImport = !/ from '[^']+';\s*$/.test(line);
      continue;
    }
    if (/\/\/ (type error|error de tipo)/.test(line)) {
      body.push(`${line.match(/^\s*/)?.[0] ?? ''}// @ts-expect-error the docs say so`);
    }
    body.push(line);
  }
  // A reference block such as the options listing uses the class without importing it.
  if (!/\bStockroom\b/.test(imports.join('\n')) && !/require\(/.test(snippet.code)) {
    imports.push(`import { Stockroom } from '@stockroom/client';`);
  }
  return `${imports.join('\n')}\n${CONTEXT}\nexport async function example() {\n${body.join('\n')}\n}\n`;
}

/** Server-side code: it imports something other than the client. */
function isServerSide(snippet: Snippet): boolean {
  return [...snippet.code.matchAll(/ from '([^']+)'/g)].some((m) => m[1] !== '@stockroom/client');
}

const dir = mkdtempSync(path.join(tmpdir(), 'stockroom-client-docs-'));
const serverDir = path.join(dir, 'server');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The compiler options both programs share; `types` differs. */
const COMPILER_OPTIONS = {
  target: 'ES2022',
  module: 'Preserve',
  moduleResolution: 'Bundler',
  strict: true,
  noEmit: true,
  lib: ['ES2022', 'DOM', 'DOM.Iterable'],
  skipLibCheck: true,
  // The type tests below are written for the repository's settings.
  noUncheckedIndexedAccess: true,
  paths: { '@stockroom/client': [path.join(ROOT, 'packages/client/src/index.ts')] },
};

/** Runs tsc on a program; its diagnostics, one per line. */
async function typeCheck(project: string): Promise<string[]> {
  const { stdout } = await run(process.execPath, [TSC, '-p', project, '--pretty', 'false']).catch(
    (error: { stdout: string }) => ({ stdout: error.stdout }),
  );
  return stdout.split('\n').filter(Boolean);
}

it('the type tests and every TypeScript and JavaScript example of the client docs type-check', async () => {
  const all = SOURCES.flatMap(snippets);
  // The pages whose client examples readers copy first, found by the scan above.
  for (const page of ['quickstart', 'inventory-item', 'organization', 'client-library']) {
    for (const locale of ['en', 'es']) {
      const source = `docs/${locale}/${page}.mdx`;
      expect(
        all.some((s) => s.where.startsWith(`${source}:`) && s.code.includes('@stockroom/client')),
        `${source} has an example that imports @stockroom/client`,
      ).toBe(true);
    }
  }
  for (const source of REFERENCES) {
    const own = all.filter((snippet) => snippet.where.startsWith(`${source}:`));
    expect(own.length, `${source} has code examples`).toBeGreaterThanOrEqual(5);
    // Each document shows the narrowing of `fields` with a line that must not compile.
    expect(
      own.some((snippet) => snippet.marksTypeError),
      `${source} marks a type error`,
    ).toBe(true);
  }
  mkdirSync(serverDir);
  // The server-side examples resolve Node's types and their packages from the repository.
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(serverDir, 'node_modules'), 'dir');
  for (const snippet of all) {
    const target = isServerSide(snippet) ? serverDir : dir;
    writeFileSync(path.join(target, snippet.file), toModule(snippet));
  }
  writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { ...COMPILER_OPTIONS, types: [] },
      include: ['*.ts'],
      // The client's own type tests, so that `npm test` runs them too (not only typecheck).
      files: [TYPE_TESTS],
    }),
  );
  writeFileSync(
    path.join(serverDir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { ...COMPILER_OPTIONS, types: ['node'] },
      include: ['*.ts'],
    }),
  );
  const programs = all.some(isServerSide) ? [dir, serverDir] : [dir];
  const diagnostics = (await Promise.all(programs.map(typeCheck))).flat();
  // Name each failure by the document and line of its example, not the scratch file.
  const report = diagnostics.map((line) => {
    const file = /([^/\\]+\.ts)\((\d+),\d+\): (.*)$/.exec(line);
    const snippet = file && all.find((s) => s.file === file[1]);
    return snippet && file ? `${snippet.where} (the block starting there): ${file[3]}` : line;
  });
  expect(report).toEqual([]);
}, 60_000);
