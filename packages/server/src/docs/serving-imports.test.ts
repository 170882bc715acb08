import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

/**
 * A serving process never loads the docs renderer: the pages were rendered at build time, and
 * the markdown toolchain is a development dependency, absent where the package is installed.
 * Checked on the sources: every module the command's entry reaches, statically or by a dynamic
 * import of a literal path.
 */

const SRC = fileURLToPath(new URL('..', import.meta.url));
const PACKAGE = JSON.parse(readFileSync(path.join(SRC, '../package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm;

/** The modules `entry` reaches (paths relative to src/), and the packages they import. */
function reach(entry: string): { modules: Set<string>; packages: Set<string> } {
  const modules = new Set<string>();
  const packages = new Set<string>();
  const pending = [path.join(SRC, entry)];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    const relative = path.relative(SRC, file);
    if (modules.has(relative)) continue;
    modules.add(relative);
    const source = readFileSync(file, 'utf8')
      // Type-only imports are erased from the compiled module.
      .replace(/^\s*(?:import|export)\s+type\s[^;]*;/gm, '');
    for (const [, specifier = ''] of source.matchAll(IMPORT)) {
      if (specifier.startsWith('.')) {
        const target = path.resolve(path.dirname(file), specifier).replace(/\.js$/, '.ts');
        if (existsSync(target)) pending.push(target);
      } else if (!specifier.startsWith('node:')) {
        packages.add(
          specifier.startsWith('@')
            ? specifier.split('/').slice(0, 2).join('/')
            : (specifier.split('/')[0] ?? ''),
        );
      }
    }
  }
  return { modules, packages };
}

describe('what `stockroom serve` loads', () => {
  const { modules, packages } = reach('cli/main.ts');

  test('reaches the docs host, but not its build step nor any test helper', () => {
    expect(modules).toContain(path.join('docs', 'app.ts'));
    expect(modules).toContain(path.join('docs', 'built-site.ts'));
    expect([...modules].filter((file) => file.startsWith(path.join('docs', 'build')))).toEqual([]);
    expect([...modules].filter((file) => /(^|\/)testing(\/|\.ts$)/.test(file))).toEqual([]);
  });

  test('imports only the packages the server depends on', () => {
    const missing = [...packages].filter((name) => !(name in PACKAGE.dependencies));
    expect(missing).toEqual([]);
    expect(PACKAGE.devDependencies).toHaveProperty('unified');
  });
});
