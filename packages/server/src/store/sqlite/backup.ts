import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database, { type SqliteDatabase } from './driver.js';

/** What `SqliteStore.backupTo` wrote: the copy's absolute path, size and row counts. */
export interface BackupSummary {
  file: string;
  bytes: number;
  organizations: number;
  items: number;
  apiKeys: number;
}

/** A backup target that cannot be used: `exists` (FILE is there, no overwrite) or `invalid`. */
export class BackupTargetError extends Error {
  override name = 'BackupTargetError';

  constructor(
    readonly reason: 'exists' | 'invalid',
    message: string,
  ) {
    super(message);
  }
}

function statOrNull(file: string): fs.Stats | null {
  try {
    return fs.statSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** The path with its directory's symlinks resolved (the file itself need not exist). */
function canonical(file: string): string {
  const resolved = path.resolve(file);
  try {
    return path.join(fs.realpathSync(path.dirname(resolved)), path.basename(resolved));
  } catch {
    return resolved;
  }
}

/** Refuses a target that is missing its directory, is a directory, or is the database itself. */
function checkTarget(target: string, source: string, overwrite: boolean): void {
  const dir = path.dirname(target);
  const dirStat = statOrNull(dir);
  if (!dirStat) throw new BackupTargetError('invalid', `the directory ${dir} does not exist`);
  if (!dirStat.isDirectory()) throw new BackupTargetError('invalid', `${dir} is not a directory`);
  const existing = statOrNull(target);
  if (existing?.isDirectory()) {
    throw new BackupTargetError(
      'invalid',
      `${target} is a directory; name a file in it, e.g. ${path.join(target, 'stockroom-backup.db')}`,
    );
  }
  // The database, its WAL and shared memory, its journal, the serve lock: never a target.
  const own = ['', '-wal', '-shm', '-journal', '-serve.lock'].map((suffix) =>
    canonical(`${source}${suffix}`),
  );
  const sourceStat = statOrNull(source);
  if (
    own.includes(canonical(target)) ||
    (existing && sourceStat && existing.dev === sourceStat.dev && existing.ino === sourceStat.ino)
  ) {
    throw new BackupTargetError(
      'invalid',
      `${target} is the database being backed up (or one of its files); choose another file`,
    );
  }
  if (existing && !overwrite) {
    throw new BackupTargetError(
      'exists',
      `${target} already exists; choose another file, or pass --force to replace it`,
    );
  }
}

function fsync(file: string, flags: string): void {
  const fd = fs.openSync(file, flags);
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Puts the finished copy at `target` in one step, so `target` is never half-written. Without
 * overwrite a hard link does it (it fails if `target` appeared meanwhile, where a rename would
 * replace it); where the file system has no hard links, a check and a rename.
 */
function place(temp: string, target: string, overwrite: boolean): void {
  if (overwrite) {
    fs.renameSync(temp, target);
    return;
  }
  try {
    fs.linkSync(temp, target);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') {
      throw new BackupTargetError(
        'exists',
        `${target} already exists; choose another file, or pass --force to replace it`,
      );
    }
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') {
      throw error;
    }
    if (fs.existsSync(target)) {
      throw new BackupTargetError(
        'exists',
        `${target} already exists; choose another file, or pass --force to replace it`,
      );
    }
    fs.renameSync(temp, target);
  }
}

function countRows(file: string): Omit<BackupSummary, 'file' | 'bytes'> {
  const copy = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const count = (table: string) =>
      (copy.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    return {
      organizations: count('organizations'),
      items: count('items'),
      apiKeys: count('api_keys'),
    };
  } finally {
    copy.close();
  }
}

/**
 * A consistent copy of the database behind `db` (the file `source`) at `target`, while other
 * connections and processes read and write it: `VACUUM INTO` copies one snapshot (a read
 * transaction, which in WAL mode blocks no writer) into a temporary file beside `target`, which
 * is synced, opened read-only to count its rows, and then put in place.
 */
export function backupDatabase(
  db: SqliteDatabase,
  source: string,
  target: string,
  options: { overwrite?: boolean } = {},
): BackupSummary {
  const file = path.resolve(target);
  const overwrite = options.overwrite === true;
  checkTarget(file, source, overwrite);
  const dir = path.dirname(file);
  const temp = path.join(
    dir,
    `.${path.basename(file)}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`,
  );
  try {
    db.prepare('VACUUM INTO ?').run(temp);
    // VACUUM INTO does not sync what it wrote.
    fsync(temp, 'r+');
    const counts = countRows(temp);
    place(temp, file, overwrite);
    try {
      fsync(dir, 'r');
    } catch {
      // Some platforms cannot sync a directory; the rename or link is still atomic.
    }
    return { file, bytes: fs.statSync(file).size, ...counts };
  } finally {
    fs.rmSync(temp, { force: true });
  }
}
