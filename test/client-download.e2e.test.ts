import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_TARBALL, DOWNLOADS_DIR } from '../packages/server/src/docs/downloads.js';
import { startTestServer, type TestServer } from '../packages/server/src/testing/harness.js';

/**
 * The client as the docs tell an integrator to get it (issue 34): `npm install
 * {docs_url}/downloads/stockroom-client.tgz` from a running server's docs host, into a fresh
 * TypeScript project with no access to any registry, then type-checked with the repository's
 * tsc and run against that server's API. The tarball is the one the build packed
 * (`npm run build`; `npm run test:e2e` builds first).
 */

const run = promisify(execFile);
const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');

/** The child npm must not inherit the settings of an `npm test` that may have started us. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!/^npm_/i.test(name) && name !== 'INIT_CWD') env[name] = value;
  }
  return { ...env, NO_UPDATE_NOTIFIER: '1', ...extra };
}

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    outDir: 'out',
    types: [],
    lib: ['ES2022', 'DOM'],
    skipLibCheck: false,
  },
  include: ['src'],
};

const SOURCE = `declare const process: { env: Record<string, string | undefined> };
import {
  ConfigurationError,
  NotFoundError,
  Stockroom,
  type InventoryItem,
  type RetryEvent,
} from '@stockroom/client';

const retries: RetryEvent[] = [];
const stockroom = new Stockroom({
  baseUrl: process.env.API_URL,
  apiKey: process.env.API_KEY,
  maxRetryWait: 2_000,
  onRetry: (event) => retries.push(event),
});
const page = await stockroom.inventory.list({ limit: 3, fields: ['_id', 'name'] });
const first: { _id: string; name: string } | undefined = page.data[0];
// @ts-expect-error the installed types narrow to the selected fields
first?.quantity;
const item: InventoryItem = await stockroom.inventory.get(first?._id ?? '');

let missingKey = '';
try {
  new Stockroom({ baseUrl: process.env.API_URL });
} catch (error) {
  if (error instanceof ConfigurationError) missingKey = error.code;
}
const lost = new Stockroom({ baseUrl: process.env.DOCS_URL, apiKey: process.env.API_KEY });
const docsHost = await lost.organization.get().catch((error: unknown) =>
  error instanceof NotFoundError ? error.message : String(error),
);
console.log(JSON.stringify({ count: page.count, name: item.name, missingKey, docsHost, retries: retries.length }));
`;

describe('the client installed from the docs host', () => {
  let server: TestServer;
  let dir: string;
  let project: string;
  let installed: string;

  beforeAll(async () => {
    try {
      readFileSync(path.join(DOWNLOADS_DIR, CLIENT_TARBALL));
    } catch {
      throw new Error('no client tarball in packages/server/dist/downloads: run `npm run build`');
    }
    server = await startTestServer({ listen: true });
    dir = mkdtempSync(path.join(tmpdir(), 'stockroom-client-download-'));
    project = path.join(dir, 'consumer');
    mkdirSync(path.join(project, 'src'), { recursive: true });
    writeFileSync(
      path.join(project, 'package.json'),
      JSON.stringify({ name: 'consumer', private: true, type: 'module' }, null, 2),
    );
    writeFileSync(path.join(project, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
    writeFileSync(path.join(project, 'src', 'main.ts'), SOURCE);
    installed = `${server.docsUrl}/downloads/stockroom-client.tgz`;
    // A fresh cache, and a registry on which nothing listens: the install can only succeed by
    // downloading the tarball from the docs host, and needs nothing else (no dependencies).
    await run(
      'npm',
      [
        'install',
        installed,
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
        `--cache=${path.join(dir, 'npm-cache')}`,
        '--registry=http://127.0.0.1:9/',
        '--fetch-retries=0',
      ],
      { cwd: project, env: cleanEnv() },
    );
  }, 180_000);

  afterAll(async () => {
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('records the docs URL as where the dependency comes from', () => {
    const manifest = JSON.parse(readFileSync(path.join(project, 'package.json'), 'utf8'));
    expect(manifest.dependencies).toEqual({ '@stockroom/client': installed });
    const client = JSON.parse(
      readFileSync(
        path.join(project, 'node_modules', '@stockroom', 'client', 'package.json'),
        'utf8',
      ),
    );
    expect(client.name).toBe('@stockroom/client');
    expect(client.dependencies ?? {}).toEqual({});
  });

  it('type-checks with the installed declarations and runs against the API', async () => {
    const compiled = await run(process.execPath, [TSC, '-p', project], { cwd: project }).catch(
      (error: { stdout: string }) => ({ stdout: error.stdout, failed: true }),
    );
    expect(compiled.stdout).toBe('');
    expect('failed' in compiled).toBe(false);
    const { stdout } = await run(process.execPath, [path.join(project, 'out', 'main.js')], {
      cwd: project,
      env: cleanEnv({
        API_URL: server.apiUrl,
        API_KEY: server.demo.key,
        DOCS_URL: server.docsUrl,
        STOCKROOM_API_KEY: '',
      }),
    });
    const result = JSON.parse(stdout);
    expect(result.count).toBe(3);
    expect(typeof result.name).toBe('string');
    expect(result.missingKey).toBe('MISSING_API_KEY');
    expect(result.docsHost).toContain('this looks like the documentation host');
    expect(result.retries).toBe(0);
  }, 120_000);
});
