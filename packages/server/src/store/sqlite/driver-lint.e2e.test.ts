import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The linter (Biome, run as its binary) keeps both driver packages inside driver.ts; the
 * driver itself is checked in driver.test.ts.
 */
const ROOT = fileURLToPath(new URL('../../../../../', import.meta.url));

/** The lines of a file (relative to the repository) where the linter refuses an import. */
function refusedImportLines(file: string): number[] {
  const result = spawnSync(
    path.join(ROOT, 'node_modules/.bin/biome'),
    ['lint', '--reporter=json', file],
    { cwd: ROOT, encoding: 'utf8' },
  );
  const report = JSON.parse(result.stdout) as {
    diagnostics: Array<{ category: string; location: { start: { line: number } } }>;
  };
  return report.diagnostics
    .filter((d) => d.category === 'lint/style/noRestrictedImports')
    .map((d) => d.location.start.line);
}

describe('the linter', () => {
  it('refuses either package anywhere but driver.ts, type imports included', () => {
    // A file of its own next to the store's, removed afterwards: the rule applies by path.
    const probe = `packages/server/src/store/.driver-lint-probe-${randomBytes(4).toString('hex')}.ts`;
    writeFileSync(
      path.join(ROOT, probe),
      [
        "import Twelve from 'better-sqlite3';",
        "import type Types from 'better-sqlite3';",
        "import Thirteen from 'better-sqlite3-napi';",
        "import Driver, { type SqliteDatabase } from './sqlite/driver.js';",
        'export type Db = Types.Database | SqliteDatabase;',
        'export { Driver, Thirteen, Twelve };',
        '',
      ].join('\n'),
    );
    try {
      expect(refusedImportLines(probe)).toEqual([1, 2, 3]);
    } finally {
      rmSync(path.join(ROOT, probe), { force: true });
    }
    expect(refusedImportLines('packages/server/src/store/sqlite/driver.ts')).toEqual([]);
  });
});
