import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKey } from '../packages/server/src/keys/format.js';
import { issueKey } from '../packages/server/src/keys/issue.js';
import { PostgresStore } from '../packages/server/src/store/postgres/postgres-store.js';
import { createTestSchema, type TestSchema } from '../packages/server/src/testing/postgres.js';
import {
  type ServeProcess,
  startServeProcess,
} from '../packages/server/src/testing/serve-process.js';
import { postgresUnavailable } from '../packages/server/src/testing/services.js';

/**
 * The nginx example of the self-hosting page (deploy/nginx/stockroom.conf, verbatim but for
 * its ports) in front of two `stockroom serve` instances sharing one PostgreSQL schema, run by
 * Debian's nginx. Clients connect to nginx from addresses of their own on the loopback network
 * (127.0.0.2, 127.0.0.3); nginx connects to the instances from 127.0.0.1, the address their
 * TRUST_PROXY names.
 */
const NGINX = '/usr/sbin/nginx';
const EXAMPLE = path.join(import.meta.dirname, '..', 'deploy', 'nginx', 'stockroom.conf');
const pgSkip = await postgresUnavailable();

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function replaceOnce(text: string, from: string, to: string): string {
  const at = text.indexOf(from);
  if (at === -1 || text.indexOf(from, at + 1) !== -1) {
    throw new Error(`the nginx example must hold "${from}" exactly once`);
  }
  return text.slice(0, at) + to + text.slice(at + from.length);
}

interface Nginx {
  apiUrl: string;
  docsUrl: string;
  dir: string;
  stop(): Promise<void>;
}

/**
 * nginx with the example's server blocks, its instances' ports put in place of the example's
 * (3000, 3010, 3001, 3011) and its two `listen 80` on free ports, in a prefix of its own.
 */
async function startNginx(api: [number, number], docs: [number, number]): Promise<Nginx> {
  const dir = mkdtempSync(path.join(tmpdir(), 'stockroom-nginx-'));
  // Worker processes drop root for nobody: they must reach the prefix.
  chmodSync(dir, 0o755);
  const [apiPort, docsPort] = [await freePort(), await freePort()];
  let site = readFileSync(EXAMPLE, 'utf8');
  site = replaceOnce(site, '127.0.0.1:3000 ', `127.0.0.1:${api[0]} `);
  site = replaceOnce(site, '127.0.0.1:3010 ', `127.0.0.1:${api[1]} `);
  site = replaceOnce(site, '127.0.0.1:3001 ', `127.0.0.1:${docs[0]} `);
  site = replaceOnce(site, '127.0.0.1:3011 ', `127.0.0.1:${docs[1]} `);
  const listens = site.split('listen 80;');
  if (listens.length !== 3) throw new Error('the nginx example must listen on 80 twice');
  site = `${listens[0]}listen 127.0.0.1:${apiPort};${listens[1]}listen 127.0.0.1:${docsPort};${listens[2]}`;
  writeFileSync(path.join(dir, 'stockroom.conf'), site);
  writeFileSync(
    path.join(dir, 'nginx.conf'),
    [
      'daemon off;',
      'worker_processes 1;',
      `pid ${dir}/nginx.pid;`,
      `error_log ${dir}/error.log info;`,
      'events { worker_connections 256; }',
      'http {',
      `  access_log ${dir}/access.log;`,
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
        (kind) => `  ${kind}_temp_path ${dir}/${kind}_temp;`,
      ),
      `  include ${dir}/stockroom.conf;`,
      '}',
      '',
    ].join('\n'),
  );
  execFileSync(NGINX, ['-t', '-q', '-p', dir, '-e', `${dir}/error.log`, '-c', `${dir}/nginx.conf`]);
  const child: ChildProcess = spawn(
    NGINX,
    ['-p', dir, '-e', `${dir}/error.log`, '-c', `${dir}/nginx.conf`],
    { stdio: 'ignore' },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 10_000;
  for (;;) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = net.connect(apiPort, '127.0.0.1');
      socket.once('connect', () => resolve(socket.end() && true));
      socket.once('error', () => resolve(false));
    });
    if (up) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      throw new Error(`nginx did not start:\n${readFileSync(`${dir}/error.log`, 'utf8')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    apiUrl: `http://127.0.0.1:${apiPort}`,
    docsUrl: `http://127.0.0.1:${docsPort}`,
    dir,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A GET on a fresh connection from `from` (a loopback address), with the headers given. */
function get(url: string, from: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent: false, localAddress: from, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode as number,
          headers: response.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    });
    request.on('error', reject);
  });
}

