import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

const SPECIFIERS = [
  /^\s*(?:import|export)\s[^;]*?\sfrom\s*'([^']+)'/gm,
  /^\s*import\s*'([^']+)'/gm,
  /\bimport\(\s*'([^']+)'\s*\)/g,
];

/** Every module a source file under `dir` imports (statically or not), with the file's path. */
function imports(dir: string): Array<{ file: string; specifier: string }> {
  const found: Array<{ file: string; specifier: string }> = [];
  for (const entry of readdirSync(path.join(SRC, dir), { recursive: true, encoding: 'utf8' })) {
    if (!entry.endsWith('.ts')) continue;
    const file = path.join(dir, entry);
    const text = readFileSync(path.join(SRC, file), 'utf8');
    for (const pattern of SPECIFIERS) {
      for (const match of text.matchAll(pattern)) {
        found.push({ file, specifier: match[1] as string });
      }
    }
  }
  return found;
}

/** The top folder under src/ an import lands in (`cli`, `admin`, …), or the package name. */
function target(file: string, specifier: string): string {
  if (!specifier.startsWith('.')) return specifier;
  const resolved = path.relative(SRC, path.resolve(SRC, path.dirname(file), specifier));
  return resolved.split(path.sep)[0] as string;
}

describe('the domain layer', () => {
  it('depends on no framework and no surface: not commander, fastify, cli/, admin/ or api/', () => {
    const found = imports('domain').filter(({ file, specifier }) =>
      /^(commander|fastify|@fastify\/.*|cli|admin|api|docs)$/.test(target(file, specifier)),
    );
    expect(found).toEqual([]);
  });

  it('is what the surfaces share: nothing outside cli/ imports from cli/ (but its test harness)', () => {
    const outside = imports('.').filter(
      ({ file }) => !['cli', 'testing'].includes(file.split(path.sep)[0] as string),
    );
    expect(outside.filter(({ file, specifier }) => target(file, specifier) === 'cli')).toEqual([]);
  });
});
