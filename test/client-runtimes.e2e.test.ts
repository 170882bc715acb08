import { execFile, spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuiltClient } from '../packages/client/src/testing/dist.js';
import { deadUrl } from '../packages/client/src/testing/http-peer.js';
import { startTestServer, type TestServer } from '../packages/server/src/testing/harness.js';

/**
 * The built ESM bundle of @stockroom/client run by Deno and Bun against a real server: every
 * method, an error class, a connection failure, the environment defaults, and an organization
 * key in a worker thread (server-side, so not refused as in a browser's Web Worker), and
 * verifyWebhook (Web Crypto) on a delivery signed here with node:crypto. Deno runs without
 * --allow-env first, where merely reading `process.env` throws.
 *
 * The runtimes are not dependencies of the repository (about 200 MB that no other test needs):
 * this file installs their npm packages, which carry the binaries, into a folder of the system's
 * temp directory the first time it runs, and reuses that folder afterwards.
 */

const run = promisify(execFile);

/** The npm packages of the runtimes, at the versions this test was written against. */
const RUNTIME_PACKAGES = { deno: 'deno@2.9.6', bun: 'bun@1.4.5' } as const;
type Runtime = keyof typeof RUNTIME_PACKAGES;
const RUNTIMES_DIR = path.join(
  tmpdir(),
  `stockroom-test-runtimes-${Object.values(RUNTIME_PACKAGES)
    .join('-')
    .replace(/[^\w.-]/g, '_')}`,
);

/**
 * Installs the runtimes' packages once (into a fresh folder renamed into place when complete, so
 * an interrupted install is never taken for a finished one). Returns why it failed, or null.
 */
async function installRuntimes(): Promise<string | null> {
  if (existsSync(RUNTIMES_DIR)) return null;
  const fresh = `${RUNTIMES_DIR}.${process.pid}`;
  rmSync(fresh, { recursive: true, force: true });
  mkdirSync(fresh, { recursive: true });
  try {
    await run(
      'npm',
      [
        'install',
        '--prefix',
        fresh,
        '--no-save',
        '--no-package-lock',
        '--no-audit',
        '--no-fund',
        ...Object.values(RUNTIME_PACKAGES),
      ],
      { timeout: 600_000 },
    );
    renameSync(fresh, RUNTIMES_DIR);
    return null;
  } catch (error) {
    rmSync(fresh, { recursive: true, force: true });
    return `npm install ${Object.values(RUNTIME_PACKAGES).join(' ')} failed: ${(error as Error).message.split('\n')[0]}`;
  }
}

/** The runtime's launcher, or why it cannot run here. */
function launcher(
  name: Runtime,
  installFailure: string | null,
): { bin: string; absent: string | null } {
  const bin = path.join(RUNTIMES_DIR, 'node_modules', '.bin', name);
  if (installFailure) return { bin, absent: installFailure };
  const probe = spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 30_000 });
  if (probe.status === 0) return { bin, absent: null };
  const reason = probe.error?.message || (probe.stderr ?? '').trim().split('\n')[0] || 'no output';
  return { bin, absent: `${bin} --version failed (${reason})` };
}

const installFailure = await installRuntimes();
const runtimes = { deno: launcher('deno', installFailure), bun: launcher('bun', installFailure) };
for (const [name, { absent }] of Object.entries(runtimes)) {
  if (!absent) continue;
  // Under CI a skipped runtime would hide a regression.
  if (process.env.CI) throw new Error(`CI must run the ${name} test: ${absent}`);
  console.warn(`client ${name} test skipped: ${absent}`);
}

/** What the script below does, as each runtime reports it. */
interface Report {
  health: string;
  organization: string;
  verified: string;
  itemKeys: string[][];
  count: number;
  requestId: string;
  rateLimit: number | null;
  item: string;
  walked: number;
  notFound: { classes: boolean; code: string; status: number };
  connection: { name: string; code: string };
  worker: { accepted: boolean; error?: string };
  webhook: { id: string; fromBytes: string; forged: string };
}

interface ProgramConfig {
  baseUrl: string;
  apiKey: string;
  itemId: string;
  deadUrl: string;
  webhook: { payload: string; headers: Record<string, string>; secret: string; now: string };
}

