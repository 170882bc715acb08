import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import Database, { sqliteDriverFor, sqliteDriverPackage } from './driver.js';

const require = createRequire(import.meta.url);
const nodeMajor = Number(process.versions.node.split('.')[0]);

describe('the SQLite driver', () => {
  it('is better-sqlite3 13 (Node-API) from Node 22 on and 12 on Node 20', () => {
    const { version } = require(`${sqliteDriverPackage}/package.json`) as { version: string };
    expect(Number(version.split('.')[0])).toBe(nodeMajor >= 22 ? 13 : 12);
  });

  it('maps every Node major to its release, whichever Node runs the tests', () => {
    // Read without loading: better-sqlite3 13 crashes when loaded on Node 20.
    const major = (name: string) =>
      Number((require(`${name}/package.json`) as { version: string }).version.split('.')[0]);
    for (const node of [20, 21]) expect(major(sqliteDriverFor(node))).toBe(12);
    for (const node of [22, 24, 26]) expect(major(sqliteDriverFor(node))).toBe(13);
  });

  it('is the module the store opens databases with', () => {
    expect(Database).toBe(require(sqliteDriverPackage));
    const db = new Database(':memory:');
    try {
      expect(db.prepare('SELECT 1 + 1 AS two').get()).toEqual({ two: 2 });
    } finally {
      db.close();
    }
  });
});

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
