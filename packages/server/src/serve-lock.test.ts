import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { acquireServeLock, ServeLockError, serveLockFile } from './serve-lock.js';

/** The lock itself; across processes (and SIGKILL) in test/scale-out.e2e.test.ts. */
describe('acquireServeLock', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'stockroom-lock-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is held once per database file, until released', () => {
    const file = path.join(dir, 'stockroom.db');
    const lock = acquireServeLock(file);
    expect(lock.file).toBe(serveLockFile(file));
    expect(() => acquireServeLock(file)).toThrow(
      new ServeLockError(
        `another stockroom serve is already serving ${file} (stop it, or run one server with --workers N)`,
      ),
    );
    // Another file is another lock.
    const other = acquireServeLock(path.join(dir, 'other.db'));
    other.release();
    lock.release();
    acquireServeLock(file).release();
  });

  it('names a database under the working directory as the operator would type it', () => {
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      // ./data does not exist yet, as on a fresh clone.
      const file = path.join(dir, 'data', 'stockroom.db');
      const lock = acquireServeLock(file);
      try {
        expect(() => acquireServeLock(file)).toThrow(
          'another stockroom serve is already serving ./data/stockroom.db (stop it, or run one server with --workers N)',
        );
      } finally {
        lock.release();
      }
    } finally {
      process.chdir(cwd);
    }
  });
});
