import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCliSandbox, expectFailure, expectSuccess } from '../testing/cli-harness.js';
import { run } from './run.js';

/**
 * The in-process entry itself: every CLI test runs its commands through it, many in one
 * process, so a command must leave nothing of itself behind.
 */
const sandbox = createCliSandbox();
afterAll(() => sandbox.cleanup());

/** This process's open file descriptors (Linux: /proc). */
function openFiles(): number {
  return readdirSync('/proc/self/fd').length;
}

/** The handles and timers of this process that `before` did not have (the runner's come and go). */
function newHandles(before: string[]): string[] {
  const left = [...before];
  return process.getActiveResourcesInfo().filter((kind) => {
    const i = left.indexOf(kind);
    if (i === -1) return true;
    left.splice(i, 1);
    return false;
  });
}

describe('run (the in-process entry)', () => {
  it('resolves with the exit code and writes only to the streams it is given', async () => {
    const written: string[] = [];
    const stream = { write: (text: string) => written.push(text) };
    const io = { stdout: stream, stderr: stream, env: {}, cwd: sandbox.dir };
    expect(await run(['--version'], io)).toBe(0);
    expect(await run(['nope'], io)).toBe(2);
    expect(await run(['org', 'list', '--database', sandbox.dir], io)).toBe(1);
    expect(written).toEqual([
      expect.stringMatching(/^\d+\.\d+\.\d+\n$/),
      "stockroom: unknown command 'nope'\n",
      expect.stringMatching(/^stockroom: cannot open the SQLite database/),
    ]);
  });

  it('closes every store and file before it resolves, whether the command succeeds or fails', async () => {
    // One command of each kind first: modules load and their lasting resources settle.
    expectSuccess(await sandbox.run(['org', 'create', '--name', 'Acme', '--slug', 'acme']));
    const files = openFiles();
    const handles = process.getActiveResourcesInfo();
    const csv = sandbox.file('items.csv', 'name,sku\nLamp,L-1\nDesk,\n');
    const bad = sandbox.file('bad.json', '[{"name": "x"},');
    expectSuccess(await sandbox.run(['items', 'import', csv, '--org', 'acme']));
    expectFailure(await sandbox.run(['items', 'import', bad, '--org', 'acme']), { status: 1 });
    expectSuccess(await sandbox.run(['key', 'create', '--org', 'acme', '--json']));
    expectFailure(await sandbox.run(['org', 'show', 'nope']), { status: 1 });
    expectSuccess(await sandbox.run(['backup', path.join(sandbox.dir, 'copy.db')]));
    expectFailure(await sandbox.run(['org', 'list', '--database', sandbox.dir]), { status: 1 });
    // One turn of the event loop: a request whose callback has run (a file's close) is freed
    // only once that callback returns, and the synchronous SQLite store gives no turn of its own.
    await new Promise((resolve) => setImmediate(resolve));
    expect(openFiles()).toBe(files);
    expect(newHandles(handles)).toEqual([]);
  });

  it('reads the environment and working directory it is given, never changing the process’s', async () => {
    const env = { ...process.env };
    const cwd = process.cwd();
    const [one, two] = await Promise.all(
      ['one', 'two'].map((name) =>
        sandbox.run(['migrate', '--json'], {
          env: { DATABASE_URL: `${name}.db`, STOCKROOM_ONLY_IN_IO: name },
        }),
      ),
    );
    expect(one?.json.database).toBe(path.join(sandbox.dir, 'one.db'));
    expect(two?.json.database).toBe(path.join(sandbox.dir, 'two.db'));
    expect(existsSync(path.join(sandbox.dir, 'one.db'))).toBe(true);
    expect(process.env).toEqual(env);
    expect(process.cwd()).toBe(cwd);
  });
});
