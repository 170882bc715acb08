import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

/**
 * The server package as someone outside the repository gets it: `npm pack` (whose prepack
 * builds it, docs site included), `npm install <tarball>` into an empty folder, then
 * `npx stockroom serve` there, with the docs host serving the site built into the package.
 * Slow: the install compiles better-sqlite3 where no prebuilt binary can be fetched.
 */

const run = promisify(execFile);
const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));

/** This environment without what `npm run`/`npx` put in it for the repository. */
function outsideEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!/^npm_/i.test(name) && name !== 'INIT_CWD') env[name] = value;
  }
  return { ...env, NO_UPDATE_NOTIFIER: '1', ...extra };
}

let work: string;
let app: string;
let files: string[];
let server: ChildProcess | undefined;
let exited: Promise<unknown> | undefined;
let urls: { apiUrl: string; docsUrl: string };

/** Starts `npx stockroom serve --json` in the install, and reads the URLs it bound. */
async function serve(): Promise<{ apiUrl: string; docsUrl: string }> {
  const child = spawn('npx', ['--no-install', 'stockroom', 'serve', '--json', '--no-demo'], {
    cwd: app,
    env: outsideEnv({
      DATABASE_URL: path.join(work, 'stockroom.db'),
      PORT: '0',
      DOCS_PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server = child;
  exited = new Promise((resolve) => child.once('exit', resolve));
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    let stdout = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const line = stdout.split('\n').find((candidate) => candidate.startsWith('{'));
      if (line && stdout.includes('\n')) resolve(JSON.parse(line));
    });
    child.once('exit', (code) =>
      reject(new Error(`stockroom serve exited (${code}) before it was ready:\n${stderr}`)),
    );
  });
}

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'stockroom-package-'));
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', work], {
    cwd: PACKAGE_DIR,
    env: outsideEnv(),
    maxBuffer: 64 * 1024 * 1024,
  });
  const [packed] = JSON.parse(stdout) as Array<{
    filename: string;
    files: Array<{ path: string }>;
  }>;
  if (!packed) throw new Error('npm pack reported no package');
  files = packed.files.map((file) => file.path);
  app = path.join(work, 'app');
  mkdirSync(app);
  // An empty project, so that npm installs here and not into a folder above.
  writeFileSync(path.join(app, 'package.json'), '{ "private": true }\n');
  await run(
    'npm',
    ['install', path.join(work, packed.filename), '--no-audit', '--no-fund', '--loglevel=error'],
    { cwd: app, env: outsideEnv(), maxBuffer: 64 * 1024 * 1024 },
  );
  urls = await serve();
}, 1_800_000);

afterAll(async () => {
  server?.kill('SIGTERM');
  await exited;
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the packed server', () => {
  test('holds the built docs site and the public entry, and no test code', () => {
    expect(files).toContain('bin/stockroom.js');
    expect(files).toContain('dist/index.js');
    expect(files).toContain('dist/cli/main.js');
    expect(files).toContain('dist/site/site.json');
    expect(files).toContain('dist/site/en/docs/introduction.html');
    expect(files).toContain('dist/site/openapi.json');
    expect(files.filter((file) => /(^|\/)testing(\/|\.)/.test(file))).toEqual([]);
    expect(files.filter((file) => /\.test\.[cm]?js/.test(file))).toEqual([]);
    // The renderer is a build step: neither it nor its packages are installed.
    expect(files.filter((file) => file.startsWith('dist/docs/build/'))).toEqual([]);
    expect(existsSync(path.join(app, 'node_modules', 'unified'))).toBe(false);
    expect(existsSync(path.join(app, 'node_modules', 'remark-parse'))).toBe(false);
  });

  test('`npx stockroom serve` answers the API', async () => {
    const health = await fetch(`${urls.apiUrl}/api/v1/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok', checks: { database: 'ok' } });
  });

  test('with the full docs host: pages, llms.txt and the OpenAPI document at its own URLs', async () => {
    const page = await fetch(`${urls.docsUrl}/en/docs/introduction`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await page.text();
    expect(html).toContain(`<link rel="canonical" href="${urls.docsUrl}/en/docs/introduction">`);
    const markdown = await fetch(`${urls.docsUrl}/es/docs/api-reference`, {
      headers: { accept: 'text/markdown' },
    });
    expect(markdown.status).toBe(200);
    expect(await markdown.text()).toContain(`\`${urls.apiUrl}\``);
    const llms = await fetch(`${urls.docsUrl}/llms.txt`);
    expect(llms.status).toBe(200);
    const index = await llms.text();
    expect(index).toContain(`${urls.docsUrl}/en/docs/introduction.mdx`);
    expect(index).toContain(`The API itself: ${urls.apiUrl}/api/v1/.`);
    const openapi = (await (await fetch(`${urls.docsUrl}/openapi.json`)).json()) as {
      servers: unknown;
    };
    expect(openapi.servers).toEqual([{ url: urls.apiUrl }]);
    for (const text of [html, index, JSON.stringify(openapi)]) {
      expect(text).not.toContain('stockroom.invalid');
    }
  });

  test('serves the client package it was packed with, at /downloads/stockroom-client.tgz', async () => {
    expect(files).toContain('dist/downloads/stockroom-client.tgz');
    const response = await fetch(`${urls.docsUrl}/downloads/stockroom-client.tgz`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/gzip');
    const served = Buffer.from(await response.arrayBuffer());
    const inPackage = readFileSync(
      path.join(app, 'node_modules', 'stockroom', 'dist', 'downloads', 'stockroom-client.tgz'),
    );
    expect(served.equals(inPackage)).toBe(true);
    // The client's own package: its manifest is in it, under npm's `package/` folder.
    const unpacked = gunzipSync(served).toString('latin1');
    expect(unpacked).toContain('package/package.json');
    expect(unpacked).toContain('"name": "@stockroom/client"');
  });

  test("the package's entry point imports", async () => {
    const { stdout } = await run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "const m = await import('stockroom'); console.log(typeof m.startServer, typeof m.loadConfig, m.VERSION);",
      ],
      { cwd: app, env: outsideEnv() },
    );
    expect(stdout.trim()).toMatch(/^function function \d+\.\d+\.\d+/);
  });
});
