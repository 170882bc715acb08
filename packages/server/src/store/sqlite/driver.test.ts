import { createRequire } from 'node:module';
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