/** A webhook delivery signed as the server signs it, with node:crypto. */
function signedDelivery(): ProgramConfig['webhook'] {
  const key = Buffer.alloc(24, 42);
  const id = '6743a1f2c3d4e5f6a7b8c9d0';
  const payload = JSON.stringify({
    id,
    webhookId: '6743a0e1c3d4e5f6a7b8c901',
    organizationId: '6740a1f2c3d4e5f6a7b8c9d0',
    createdAt: '2026-11-24T21:00:00.000Z',
    events: [{ type: 'item.deleted', occurredAt: '2026-11-24T20:59:59.500Z', item: { _id: id } }],
  });
  const timestamp = 1_795_640_400;
  const mac = createHmac('sha256', key).update(`${id}.${timestamp}.${payload}`).digest('base64');
  return {
    payload,
    headers: {
      'webhook-id': id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': `v1,${mac}`,
    },
    secret: `whsec_${key.toString('base64')}`,
    now: new Date(timestamp * 1000 + 30_000).toISOString(),
  };
}

/** An ES module importing the bundle by URL, as a Deno or Bun program imports a package. */
const SCRIPT = (
  bundle: string,
  config: ProgramConfig,
) => `import { ConnectionError, NotFoundError, Stockroom, StockroomError, verifyWebhook, WebhookVerificationError } from ${JSON.stringify(bundle)};

const config = ${JSON.stringify(config)};
// The one argument says where the key and base URL come from: "options" or "environment".
const fromEnvironment = (globalThis.Deno ? Deno.args[0] : process.argv[2]) === 'environment';

// apiKey: null, a client without a key on purpose: it does not look for STOCKROOM_API_KEY.
const keyless = new Stockroom({ baseUrl: config.baseUrl, apiKey: null });
const health = (await keyless.health()).status;

const stockroom = fromEnvironment
  ? new Stockroom()
  : new Stockroom({ baseUrl: config.baseUrl, apiKey: config.apiKey });
const { data: page, response } = await stockroom.inventory
  .list({ limit: 3, fields: ['_id', 'name'] })
  .withResponse();
let walked = 0;
for await (const _item of stockroom.inventory.all({ limit: 40, fields: ['_id'] })) walked++;
const missing = await stockroom.inventory.get('0'.repeat(24)).catch((error) => error);
const dead = new Stockroom({ baseUrl: config.deadUrl, apiKey: null, maxRetries: 0 });
const refused = await dead.health().catch((error) => error);

// A worker thread is server-side code too: no browser refusal of the organization key there.
const worker = await new Promise((resolve, reject) => {
  const thread = new Worker(new URL('./worker.mjs', import.meta.url).href, { type: 'module' });
  thread.onmessage = (event) => {
    resolve(event.data);
    thread.terminate();
  };
  thread.onerror = (event) => reject(new Error(event.message));
  thread.postMessage(config);
});

// A webhook delivery signed by node:crypto, verified with Web Crypto; then a forged one.
const hook = { ...config.webhook, now: new Date(config.webhook.now) };
const delivery = await verifyWebhook(hook);
const fromBytes = await verifyWebhook({
  ...hook,
  payload: new TextEncoder().encode(hook.payload),
  headers: new Headers(hook.headers),
});
const forged = await verifyWebhook({ ...hook, payload: hook.payload.replace('deleted', 'created') })
  .then(() => 'accepted', (error) => (error instanceof WebhookVerificationError ? error.code : String(error)));

console.log(JSON.stringify({
  health,
  organization: (await stockroom.organization.get())._id,
  verified: (await stockroom.verifyKey()).key.type,
  itemKeys: page.data.map((item) => Object.keys(item)),
  count: page.count,
  requestId: response.requestId,
  rateLimit: response.rateLimit?.limit ?? null,
  item: (await stockroom.inventory.get(config.itemId, { fields: ['_id'] }))._id,
  walked,
  notFound: {
    classes: missing instanceof NotFoundError && missing instanceof StockroomError,
    code: missing.code,
    status: missing.status,
  },
  connection: { name: refused instanceof ConnectionError ? refused.name : String(refused), code: refused.code },
  worker,
  webhook: { id: delivery.id, fromBytes: fromBytes.id, forged },
}));
`;

/** The worker the program starts: it creates a client with the organization key. */
const WORKER = (bundle: string) => `import { Stockroom } from ${JSON.stringify(bundle)};

self.onmessage = (event) => {
  try {
    new Stockroom({ baseUrl: event.data.baseUrl, apiKey: event.data.apiKey });
    postMessage({ accepted: true });
  } catch (error) {
    postMessage({ accepted: false, error: String(error?.message ?? error) });
  }
};
`;

