import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * docs/architecture.md is the map of the code and what its comments cite: every folder of the
 * server's source and of the deployment kit is on it, and nothing in the repository points a
 * reader at a file that is not in the repository (the contract documents live outside it).
 */
const ROOT = path.join(import.meta.dirname, '..');
const ARCHITECTURE = readFileSync(path.join(ROOT, 'docs', 'architecture.md'), 'utf8');
const SKIPPED = new Set(['node_modules', 'dist', '.git', 'coverage']);

/** Every folder under `dir`, as paths relative to it with `/` separators. */
function folders(dir: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory() || SKIPPED.has(entry.name)) continue;
    const relative = `${prefix}${entry.name}`;
    out.push(relative, ...folders(path.join(dir, entry.name), `${relative}/`));
  }
  return out;
}

/** Every file under `dir`, absolute. */
function files(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    // Hidden folders are tools' and engineers' scratch space, not the repository's files.
    if (SKIPPED.has(entry.name) || (entry.isDirectory() && entry.name.startsWith('.'))) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...files(full));
    else if (entry.isFile()) out.push(full);
  }
  return out;
}

describe('docs/architecture.md', () => {
  it('names every folder of packages/server/src as src/<folder>/', () => {
    const source = folders(path.join(ROOT, 'packages', 'server', 'src'));
    expect(source).toContain('store/contract');
    const missing = source.filter((folder) => !ARCHITECTURE.includes(`src/${folder}/`));
    expect(missing, 'add them to "The house" in docs/architecture.md').toEqual([]);
  });

  it('names deploy/ and every folder in it as deploy/<folder>/', () => {
    const kit = folders(path.join(ROOT, 'deploy'));
    expect(kit.length).toBeGreaterThan(0);
    const missing = ['', ...kit.map((folder) => `${folder}/`)].filter(
      (folder) => !ARCHITECTURE.includes(`deploy/${folder}`),
    );
    expect(missing, 'add them to "The house" in docs/architecture.md').toEqual([]);
  });
});

describe('citations', () => {
  // Spelled in pieces so that this file does not cite them itself.
  const OUTSIDE = ['DECISIONS', 'EXTENSIONS', 'seed-spec'].map((name) => `${name}.md`);

  it('no file of the code, tests, benchmarks, deployment kit or scripts names a contract document outside the repository', () => {
    const roots = ['packages', 'test', 'bench', 'deploy', 'scripts'].map((dir) =>
      path.join(ROOT, dir),
    );
    const citing: string[] = [];
    let read = 0;
    for (const file of roots.flatMap(files)) {
      // Text files only: the few binaries (a packed tarball, images) are not code.
      if (statSync(file).size > 2_000_000) continue;
      const text = readFileSync(file, 'utf8');
      if (text.includes('\u0000')) continue;
      read += 1;
      for (const name of OUTSIDE) {
        if (text.includes(name)) citing.push(`${path.relative(ROOT, file)}: ${name}`);
      }
    }
    expect(read).toBeGreaterThan(300);
    // Cite a section of docs/architecture.md (`docs/architecture.md#key-views`) or a docs page.
    expect(citing).toEqual([]);
  });
});
