#!/usr/bin/env node
// Instructions per request, counted by valgrind's callgrind: unlike req/s or CPU time they do
// not move with whatever else the machine runs (two shared cores make those useless for an A/B
// of one request's path). Each server runs under callgrind; after a warm-up (so the JIT has
// settled) the counters are zeroed, N requests are sent, and the counters are dumped.
// Run `npm run bench -- --quick` once first (it builds bench/.data/50000 and its database).
//
//   node bench/instructions.js                       health, item detail, list limit=50 on
//                                                    the server, and the bare node:http ceiling
//   node bench/instructions.js --floor               Fastify alone, then with each piece every
//                                                    answer carries (bench/lib/fastify-floor.js)
//   options: --requests N (3000)  --warmup N (5000)  --items N (50000)
// Needs valgrind (Debian package). Each server takes a minute or more to start under callgrind.
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import autocannon from 'autocannon';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = path.join(ROOT, 'packages/server/bin/stockroom.js');
const run = promisify(execFile);
const { values: opts } = parseArgs({
  options: {
    floor: { type: 'boolean', default: false },
    requests: { type: 'string', default: '3000' },
    warmup: { type: 'string', default: '5000' },
    items: { type: 'string', default: '50000' },
  },
});
const REQUESTS = Number(opts.requests);
const database = path.join(ROOT, 'bench/.data', opts.items, 'stockroom.db');

function freePort() {
  return new Promise((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

function load(port, requestPath, amount, key) {
  return new Promise((resolve, reject) =>
    autocannon(
      {
        url: `http://127.0.0.1:${port}${requestPath}`,
        connections: 4,
        amount,
        headers: key ? { 'x-api-key': key } : {},
      },
      (error, result) => {
        if (error) reject(error);
        else if (result.non2xx || result.errors) reject(new Error(`${requestPath}: errors`));
        else resolve(result);
      },
    ),
  );
}

/** Starts `args` under callgrind, waits for `ready` to answer, measures each path. */
async function measure(label, args, port, paths, key) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'stockroom-callgrind-'));
  const child = spawn(
    'valgrind',
    ['--tool=callgrind', `--callgrind-out-file=${dir}/out.%p`, process.execPath, ...args],
    { env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'info' }, stdio: 'ignore' },
  );
  const rows = [];
  try {
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`http://127.0.0.1:${port}/api/v1/health`)).ok) break;
      } catch {}
      if (i > 1200) throw new Error(`${label} did not start`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    for (const [name, requestPath] of paths) {
      await load(port, requestPath, Number(opts.warmup), key);
      await run('callgrind_control', ['-z', String(child.pid)]);
      await load(port, requestPath, REQUESTS, key);
      const before = new Set(readdirSync(dir));
      await run('callgrind_control', ['-d', String(child.pid)]);
      const dump = readdirSync(dir).find((file) => !before.has(file));
      const summary = readFileSync(path.join(dir, dump), 'utf8').match(/^summary: (\d+)/m);
      rows.push([label, name, Math.round(Number(summary[1]) / REQUESTS)]);
      console.error(`[instructions] ${label} ${name}: ${rows.at(-1)[2]}`);
    }
  } finally {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

const rows = [];
if (opts.floor) {
  for (const pieces of ['', 'L', 'LN', 'LNI', 'LNIH']) {
    const port = await freePort();
    const label = `Fastify${pieces ? ` +${pieces}` : ''}`;
    const script = path.join(ROOT, 'bench/lib/fastify-floor.js');
    rows.push(
      ...(await measure(label, [script, pieces, String(port)], port, [
        ['health', '/api/v1/health'],
      ])),
    );
  }
} else {
  const { stdout } = await run(process.execPath, [
    BIN,
    '--database',
    database,
    'key',
    'create',
    '--org',
    'big',
    '--rate-limit',
    'none',
    '--name',
    'instructions',
    '--json',
  ]);
  const { key } = JSON.parse(stdout);
  const [port, docsPort] = [await freePort(), await freePort()];
  const server = [BIN, '--database', database, 'serve', '--port', String(port)];
  server.push('--docs-port', String(docsPort), '--no-demo');
  const first = await fetchFirstId(database);
  const paths = [
    ['health', '/api/v1/health'],
    ['item detail', `/api/v1/inventory/item?itemId=${first}`],
    ['list limit=50', '/api/v1/inventory/items?limit=50'],
  ];
  rows.push(...(await measure('stockroom', server, port, paths, key)));
  // The bare ceiling answering the health bytes (bench/lib/ceiling.js).
  const ceilingPort = await freePort();
  const routes = path.join(mkdtempSync(path.join(os.tmpdir(), 'stockroom-ceiling-')), 'r.json');
  const body = Buffer.from('{"status":"ok","version":"0.1.0","checks":{"database":"ok"}}');
  writeFileSync(
    routes,
    JSON.stringify({
      '/api/v1/health': {
        status: 200,
        contentType: 'application/json; charset=utf-8',
        body: body.toString('base64'),
      },
    }),
  );
  const ceiling = path.join(ROOT, 'bench/lib/ceiling.js');
  rows.push(
    ...(await measure('bare node:http', [ceiling, routes, String(ceilingPort)], ceilingPort, [
      ['health', '/api/v1/health'],
    ])),
  );
}

/** One item id of the big organization, read straight from the SQLite file. */
async function fetchFirstId(file) {
  const { default: Database } = await import('../packages/server/dist/store/sqlite/driver.js');
  const db = new Database(file, { readonly: true });
  try {
    return db
      .prepare(
        "SELECT i.id FROM items i JOIN organizations o ON o.id = i.organization_id WHERE o.slug = 'big' LIMIT 1 OFFSET 777",
      )
      .pluck()
      .get();
  } finally {
    db.close();
  }
}

console.log('server            case             instructions per request');
for (const [label, name, count] of rows) {
  console.log(`${label.padEnd(17)} ${name.padEnd(16)} ${String(count).padStart(12)}`);
}