describe('@stockroom/client in Deno and Bun', () => {
  let server: TestServer;
  let dir: string;
  let program: string;
  let bundleDir: string;

  beforeAll(async () => {
    const { esm } = requireBuiltClient();
    bundleDir = path.dirname(esm);
    server = await startTestServer({ listen: true });
    dir = mkdtempSync(path.join(tmpdir(), 'stockroom-client-runtimes-'));
    program = path.join(dir, 'program.mjs');
    writeFileSync(path.join(dir, 'worker.mjs'), WORKER(pathToFileURL(esm).href));
    writeFileSync(
      program,
      SCRIPT(pathToFileURL(esm).href, {
        baseUrl: server.apiUrl,
        apiKey: server.demo.key,
        itemId: server.demo.itemId,
        deadUrl: await deadUrl(),
        webhook: signedDelivery(),
      }),
    );
  });

  afterAll(async () => {
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Runs the program in a runtime, from a folder of its own, with only the given environment. */
  async function runProgram(
    command: string,
    args: string[],
    options: { fromEnvironment: boolean; env?: Record<string, string> },
  ): Promise<Report> {
    const source = options.fromEnvironment ? 'environment' : 'options';
    const { stdout } = await run(command, [...args, program, source], {
      cwd: dir,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: dir,
        NO_COLOR: '1',
        // Deno keeps its module cache here rather than in the user's home.
        DENO_DIR: path.join(dir, 'deno-cache'),
        DENO_NO_UPDATE_CHECK: '1',
        ...options.env,
      },
      timeout: 60_000,
    });
    return JSON.parse(stdout) as Report;
  }

  /** Deno reads a worker's modules, unlike the program's own imports, only when allowed. */
  function denoRead(): string {
    return `--allow-read=${dir},${bundleDir}`;
  }

  async function expectWorking(report: Report): Promise<void> {
    expect(report).toMatchObject({
      health: 'ok',
      organization: server.demo.organizationId,
      verified: 'organization',
      count: 3,
      rateLimit: 600,
      item: server.demo.itemId,
      notFound: { classes: true, code: 'ITEM_NOT_FOUND', status: 404 },
      connection: { name: 'ConnectionError', code: 'CONNECTION_ERROR' },
      worker: { accepted: true },
      webhook: {
        id: '6743a1f2c3d4e5f6a7b8c9d0',
        fromBytes: '6743a1f2c3d4e5f6a7b8c9d0',
        forged: 'INVALID_SIGNATURE',
      },
    });
    expect(report.itemKeys).toEqual([
      ['_id', 'name'],
      ['_id', 'name'],
      ['_id', 'name'],
    ]);
    expect(report.requestId).toMatch(/\S/);
    expect(report.walked).toBe(await server.store.countItems(server.demo.organizationId));
  }

  const deno = runtimes.deno;
  it.skipIf(deno.absent !== null)(
    'Deno without --allow-env: options given, the environment left unread',
    async () => {
      await expectWorking(
        await runProgram(deno.bin, ['run', '--no-prompt', '--allow-net=127.0.0.1', denoRead()], {
          fromEnvironment: false,
        }),
      );
    },
    60_000,
  );

  it.skipIf(deno.absent !== null)(
    'Deno with --allow-env: apiKey and baseUrl from the environment',
    async () => {
      const report = await runProgram(
        deno.bin,
        [
          'run',
          '--no-prompt',
          '--allow-net=127.0.0.1',
          denoRead(),
          '--allow-env=STOCKROOM_API_KEY,STOCKROOM_BASE_URL',
        ],
        {
          fromEnvironment: true,
          env: { STOCKROOM_API_KEY: server.demo.key, STOCKROOM_BASE_URL: server.apiUrl },
        },
      );
      await expectWorking(report);
    },
    60_000,
  );

  const bun = runtimes.bun;
  it.skipIf(bun.absent !== null)(
    'Bun: apiKey and baseUrl from the environment',
    async () => {
      const report = await runProgram(bun.bin, ['run'], {
        fromEnvironment: true,
        env: { STOCKROOM_API_KEY: server.demo.key, STOCKROOM_BASE_URL: server.apiUrl },
      });
      await expectWorking(report);
    },
    60_000,
  );
});
