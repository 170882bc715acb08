import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BIN,
  type CliRun,
  createCliSandbox,
  expectFailure,
  expectSuccess,
} from '../testing/cli-harness.js';

/**
 * The `stockroom` binary itself, as a process: what the in-process entry (run.ts) cannot show.
 * Every other CLI test runs its commands in the test's process.
 */
const sandbox = createCliSandbox();
afterAll(() => sandbox.cleanup());

const quote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

/** Runs a shell command line in the sandbox with the sandbox's database. */
function shell(
  command: string,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', command], {
      cwd: sandbox.dir,
      env: { ...process.env, DATABASE_URL: sandbox.dbPath },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

const stockroom = `${quote(process.execPath)} ${quote(BIN)}`;

/** What a run shows a caller: its exit code and the bytes on each stream. */
function seen(run: CliRun) {
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('the stockroom binary', () => {
  beforeAll(async () => {
    expectSuccess(await sandbox.run(['org', 'create', '--name', 'Acme', '--slug', 'acme']));
  });

  it.each([
    [['--help']],
    [['key', '--help']],
    [['--version']],
    [['org', 'show', 'acme', '--json']],
    [['org', 'show', 'nope']],
    [['org', 'show', 'nope', '--json']],
    [['nope']],
    [['--json', 'nope']],
    [[]],
    [['key']],
  ])('%j: the same exit code and bytes as the in-process entry', async (args) => {
    const binary = await sandbox.runBinary(args);
    expect(seen(binary)).toEqual(seen(await sandbox.run(args)));
  });

  it('exits 0, 1 and 2 as the process', async () => {
    expectSuccess(await sandbox.runBinary(['org', 'list', '--json']), { json: true });
    expectFailure(await sandbox.runBinary(['org', 'show', 'nope', '--json']), {
      status: 1,
      code: 'ORGANIZATION_NOT_FOUND',
      json: true,
    });
    expectFailure(await sandbox.runBinary(['org', 'list', '--bogus']), {
      status: 2,
      message: /^stockroom: unknown option '--bogus'$/,
    });
  });

  it('migrates a database given relative to its working directory', async () => {
    const run = await sandbox.runBinary(['--database', 'relative.db', 'migrate', '--json']);
    expectSuccess(run, { json: true });
    expect(run.json.database).toBe(path.join(sandbox.dir, 'relative.db'));
  });

  it('exits 0, silently, when its reader stops early (`| head -1`)', async () => {
    // Far more than a pipe holds (64 KiB), so the binary is still writing when head exits.
    const store = sandbox.store();
    for (let i = 0; i < 600; i++) {
      await store.createOrganization({
        name: `Organization ${i} ${'x'.repeat(150)}`,
        slug: `org-${i}`,
        features: ['inventory'],
      });
    }
    const { stdout, stderr } = await shell(
      `${stockroom} org list | head -1; echo "exit \${PIPESTATUS[0]}" >&2`,
    );
    expect(stdout).toMatch(/^ID +SLUG/);
    expect(stdout.split('\n')).toHaveLength(2);
    expect(stderr).toBe('exit 0\n');
  });
});

/** `script` (util-linux) runs a command under a pseudo-terminal, as a person's shell would. */
const hasScript = spawnSync('script', ['--version']).status === 0;

/** Runs a shell command with a terminal as its stdin, stdout and stderr; returns what it showed. */
function inTerminal(command: string): Promise<{ status: number | null; screen: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qfec', command, '/dev/null'], {
      cwd: sandbox.dir,
      env: { ...process.env, DATABASE_URL: sandbox.dbPath },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let screen = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      screen += chunk;
    });
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, screen }));
  });
}

describe('stockroom items import in a terminal', () => {
  it.runIf(hasScript)(
    'draws the progress bar on stderr when it is a terminal, with or without --json',
    async () => {
      expectSuccess(await sandbox.run(['org', 'create', '--name', 'Shop', '--slug', 'shop']));
      const csv = sandbox.file('progress.csv', 'name,sku\nA,A1\nB,B1\n');
      for (const json of [false, true]) {
        // stdout goes to a file: the terminal shows only what the import writes to stderr.
        const out = path.join(sandbox.dir, `progress-${json}.out`);
        const command = [
          stockroom,
          'items import',
          quote(csv),
          '--org shop',
          json ? '--json' : '',
          `> ${quote(out)}`,
        ].join(' ');
        const { status, screen } = await inTerminal(command);
        expect(status, screen).toBe(0);
        expect(screen).toMatch(/Checking {2}\[[█░]+\] 100% \| 0\.0 MB/);
        expect(screen).toMatch(/Importing \[[█░]+\] 100% \| 2\/2 rows/);
        const stdout = readFileSync(out, 'utf8');
        if (json) expect(JSON.parse(stdout)).toMatchObject({ failed: 0, errors: [] });
        else expect(stdout).toMatch(/^Imported .* 0 failed\n$/);
      }
      // Piped stderr (not a terminal) gets no bar: nothing at all on success.
      const piped = await sandbox.runBinary(['items', 'import', csv, '--org', 'shop', '--json']);
      expectSuccess(piped, { json: true });
      expect(piped.stderr).toBe('');
    },
  );
});
