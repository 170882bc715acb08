import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { readManifest, SITE_DIR, SITE_FORMAT } from '../built-site.js';

/**
 * `node dist/docs/build/main.js [--docs DIR] [--out DIR] [--force]`: renders the docs site
 * into dist/site (the last step of `npm run build`). Skipped when nothing it is built from
 * changed: the pages, the compiled server (the renderer, and the API whose OpenAPI document the
 * reference shows) and the installed packages. An invalid page fails the build, naming its file.
 */

const PACKAGE_DIR = fileURLToPath(new URL('../../../', import.meta.url));
const DIST_DIR = path.join(PACKAGE_DIR, 'dist');
const REPOSITORY_DOCS = path.join(PACKAGE_DIR, '../../docs');

async function filesUnder(dir: string, skip: (name: string) => boolean): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter((file) => !skip(path.relative(dir, file)))
    .sort();
}

/** A hash of every input of the site: its names and bytes. */
async function fingerprint(docsDir: string, outDir: string): Promise<string> {
  const hash = createHash('sha256').update(`format ${SITE_FORMAT}\n`);
  const inputs = [
    ...(await filesUnder(docsDir, () => false)),
    ...(await filesUnder(
      DIST_DIR,
      (name) => !name.endsWith('.js') || path.resolve(DIST_DIR, name).startsWith(outDir),
    )),
    path.join(PACKAGE_DIR, 'package.json'),
    path.join(PACKAGE_DIR, '../../package-lock.json'),
  ];
  for (const file of inputs) {
    const bytes = await readFile(file).catch(() => Buffer.alloc(0));
    hash.update(`${path.relative(PACKAGE_DIR, file)}\n${bytes.length}\n`).update(bytes);
  }
  return hash.digest('base64url');
}

async function upToDate(outDir: string, print: string): Promise<boolean> {
  try {
    return (await readManifest(outDir)).fingerprint === print;
  } catch {
    return false;
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      docs: { type: 'string', default: REPOSITORY_DOCS },
      out: { type: 'string', default: SITE_DIR },
      force: { type: 'boolean', default: false },
    },
  });
  const docsDir = path.resolve(values.docs);
  const outDir = path.resolve(values.out);
  const print = await fingerprint(docsDir, outDir);
  if (!values.force && (await upToDate(outDir, print))) return;
  const started = performance.now();
  // Only now: loading the renderer and the API app costs more than the check above.
  const [{ renderSite }, { apiDocument }, { writeSite }] = await Promise.all([
    import('./site.js'),
    import('./api-document.js'),
    import('./write-site.js'),
  ]);
  const site = await renderSite({ docsDir, openapi: await apiDocument() });
  await writeSite(outDir, site, print);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  // On stderr, like any progress line: `npm pack --json` (whose prepack builds) keeps stdout.
  process.stderr.write(
    `docs: rendered ${site.files.size} files into ${path.relative(process.cwd(), outDir) || '.'} in ${seconds} s\n`,
  );
}

try {
  await main();
} catch (error) {
  const failure = error as Error;
  process.stderr.write(
    `docs: ${failure.name === 'DocsContentError' ? failure.message : (failure.stack ?? failure.message)}\n`,
  );
  process.exitCode = 1;
}
