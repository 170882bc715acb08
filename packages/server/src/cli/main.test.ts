import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { afterAll, describe, expect, it } from 'vitest';
import Database from '../store/sqlite/driver.js';
import { SQLITE_MIGRATIONS } from '../store/sqlite/migrations.js';
import { createCliSandbox, expectFailure, expectSuccess } from '../testing/cli-harness.js';
import { buildProgram } from './program.js';

const sandbox = createCliSandbox();
afterAll(() => sandbox.cleanup());

/** Every command of the tree, walked from the program itself so that no new one is missed. */
function commandsOf(command: Command, path: string[] = []): string[][] {
  return [path, ...command.commands.flatMap((sub) => commandsOf(sub, [...path, sub.name()]))];
}
const COMMANDS = commandsOf(buildProgram());

describe('stockroom (global behaviour)', () => {
  it('has --help on every command, on stdout with exit 0, without touching the database', async () => {
    // The walk finds the documented commands (the README's command list), not a subset.
    expect(COMMANDS.map((command) => command.join(' '))).toEqual(
      expect.arrayContaining([
        '',
        'serve',
        'migrate',
        'org create',
        'org delete',
        'user remove',
        'key rotate',
        'items import',
        'items delete',
        'db copy',
        'backup',
        'audit',
      ]),
    );
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

  it('refuses a database migrated by a newer version (exit 1, one clear line), changing nothing', async () => {
    const future = path.join(sandbox.dir, 'future.db');
    expectSuccess(await sandbox.run(['migrate'], { env: { DATABASE_URL: future } }));
    const db = new Database(future);
    db.prepare(
      "INSERT INTO schema_migrations (version, name, applied_at) VALUES (9999, 'from_the_future', 0)",
    ).run();
    db.close();
    const latest = SQLITE_MIGRATIONS[SQLITE_MIGRATIONS.length - 1]?.version;
    for (const args of [['migrate'], ['org', 'list']]) {
      expectFailure(await sandbox.run(args, { env: { DATABASE_URL: future } }), {
        status: 1,
        message: new RegExp(
          `migrated by a newer version of Stockroom \\(schema 9999, this binary knows up to ${latest}\\); upgrade Stockroom`,
        ),
      });
    }
    const check = new Database(future, { readonly: true });
    try {
      const versions = check
        .prepare('SELECT version FROM schema_migrations ORDER BY version')
        .all();
      expect(versions.map((row) => (row as { version: number }).version)).toEqual([
        ...SQLITE_MIGRATIONS.map((m) => m.version),
        9999,
      ]);
    } finally {
      check.close();
    }
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
