import { type ChildProcessWithoutNullStreams, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { PostgresStore } from '../store/postgres/postgres-store.js';
import { SqliteStore } from '../store/sqlite/sqlite-store.js';
import { BIN, createCliSandbox } from '../testing/cli-harness.js';
import { createTestSchema, postgresUnavailable } from '../testing/postgres.js';

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
  /** stdout and stderr so far (they keep growing). */
  stdoutNow(): string;
  stderr(): string;
  /** Resolves once stdout matches `pattern` (past or future); rejects if the process exits first. */
  waitForStdout(pattern: RegExp): Promise<void>;
}

/**
 * Starts `stockroom serve …` and resolves once it has printed where it listens: the banner, or
 * with --json its one JSON line.
 */
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
  const waiters: Array<{ pattern: RegExp; resolve(): void; reject(error: Error): void }> = [];
  const waitForStdout = (pattern: RegExp) =>
    new Promise<void>((resolve, reject) => {
      if (pattern.test(stdout)) resolve();
      else if (child.exitCode !== null || child.signalCode !== null) {
        reject(new Error(`serve exited before printing ${pattern}:\n${stdout}`));
      } else waiters.push({ pattern, resolve, reject });
    });
  child.on('exit', (code, signal) => {
    for (const waiter of waiters.splice(0)) {
      waiter.reject(
        new Error(`serve exited (${code ?? signal}) before printing ${waiter.pattern}:\n${stdout}`),
      );
    }
  });
  child.stdout.on('data', (chunk: string) => {
    stdout += chunk;
    for (const waiter of [...waiters]) {
      if (waiter.pattern.test(stdout)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  });
  return new Promise((resolve, reject) => {
    child.stdout.on('data', () => {
      const api = /API: +(http:\/\/\S+)\/api\/v1/.exec(stdout);
      const json = /^\{.*\}\n/.test(stdout) ? JSON.parse(stdout.split('\n')[0] as string) : null;
      const apiUrl = api && /Docs: /.test(stdout) ? api[1] : json?.apiUrl;
      if (typeof apiUrl === 'string') {
        resolve({
          child,
          apiUrl,
          stdout,
          stdoutNow: () => stdout,
          stderr: () => stderr,
          waitForStdout,
        });
      }
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

  it('--json prints exactly one JSON object on stdout once listening, and logs to stderr', async () => {
    const db = path.join(sandbox.dir, 'json.db');
    const started = await start(['--port', '0', '--docs-port', '0', '--json'], {
      DATABASE_URL: db,
      LOG_LEVEL: 'info',
    });
    const ready = JSON.parse(started.stdout);
    expect(ready).toEqual({
      apiUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      docsUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      demo: {
        organizationId: expect.stringMatching(/^[0-9a-f]{24}$/),
        organizationSlug: 'demo-outfitters',
        keyId: expect.stringMatching(/^[0-9a-f]{24}$/),
        key: expect.stringMatching(/^sr_org_[0-9A-Za-z]{38}$/),
      },
    });
    // The key works, and is the one the JSON names.
    const verify = await fetch(`${ready.apiUrl}/api/v1/auth/verify`, {
      headers: { 'x-api-key': ready.demo.key },
    });
    expect(verify.status).toBe(200);
    expect((await verify.json()).key).toMatchObject({
      id: ready.demo.keyId,
      organizationId: ready.demo.organizationId,
    });
    expect((await fetch(`${ready.docsUrl}/openapi.json`)).status).toBe(200);
    expect(await stop(started)).toBe(0);
    // Request and shutdown logs went to stderr; stdout is still the one line.
    expect(started.stdoutNow()).toBe(started.stdout);
    expect(started.stdout.trim().split('\n')).toHaveLength(1);
    expect(started.stderr()).toContain('"msg":"request"');
    expect(started.stderr()).toContain('shutting down');

    // A start that seeds nothing says so with demo: null.
    const again = await start(['--port', '0', '--docs-port', '0', '--json'], {
      DATABASE_URL: db,
    });
    expect(JSON.parse(again.stdout)).toEqual({
      apiUrl: expect.any(String),
      docsUrl: expect.any(String),
      demo: null,
    });
    expect(await stop(again)).toBe(0);
  });

  it.each([
    ['one process', []],
    ['two workers', ['--workers', '2']],
  ])(
    'ignores a repeated SIGTERM or SIGINT while it drains (%s), and still finishes every request',
    async (name, workers) => {
      const db = path.join(sandbox.dir, `drain-${name.replace(' ', '-')}.db`);
      const started = await start(['--port', '0', '--docs-port', '0', '--no-demo', ...workers], {
        DATABASE_URL: db,
        LOG_LEVEL: 'info',
      });
      const { hostname, port } = new URL(started.apiUrl);
      // On each connection, in one write: a whole request, and the start of a second one whose
      // headers are not complete. Once the first is answered the server has read the second's
      // start too, so it is in flight: the drain cannot end before it is answered, and every
      // signal below arrives while the drain runs.
      const request = `GET /api/v1/health HTTP/1.1\r\nHost: ${hostname}\r\n`;
      const sockets: Socket[] = [];
      const replies: Array<Promise<string>> = [];
      for (let i = 0; i < 3; i++) {
        const socket = connect(Number(port), hostname);
        let reply = '';
        const firstAnswered = new Promise<void>((resolve) => {
          socket.setEncoding('utf8').on('data', (chunk: string) => {
            reply += chunk;
            if (reply.includes('"status":"ok"')) resolve();
          });
        });
        replies.push(once(socket, 'close').then(() => reply));
        socket.write(`${request}\r\n${request}`);
        await firstAnswered;
        sockets.push(socket);
      }
      const exited = once(started.child, 'exit');
      started.child.kill('SIGTERM');
      await started.waitForStdout(
        /shutting down: (finishing|workers finish their) in-flight requests/,
      );
      started.child.kill('SIGTERM');
      await started.waitForStdout(/"signal":"SIGTERM".*already shutting down/);
      started.child.kill('SIGINT');
      await started.waitForStdout(/"signal":"SIGINT".*already shutting down.*SIGKILL/);
      for (const socket of sockets) socket.end('Connection: close\r\n\r\n');
      for (const reply of await Promise.all(replies)) {
        // Both requests of the connection answered, the second after every signal.
        expect(reply.match(/HTTP\/1\.1 200 OK\r\n/g)).toHaveLength(2);
        expect(reply.match(/"status":"ok"/g)).toHaveLength(2);
      }
      const [code, signal] = await exited;
      expect({ code, signal }).toEqual({ code: 0, signal: null });
    },
  );

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

  it('--workers 2 --json prints one JSON object once every worker listens, logs on stderr', async () => {
    const db = path.join(sandbox.dir, 'cluster-json.db');
    const started = await start(['--port', '0', '--docs-port', '0', '--workers', '2', '--json'], {
      DATABASE_URL: db,
      LOG_LEVEL: 'info',
    });
    const ready = JSON.parse(started.stdout);
    expect(ready).toEqual({
      apiUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      docsUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      demo: {
        organizationId: expect.stringMatching(/^[0-9a-f]{24}$/),
        organizationSlug: 'demo-outfitters',
        keyId: expect.stringMatching(/^[0-9a-f]{24}$/),
        key: expect.stringMatching(/^sr_org_[0-9A-Za-z]{38}$/),
      },
    });
    const response = await fetch(`${ready.apiUrl}/api/v1/inventory/items?limit=1`, {
      headers: { 'x-api-key': ready.demo.key },
    });
    expect(response.status).toBe(200);
    expect(await stop(started)).toBe(0);
    expect(started.stdoutNow()).toBe(started.stdout);
    expect(started.stdout.trim().split('\n')).toHaveLength(1);
    expect(started.stderr()).toContain('"msg":"request"');
  });
});

const noPostgres = await postgresUnavailable();
describe('stockroom serve, as an operator sees it', () => {
  it('refuses a public admin host under NODE_ENV=production, starting nothing', async () => {
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--docs-port', '0'], {
      cwd: sandbox.dir,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        ADMIN_TOKEN: 'a'.repeat(40),
        ADMIN_HOST: '0.0.0.0',
        DATABASE_URL: path.join(sandbox.dir, 'refused.db'),
      },
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const [code] = await once(child, 'exit');
    expect(code).toBe(1);
    expect(stderr).toContain('ADMIN_HOST is 0.0.0.0, which other machines can reach');
    expect(stderr).toContain('ALLOW_PUBLIC_ADMIN=true');
  });

  it('in a terminal: readable log lines, the start-up summary, then the banner with the demo key last', async () => {
    // `script` gives the server a pseudo-terminal as stdout, as a person running it has.
    const database = path.join(sandbox.dir, `tty-${process.pid}.db`);
    const command = `exec ${process.execPath} ${BIN} serve --port 0 --docs-port 0 --database ${database}`;
    const child = spawn('script', ['-qfec', command, '/dev/null'], {
      cwd: sandbox.dir,
      env: { ...process.env, NODE_ENV: 'development', LOG_LEVEL: 'info' },
    });
    children.add(child);
    let output = '';
    const banner = new Promise<void>((resolve, reject) => {
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        output += chunk;
        if (/Try it:[\s\S]*fields=_id,name,sku,quantity"/.test(output)) resolve();
      });
      child.on('exit', () => reject(new Error(`serve exited before its banner:\n${output}`)));
    });
    await banner;
    const text = stripVTControlCharacters(output).replace(/\r/g, '');
    expect(text).not.toContain('{"level"');
    expect(text).toMatch(/^\[\d{2}:\d{2}:\d{2}\] INFO: stockroom started \{"startup":\{"version"/m);
    const summaryAt = text.indexOf('stockroom started');
    const bannerAt = text.indexOf('Stockroom is running.');
    expect(summaryAt).toBeGreaterThan(-1);
    expect(bannerAt).toBeGreaterThan(summaryAt);
    // Nothing logged after the banner: the key is the last thing on the screen.
    expect(text.slice(bannerAt)).not.toMatch(/\] (INFO|WARN)/);
    expect(text).toMatch(/\n {2}sr_org_[0-9A-Za-z]{38}\n/);
    // The server is the node process whose command line names this test's database.
    const pid = Number(
      execFileSync('pgrep', ['-f', `^${process.execPath} ${BIN} serve .*${database}`], {
        encoding: 'utf8',
      }).trim(),
    );
    const exited = once(child, 'exit');
    process.kill(pid, 'SIGTERM');
    await exited;
  });
});

if (noPostgres) console.warn(`[serve] skipping the PostgreSQL leg: ${noPostgres}`);

describe.skipIf(noPostgres !== null)('stockroom serve on PostgreSQL', () => {
  it('never seeds the demo, even into an empty database', async () => {
    const schema = await createTestSchema();
    try {
      const started = await start(['--port', '0', '--docs-port', '0', '--json'], {
        DATABASE_URL: schema.url,
      });
      expect(JSON.parse(started.stdout)).toMatchObject({ demo: null });
      expect(await stop(started)).toBe(0);
      const store = new PostgresStore(schema.url);
      try {
        // Migrated by the start, and still empty.
        expect(await store.migrate()).toEqual([]);
        expect(await store.countOrganizations()).toBe(0);
      } finally {
        await store.close();
      }
    } finally {
      await schema.drop();
    }
  });
});
