import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SQLITE_MIGRATIONS } from '../store/sqlite/migrations.js';
import { createCliSandbox, expectFailure, expectSuccess } from '../testing/cli-harness.js';

const sandbox = createCliSandbox();
afterAll(() => sandbox.cleanup());

const COMMANDS = [
  [],
  ['serve'],
  ['migrate'],
  ['org'],
  ['org', 'create'],
  ['org', 'list'],
  ['org', 'show'],
  ['org', 'update'],
  ['user'],
  ['user', 'create'],
  ['user', 'remove'],
  ['key'],
  ['key', 'create'],
  ['key', 'list'],
  ['key', 'disable'],
  ['key', 'enable'],
  ['key', 'revoke'],
  ['items'],
  ['items', 'import'],
  ['items', 'delete'],
];

describe('stockroom (global behaviour)', () => {
  it('has --help on every command, on stdout with exit 0, without touching the database', async () => {
    const runs = await Promise.all(COMMANDS.map((command) => sandbox.run([...command, '--help'])));
    runs.forEach((run, i) => {
      expectSuccess(run);
      const name = ['stockroom', ...(COMMANDS[i] as string[])].join(' ');
      expect(run.stdout).toContain(`Usage: ${name}`);
      expect(run.stdout).toContain('--json');
      expect(run.stdout).toContain('--database');
    });
    expect(existsSync(sandbox.dbPath)).toBe(false);
  });

  it('has a help command', async () => {
    const run = await sandbox.run(['help', 'key']);
    expectSuccess(run);
    expect(run.stdout).toContain('Usage: stockroom key');
  });

  it('prints the version', async () => {
    const run = await sandbox.run(['--version']);
    expectSuccess(run);
    expect(run.stdout).toMatch(/^\d+\.\d+\.\d+/);
  });

  it.each([
    [['nope'], /^stockroom: unknown command 'nope'$/],
    [['org', 'nope'], /^stockroom: unknown command 'nope'$/],
    [['org', 'list', '--bogus'], /^stockroom: unknown option '--bogus'$/],
    [['org', 'list', 'extra'], /^stockroom: too many arguments/],
    [[], /^stockroom: missing command after `stockroom`; see `stockroom --help`$/],
    [['key'], /^stockroom: missing command after `stockroom key`; see `stockroom key --help`$/],
    [['org', 'show'], /^stockroom: missing required argument 'ORG'$/],
    [['org', 'create'], /^stockroom: required option '--name <NAME>' not specified$/],
    [['org', 'create', '--name'], /^stockroom: option '--name <NAME>' argument missing$/],
  ])('%j is a usage error: exit 2, one stderr line', async (args, message) => {
    expectFailure(await sandbox.run(args), { status: 2, message });
    expect(existsSync(sandbox.dbPath)).toBe(false);
  });

  it('shapes a usage error as one JSON object with --json, wherever the flag is', async () => {
    for (const args of [
      ['--json', 'org', 'list', '--bogus'],
      ['org', 'create', '--json'],
      ['--json', 'nope'],
    ]) {
      expectFailure(await sandbox.run(args), { status: 2, code: 'USAGE_ERROR', json: true });
    }
  });

  it('creates and migrates a fresh database on first use, at DATABASE_URL', async () => {
    const run = await sandbox.run(['org', 'list', '--json']);
    expectSuccess(run, { json: true });
    expect(run.json).toEqual({ organizations: [] });
    expect(existsSync(sandbox.dbPath)).toBe(true);
  });

  it('migrate applies pending migrations once, then reports the database up to date', async () => {
    const fresh = path.join(sandbox.dir, 'fresh.db');
    const first = await sandbox.run(['migrate', '--json'], { env: { DATABASE_URL: fresh } });
    expectSuccess(first, { json: true });
    const all = SQLITE_MIGRATIONS.map((m) => `${String(m.version).padStart(4, '0')}_${m.name}`);
    expect(all[0]).toBe('0001_initial');
    expect(first.json).toEqual({ database: fresh, applied: all });
    const again = await sandbox.run(['migrate'], { env: { DATABASE_URL: fresh } });
    expectSuccess(again);
    expect(again.stdout).toBe(`${fresh} is up to date\n`);
  });

  it('--database overrides DATABASE_URL and resolves relative paths against the working directory', async () => {
    mkdirSync(path.join(sandbox.dir, 'work'), { recursive: true });
    const run = await sandbox.run(
      ['--database', 'sub/other.db', 'org', 'create', '--name', 'Other', '--json'],
      {
        cwd: path.join(sandbox.dir, 'work'),
      },
    );
    expectSuccess(run, { json: true });
    expect(existsSync(path.join(sandbox.dir, 'work', 'sub', 'other.db'))).toBe(true);
    const main = await sandbox.run(['org', 'list', '--json']);
    expect(main.json.organizations).toEqual([]);
  });

  it('uses ./data/stockroom.db under the working directory when DATABASE_URL is unset', async () => {
    const cwd = path.join(sandbox.dir, 'default');
    mkdirSync(cwd);
    expectSuccess(await sandbox.run(['migrate'], { cwd, env: { DATABASE_URL: '' } }));
    expect(existsSync(path.join(cwd, 'data', 'stockroom.db'))).toBe(true);
  });

  it('fails with exit 1 and one line when the database cannot be opened', async () => {
    expectFailure(await sandbox.run(['org', 'list', '--database', sandbox.dir, '--json']), {
      status: 1,
      code: 'DATABASE_ERROR',
      json: true,
      message: /cannot open the SQLite database/,
    });
    // Nothing listens on port 1; the password must not be echoed.
    const run = await sandbox.run(['org', 'list'], {
      env: { DATABASE_URL: 'postgres://ops:s3cret@127.0.0.1:1/stockroom' },
    });
    expectFailure(run, {
      status: 1,
      message: /^stockroom: cannot migrate postgres:\/\/ops:\*\*\*@127\.0\.0\.1:1\/stockroom: /,
    });
    expect(run.stderr).not.toContain('s3cret');
  });
});