function code(answer: Answer): string | number {
  return (JSON.parse(answer.body) as { error?: { code: string } }).error?.code ?? answer.status;
}

/** Starts `serve` instances on one schema, waiting for both their addresses. */
async function startInstance(
  databaseUrl: string,
  env: Record<string, string>,
  args: string[] = [],
): Promise<{ serve: ServeProcess; apiPort: number; docsPort: number }> {
  const serve = await startServeProcess(
    { DATABASE_URL: databaseUrl, LOG_LEVEL: 'info', ...env },
    args,
  );
  const docs = await serve.waitForLine(/Docs:\s+http/);
  return {
    serve,
    apiPort: Number(new URL(serve.apiUrl).port),
    docsPort: Number(/Docs:\s+http:\/\/[^:]+:(\d+)/.exec(docs)?.[1]),
  };
}

/** The request log line with this request id, from whichever instance answered. */
async function logLineOf(
  instances: ServeProcess[],
  requestId: string,
): Promise<Record<string, unknown>> {
  const deadline = Date.now() + 5000;
  for (;;) {
    for (const instance of instances) {
      for (const line of instance.lines) {
        if (!line.includes(requestId)) continue;
        const parsed = JSON.parse(line) as Record<string, unknown>;
        if (parsed.msg === 'request' && parsed.requestId === requestId) return parsed;
      }
    }
    if (Date.now() > deadline) throw new Error(`no request log line with id ${requestId}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const ITEMS = '/api/v1/inventory/items';
const CLIENT_A = '127.0.0.2';
const CLIENT_B = '127.0.0.3';
const requestId = () => `nginx-e2e-${randomBytes(6).toString('hex')}`;

describe.skipIf(pgSkip !== null)('behind the nginx example', () => {
  let schema: TestSchema;
  let store: PostgresStore;
  let organizationId: string;
  let key: string;
  const instances: Array<{ serve: ServeProcess; apiPort: number; docsPort: number }> = [];
  let nginx: Nginx;
  const serves = () => instances.map((i) => i.serve);
  let schemaUrl: string;

  beforeAll(async () => {
    schema = await createTestSchema();
    schemaUrl = schema.url;
    store = new PostgresStore(schema.url);
    await store.migrate();
    const org = await store.createOrganization({
      name: 'Proxied',
      slug: 'proxied',
      features: ['inventory'],
    });
    organizationId = org.id;
    // Items large enough that a page of 1,000 is a few MiB: more than nginx's buffers hold.
    const rows = Array.from({ length: 1000 }, (_, i) => ({
      sku: `SKU-${String(i).padStart(5, '0')}`,
      name: `Item ${i}`,
      description: `${'a long description '.repeat(100)}${i}`,
      quantity: i,
    }));
    const outcomes = await store.writeItems(org.id, rows);
    expect(outcomes.filter((outcome) => outcome !== 'created')).toEqual([]);
    key = (await issueKey(store, { organizationId, rateLimit: null })).key;
    const env = { TRUST_PROXY: '127.0.0.1', AUTH_FAILURE_LIMIT: '3/1d' };
    instances.push(await startInstance(schema.url, env), await startInstance(schema.url, env));
    nginx = await startNginx(
      [instances[0]?.apiPort as number, instances[1]?.apiPort as number],
      [instances[0]?.docsPort as number, instances[1]?.docsPort as number],
    );
  });

  afterAll(async () => {
    await nginx?.stop();
    for (const { serve } of instances) await serve.stop();
    await store?.close();
    await schema?.drop();
  });

  it('logs the real client, not the proxy nor a forged X-Forwarded-For entry, on both instances', async () => {
    const seen = new Set<number>();
    for (let i = 0; i < 4; i++) {
      const id = requestId();
      const answer = await get(`${nginx.apiUrl}${ITEMS}?limit=1`, CLIENT_A, {
        'x-api-key': key,
        'x-request-id': id,
        'x-forwarded-for': '198.51.100.66',
      });
      expect(answer.status).toBe(200);
      expect(answer.headers['x-request-id']).toBe(id);
      const line = await logLineOf(serves(), id);
      expect(line.clientAddress).toBe(CLIENT_A);
      seen.add(line.pid as number);
    }
    // Round robin: both instances answered.
    expect(seen).toEqual(new Set(serves().map((s) => s.pid)));
    // Without a request id of its own, the client gets nginx's, in the log line too.
    const answer = await get(`${nginx.apiUrl}/api/v1/health`, CLIENT_B);
    const id = answer.headers['x-request-id'] as string;
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(await logLineOf(serves(), id)).toMatchObject({ clientAddress: CLIENT_B, status: 200 });
    expect(readFileSync(`${nginx.dir}/access.log`, 'utf8')).toContain(CLIENT_B);
  });

  it('logs the client on the docs host too', async () => {
    const docsLines = () =>
      serves()
        .flatMap((s) => s.lines)
        .filter((l) => l.includes('"app":"docs"') && l.includes('"msg":"request"'));
    const before = docsLines().length;
    const answer = await get(`${nginx.docsUrl}/en/docs/introduction`, CLIENT_B, {
      'x-forwarded-for': '198.51.100.66',
    });
    expect(answer.status).toBe(200);
    // The line is written once the answer is sent: wait for it.
    const deadline = Date.now() + 5000;
    while (docsLines().length === before && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const line = JSON.parse(docsLines().at(-1) ?? 'null') as Record<string, unknown> | null;
    expect(line).toMatchObject({ clientAddress: CLIENT_B, status: 200 });
  });

  it('a key guesser behind nginx is throttled without locking out another client’s valid key', async () => {
    // AUTH_FAILURE_LIMIT 3 per instance: 8 guesses, round robin, reach it on both.
    for (let i = 0; i < 8; i++) {
      const guess = await get(`${nginx.apiUrl}${ITEMS}?limit=1`, CLIENT_A, {
        'x-api-key': generateKey('organization').key,
      });
      expect(['INVALID_API_KEY', 'RATE_LIMITED']).toContain(code(guess));
    }
    const [ofA, ofB] = [
      await issueKey(store, { organizationId, rateLimit: null }),
      await issueKey(store, { organizationId, rateLimit: null }),
    ];
    for (let i = 0; i < 2; i++) {
      // Both instances (round robin): A is refused, even with a valid key never used before…
      const refused = await get(`${nginx.apiUrl}${ITEMS}?limit=1`, CLIENT_A, {
        'x-api-key': ofA.key,
      });
      expect(code(refused)).toBe('RATE_LIMITED');
      // …and cannot slip out by naming another address: nginx appended its real one.
      const forged = await get(`${nginx.apiUrl}${ITEMS}?limit=1`, CLIENT_A, {
        'x-api-key': ofA.key,
        'x-forwarded-for': '203.0.113.99',
      });
      expect(code(forged)).toBe('RATE_LIMITED');
      // B, behind the same nginx, carries on.
      const served = await get(`${nginx.apiUrl}${ITEMS}?limit=1`, CLIENT_B, {
        'x-api-key': ofB.key,
      });
      expect(served.status).toBe(200);
    }
  });

  it('passes a page of 1,000 large items through whole, as the instance sends it', async () => {
    const direct = await get(`${serves()[0]?.apiUrl}${ITEMS}?limit=1000`, CLIENT_B, {
      'x-api-key': key,
    });
    const proxied = await get(`${nginx.apiUrl}${ITEMS}?limit=1000`, CLIENT_B, {
      'x-api-key': key,
    });
    expect(direct.status).toBe(200);
    expect(direct.body.length).toBeGreaterThan(1_500_000);
    expect(proxied.status).toBe(200);
    expect(proxied.body).toBe(direct.body);
    expect(readFileSync(`${nginx.dir}/error.log`, 'utf8')).not.toMatch(/temporary file/);
  });

  it('loses no request while each instance in turn is restarted (a rolling upgrade)', async () => {
    // Clients keep their connections to nginx open, as browsers and integrations do.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 8, localAddress: CLIENT_B });
    const outcomes: Array<number | string> = [];
    let running = true;
    const loop = async () => {
      while (running) {
        const path = outcomes.length % 2 === 0 ? `${ITEMS}?limit=5` : '/api/v1/organization';
        outcomes.push(
          await new Promise<number | string>((resolve) => {
            const request = http.get(
              `${nginx.apiUrl}${path}`,
              { agent, headers: { 'x-api-key': key } },
              (response) => {
                response.resume();
                response.on('end', () => resolve(response.statusCode as number));
              },
            );
            request.on('error', (error) => resolve(error.message));
          }),
        );
      }
    };
    const loops = Array.from({ length: 8 }, loop);
    const servedBy = (instance: ServeProcess) =>
      instance.lines.filter((line) => line.includes('"msg":"request"')).length;
    try {
      for (const index of [0, 1]) {
        const old = instances[index] as (typeof instances)[number];
        const before = outcomes.length;
        // What a supervisor does: SIGTERM, wait for the exit, start the new version.
        await old.serve.stop();
        const replacement = await startInstance(
          schemaUrl,
          { TRUST_PROXY: '127.0.0.1', AUTH_FAILURE_LIMIT: '3/1d' },
          ['--port', String(old.apiPort), '--docs-port', String(old.docsPort)],
        );
        instances[index] = replacement;
        // The new instance takes its share again before the next one goes.
        const deadline = Date.now() + 20_000;
        while (servedBy(replacement.serve) < 20 && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        expect(servedBy(replacement.serve)).toBeGreaterThanOrEqual(20);
        expect(outcomes.length).toBeGreaterThan(before);
      }
    } finally {
      running = false;
      await Promise.all(loops);
      agent.destroy();
    }
    const failed = outcomes.filter((outcome) => outcome !== 200);
    expect(failed).toEqual([]);
    expect(outcomes.length).toBeGreaterThan(100);
  });

  it('sends requests to the other instance when one is gone (proxy_next_upstream)', async () => {
    const last = instances.pop();
    await last?.serve.stop();
    const answers = [];
    for (let i = 0; i < 6; i++) {
      answers.push(await get(`${nginx.apiUrl}${ITEMS}?limit=1`, CLIENT_B, { 'x-api-key': key }));
    }
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
  });
});

describe.skipIf(pgSkip !== null)('each TRUST_PROXY form behind nginx', () => {
  let schema: TestSchema;
  let key: string;
  beforeAll(async () => {
    schema = await createTestSchema();
    const store = new PostgresStore(schema.url);
    try {
      await store.migrate();
      const org = await store.createOrganization({
        name: 'Forms',
        slug: 'forms',
        features: ['inventory'],
      });
      key = (await issueKey(store, { organizationId: org.id, rateLimit: null })).key;
    } finally {
      await store.close();
    }
  });
  afterAll(() => schema?.drop());

  // The client (127.0.0.2) sends a forged entry; nginx appends 127.0.0.2.
  const forms: Array<[string, string]> = [
    ['127.0.0.1', CLIENT_A],
    ['127.0.0.0/31', CLIENT_A],
    ['1', CLIENT_A],
    // Two hops trusted, one proxy: the forged entry is believed. What it says.
    ['2', '198.51.100.66'],
    ['true', '198.51.100.66'],
    ['false', '127.0.0.1'],
  ];
  it.each(forms)('TRUST_PROXY=%s: the client is %s', async (setting, client) => {
    const instance = await startInstance(schema.url, { TRUST_PROXY: setting });
    const proxy = await startNginx(
      [instance.apiPort, instance.apiPort],
      [instance.docsPort, instance.docsPort],
    );
    try {
      const id = requestId();
      const answer = await get(`${proxy.apiUrl}${ITEMS}?limit=1`, CLIENT_A, {
        'x-api-key': key,
        'x-request-id': id,
        'x-forwarded-for': '198.51.100.66',
      });
      expect(answer.status).toBe(200);
      expect((await logLineOf([instance.serve], id)).clientAddress).toBe(client);
    } finally {
      await proxy.stop();
      await instance.serve.stop();
    }
  });
});
