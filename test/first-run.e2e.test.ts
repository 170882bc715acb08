import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * The newcomer's path: `stockroom serve` (what `npm start` runs) on a fresh directory creates
 * the database, seeds the demo, and prints URLs, a key and three curl commands that work.
 */
const BIN = path.resolve(import.meta.dirname, '../packages/server/bin/stockroom.js');
const children: ChildProcess[] = [];
const dirs: string[] = [];

interface Started {
  child: ChildProcess;
  banner: string;
  exited: Promise<number | null>;
}

function freshDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'stockroom-first-run-'));
  dirs.push(dir);
  return dir;
}

/** Starts the real binary and resolves once it has printed its banner. */
function serve(
  cwd: string,
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<Started> {
  const childEnv: Record<string, string | undefined> = {
    ...process.env,
    PORT: '0',
    DOCS_PORT: '0',
    LOG_LEVEL: 'warn',
    ...env,
  };
  delete childEnv.DATABASE_URL;
  if (!('NODE_ENV' in env)) delete childEnv.NODE_ENV;
  const child = spawn(process.execPath, [BIN, 'serve', ...args], {
    cwd,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (
        /Stockroom is running\.[\s\S]*\n\n/.test(out) &&
        (out.includes('Try it:')
          ? /Try it:(\n {2}curl .*){3}/.test(out)
          : out.includes('Create a key'))
      ) {
        resolve({ child, banner: out, exited });
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${err}${out}`)));
  });
}

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('first run', () => {
  it('creates ./data/stockroom.db, seeds the demo and prints three curl commands that work', async () => {
    const cwd = freshDir();
    const { child, banner, exited } = await serve(cwd);
    expect(existsSync(path.join(cwd, 'data', 'stockroom.db'))).toBe(true);
    const apiUrl = /API: {2}(http:\/\/127\.0\.0\.1:\d+)\/api\/v1/.exec(banner)?.[1];
    const docsUrl = /Docs: (http:\/\/127\.0\.0\.1:\d+)\//.exec(banner)?.[1];
    expect(apiUrl).toBeDefined();
    expect(docsUrl).toBeDefined();
    expect(banner).toMatch(/\n {2}sr_org_[0-9A-Za-z]{38}\n/);
    const commands = banner.split('\n').filter((line) => line.startsWith('  curl '));
    expect(commands).toHaveLength(3);
    for (const command of commands) {
      // Run each exactly as printed, through a shell, as a person would paste it.
      const status = execFileSync('sh', [
        '-c',
        `${command.trim()} -s -o /dev/null -w '%{http_code}'`,
      ]).toString();
      expect(status, command).toBe('200');
    }
    const items = JSON.parse(execFileSync('sh', ['-c', `${commands[2]?.trim()} -s`]).toString());
    expect(items.count).toBe(5);
    // The demo catalogue: about 50 items, every status, custom fields to look at.
    const key = /\n {2}(sr_org_[0-9A-Za-z]{38})\n/.exec(banner)?.[1] ?? '';
    const all = (await (
      await fetch(`${apiUrl}/api/v1/inventory/items?limit=1000`, { headers: { 'x-api-key': key } })
    ).json()) as { count: number; data: Array<{ status: string; customFields: object }> };
    expect(all.count).toBeGreaterThanOrEqual(40);
    expect(all.count).toBeLessThanOrEqual(60);
    expect(new Set(all.data.map((item) => item.status))).toEqual(
      new Set(['Draft', 'Active', 'Inactive', 'Discontinued']),
    );
    const withCustomFields = all.data.filter((item) => Object.keys(item.customFields).length > 0);
    expect(withCustomFields.length).toBeGreaterThan(all.count / 2);
    const docs = await fetch(`${docsUrl}/openapi.json`);
    expect(docs.status).toBe(200);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);

    // A second start on the same database seeds nothing.
    const again = await serve(cwd);
    expect(again.banner).not.toContain('sr_org_');
    expect(again.banner).toContain('npx stockroom key create');
    again.child.kill('SIGINT');
    expect(await again.exited).toBe(0);
  });

  it('does not seed with --no-demo or NODE_ENV=production', async () => {
    for (const [args, env] of [
      [['--no-demo'], {}],
      [[], { NODE_ENV: 'production' }],
    ] as const) {
      const { child, banner, exited } = await serve(freshDir(), [...args], { ...env });
      expect(banner).not.toContain('sr_org_');
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  });

  it('exits 1 with one line, serving nothing, when the docs port is taken', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const docsPort = (taken.address() as net.AddressInfo).port;
    try {
      const env: Record<string, string | undefined> = {
        ...process.env,
        PORT: '0',
        DOCS_PORT: String(docsPort),
        LOG_LEVEL: 'warn',
      };
      delete env.DATABASE_URL;
      const child = spawn(process.execPath, [BIN, 'serve', '--no-demo'], {
        cwd: freshDir(),
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.push(child);
      let stderr = '';
      child.stderr?.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      // Before the fix the API host kept listening and the process never exited.
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      expect(code).toBe(1);
      expect(stderr).toMatch(new RegExp(`^stockroom: .*EADDRINUSE.*:${docsPort}\n$`));
    } finally {
      taken.close();
    }
  });

  it('finishes in-flight requests on SIGTERM, then exits 0', async () => {
    const { child, banner, exited } = await serve(freshDir(), [], { LOG_LEVEL: 'debug' });
    const apiUrl = /API: {2}(http:\/\/127\.0\.0\.1:\d+)/.exec(banner)?.[1];
    const key = /\n {2}(sr_org_[0-9A-Za-z]{38})\n/.exec(banner)?.[1] ?? '';
    // Open the connections first, so the requests below reuse warm keep-alive connections.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 20 });
    const get = (url: string, headers: Record<string, string> = {}) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        http
          .get(url, { agent, headers }, (response) => {
            let body = '';
            response.on('data', (chunk: Buffer) => {
              body += chunk.toString();
            });
            response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
          })
          .on('error', reject);
      });
    await Promise.all(Array.from({ length: 20 }, () => get(`${apiUrl}/api/v1/health`)));
    // A request the server has not read yet when the signal comes is not in flight: its idle
    // keep-alive connection is closed. Signal only once the server logged every one as received.
    const received = new Promise<void>((resolve) => {
      let seen = 0;
      let partial = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        const lines = (partial + chunk.toString()).split('\n');
        partial = lines.pop() ?? '';
        for (const line of lines) {
          if (line.includes('"request received"') && line.includes('/inventory/items')) seen += 1;
        }
        if (seen === 20) resolve();
      });
    });
    const inFlight = Array.from({ length: 20 }, () =>
      get(`${apiUrl}/api/v1/inventory/items?limit=1000`, { 'x-api-key': key }),
    );
    await received;
    child.kill('SIGTERM');
    const results = await Promise.all(inFlight);
    for (const result of results) {
      expect(result.status).toBe(200);
      expect(JSON.parse(result.body).count).toBe(50);
    }
    expect(await exited).toBe(0);
    agent.destroy();
  });
});
