import fs from 'node:fs';
import path from 'node:path';
import Database, { type SqliteDatabase } from './store/sqlite/driver.js';

/**
 * One `stockroom serve` per SQLite file. Rate limits on the embedded engine are counted in
 * memory, by the one process that serves (or, with --workers, by the cluster primary): two
 * independent servers on one file would each admit a key's whole limit. So `serve` holds an
 * exclusive lock on the database for its lifetime, and a second one is refused at start.
 *
 * The lock is a side file, `<database>-serve.lock`, a SQLite database of its own held in an
 * open `BEGIN EXCLUSIVE` transaction in rollback-journal mode: SQLite takes it as a POSIX
 * (fcntl) lock, which the operating system releases when the process ends however it ends
 * (SIGKILL included), so a crash never leaves a stale lock as a pid file would. busy_timeout 0:
 * a second server learns at once. The database itself is not locked, so the CLI (key create,
 * items import, …) keeps working beside a running server.
 */

export class ServeLockError extends Error {
  override name = 'ServeLockError';
}

export interface ServeLock {
  readonly file: string;
  release(): void;
}

export function serveLockFile(databaseFile: string): string {
  return `${databaseFile}-serve.lock`;
}

/** How to name the database in the refusal: as the operator would type it, from here. */
function shown(databaseFile: string): string {
  const relative = path.relative(process.cwd(), databaseFile);
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) {
    return databaseFile;
  }
  return `./${relative}`;
}

function isBusy(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED';
}

export function acquireServeLock(databaseFile: string): ServeLock {
  const file = serveLockFile(databaseFile);
  let db: SqliteDatabase | null = null;
  try {
    // Before the store creates it: the first start of a fresh clone has no ./data yet.
    fs.mkdirSync(path.dirname(file), { recursive: true });
    db = new Database(file);
    db.pragma('busy_timeout = 0');
    // Rollback journal (the default): its locks are the file's own fcntl locks. (WAL would
    // let a reader in beside the writer, and keeps a lock in a shared-memory file.)
    db.pragma('journal_mode = DELETE');
    db.exec('BEGIN EXCLUSIVE');
  } catch (error) {
    db?.close();
    if (isBusy(error)) {
      throw new ServeLockError(
        `another stockroom serve is already serving ${shown(databaseFile)} (stop it, or run one server with --workers N)`,
      );
    }
    throw new ServeLockError(`cannot take the serve lock ${file}: ${(error as Error).message}`);
  }
  const held = db;
  return {
    file,
    release() {
      if (!held.open) return;
      held.exec('ROLLBACK');
      held.close();
    },
  };
}
