import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteStore } from '../store/sqlite/sqlite-store.js';
import { BIN, createCliSandbox, expectFailure } from '../testing/cli-harness.js';

const sandbox = createCliSandbox();
const children = new Set<ChildProcessWithoutNullStreams>();
afterAll(() => {
  // Only if a test failed half-way: never leave a server running.
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  sandbox.cleanup();
});

interface Started {
  child: ChildProcessWithoutNullStreams;
  apiUrl: string;
  stdout: string;
}

/** Starts `stockroom serve …` and resolves once it has printed where it listens. */
async function start(args: string[], env: Record<string, string>): Promise<Started> {
  const child = spawn(process.execPath, [BIN, 'serve', ...args], {
    cwd: sandbox.dir,
    env: { ...process.env, LOG_LEVEL: 'silent', NODE_ENV: 'development', ...env },
  });
  children.add(child);
  let stdout = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  child.stdout.setEncoding('utf8');
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: string) => {
      stdout += chunk;
      const api = /API: +(http:\/\/\S+)\/api\/v1/.exec(stdout);
      if (api && /Docs: /.test(stdout)) resolve({ child, apiUrl: api[1] as string, stdout });
    });
    child.on('exit', (code) =>
      reject(new Error(`serve exited with ${code} before listening: ${stderr}`)),
    );
  });
}

/**
 * SIGTERM, then the exit status. One request is answered first: the server can only answer
 * after the code that printed the banner has run to the end, signal handlers included, so a
 * signal sent earlier could hit the default action (terminate) instead of the graceful stop.
 */
async function stop(started: Started): Promise<number | string> {
  expect((await fetch(`${started.apiUrl}/api/v1/health`)).status).toBe(200);
  const exited = once(started.child, 'exit');
  started.child.kill('SIGTERM');
  const [code, signal] = await exited;
  return code ?? (signal as string);
}

describe('stockroom serve', () => {
  it('turns flags into configuration that beats the environment, and honours --no-demo', async () => {
    const db = path.join(sandbox.dir, 'nodemo.db');
    // The environment's PORT and DATABASE_URL would fail; the flags must win.
    const started = await start(
      [
        '--port',
        '0',
        '--docs-port',
        '0',
        '--host',
        '127.0.0.1',
        '--workers',
        '1',
        '--no-demo',
        '--database',
        db,
      ],
      { PORT: 'not-a-port', DATABASE_URL: path.join(sandbox.dir, 'unused', 'x.db') },
    );
    expect(started.apiUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await stop(started)).toBe(0);
    const store = new SqliteStore(db);
    try {
      expect(await store.countOrganizations()).toBe(0);
    } finally {
      await store.close();
    }
  });

  it('seeds the demo organization by default on a fresh database', async () => {
    const db = path.join(sandbox.dir, 'demo.db');
    const started = await start(['--port', '0', '--docs-port', '0'], { DATABASE_URL: db });
    expect(await stop(started)).toBe(0);
    const store = new SqliteStore(db);
    try {
      expect(await store.countOrganizations()).toBe(1);
    } finally {
      await store.close();
    }
  });

  it('runs --workers 2 on a fresh SQLite file: seeds the demo once, prints its key, serves it', async () => {
    const db = path.join(sandbox.dir, 'cluster.db');
    const started = await start(['--port', '0', '--docs-port', '0', '--workers', '2'], {
      DATABASE_URL: db,
    });
    // Printed once every worker listens: wait for the whole of it.
    const banner = await new Promise<string>((resolve) => {
      let text = started.stdout;
      const check = () => {
        if (/Try it:(\n {2}curl .*){3}/.test(text)) resolve(text);
      };
      started.child.stdout.on('data', (chunk: string) => {
        text += chunk;
        check();
      });
      check();
    });
    expect(banner).toContain('Stockroom is running with 2 workers.');
    const key = /\n {2}(sr_org_[0-9A-Za-z]{38})\n/.exec(banner)?.[1] as string;
    const response = await fetch(`${started.apiUrl}/api/v1/inventory/items?limit=1`, {
      headers: { 'x-api-key': key },
    });
    expect(response.status).toBe(200);
    expect(await stop(started)).toBe(0);
    const store = new SqliteStore(db);
    try {
      expect(await store.countOrganizations()).toBe(1);
    } finally {
      await store.close();
    }
  });

  it.each([
    [['--port', 'abc'], /option '--port <PORT>' argument 'abc' is invalid. must be a port number/],
    [['--docs-port', '70000'], /option '--docs-port <PORT>' argument '70000' is invalid/],
    [['--workers', '0'], /option '--workers <N\|auto>' argument '0' is invalid/],
    [['--workers', 'many'], /must be a number of processes from 1 to 256, or "auto"/],
    [['--demo'], /unknown option '--demo'/],
  ])('serve %j is a usage error (exit 2) and starts nothing', async (args, message) => {
    expectFailure(await sandbox.run(['serve', ...args]), { status: 2, message });
    expect(sandbox.dump()).toBeNull();
  });

  it('a bad setting in the environment is exit 1 naming the variable', async () => {
    expectFailure(await sandbox.run(['serve', '--json'], { env: { PORT: '99999' } }), {
      status: 1,
      code: 'INVALID_CONFIG',
      json: true,
      message: /^stockroom: PORT must be a port number from 0 to 65535, got "99999"$/,
    });
  });
});
