import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

/**
 * The better-sqlite3 release this Node.js can run: 13 from Node 22 on, 12 on Node 20.
 *
 * Node 24.19 changed `node::ObjectWrap`, which better-sqlite3 12 compiles in from Node's
 * headers: destroying a wrapped object now asserts that a JavaScript context is entered. V8
 * collects garbage statements from tasks that enter none, so on Node 24 a server built on 12
 * aborts (SIGABRT, `Assertion failed: (env) != nullptr` in `Statement::~Statement`) seconds
 * after start. better-sqlite3 13 moved to Node-API, which has no such hook, but needs Node 22
 * (on Node 20 its build crashes when loaded). Both expose the same API, the one this code uses.
 * Every part of the server, CLI and tests opens SQLite through this module, so one process
 * never mixes the two; the linter refuses any other import of either package (biome.json).
 * `npm install` installs both (13 under the alias better-sqlite3-napi); on Node 20 npm warns
 * that 13 wants Node 22, and this module never loads it there.
 */
const NODE_API_FROM_MAJOR = 22;

/** The package to load on a Node.js of this major version. */
export function sqliteDriverFor(nodeMajor: number): 'better-sqlite3' | 'better-sqlite3-napi' {
  return nodeMajor >= NODE_API_FROM_MAJOR ? 'better-sqlite3-napi' : 'better-sqlite3';
}

export const sqliteDriverPackage = sqliteDriverFor(Number(process.versions.node.split('.')[0]));

const Database = createRequire(import.meta.url)(sqliteDriverPackage) as typeof BetterSqlite3;

export default Database;

/** An open database and a prepared statement: both releases have the same shape for what we use. */
export type SqliteDatabase = BetterSqlite3.Database;
export type SqliteStatement = BetterSqlite3.Statement;
