#!/usr/bin/env node
// CPU time per request of the server, and of PostgreSQL when it serves the database, for item
// detail, organization, health and a first page of 50 on the benchmark's big organization. On
// two shared cores req/s moves with whatever else runs; CPU time per request (user + system,
// read from /proc before and after, so the load generator does not count) moves much less,
// which makes it the measure for an A/B of a change to one request's path. Run `npm run bench`
// once first (it builds the database); this reuses it.
//
//   node bench/cpu-per-request.js                      the SQLite file of the benchmark
//   node bench/cpu-per-request.js --database postgres://postgres@127.0.0.1:5432/stockroom_bench_1000000
//   options: --seconds S (6)  --runs N (3)  --connections C (32)  --items N (1000000)
import { execFile, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import autocannon from 'autocannon';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = path.join(ROOT, 'packages/server/bin/stockroom.js');
const { values: opts } = parseArgs({
  options: {
    database: { type: 'string' },
    seconds: { type: 'string', default: '6' },
    runs: { type: 'string', default: '3' },
    connections: { type: 'string', default: '32' },
    items: { type: 'string', default: '1000000' },
  },
});
const database = opts.database ?? path.join(ROOT, 'bench/.data', opts.items, 'stockroom.db');
const postgres = database.startsWith('postgres');
const TICKS = 100; // USER_HZ: /proc/<pid>/stat counts CPU time in 1/100 s on Linux

/** User + system CPU seconds of one process. */
function cpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS;
  } catch {
    return 0; // exited between listing and reading
  }
}

/** CPU seconds of every PostgreSQL process (backends, writer, WAL): what the database spent. */
function postgresCpuSeconds() {
  let total = 0;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres') total += cpuSeconds(pid);
    } catch {}
  }
  return total;
}

function freePort() {
  return new Promise((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

async function startServer() {
  const [port, docsPort] = [await freePort(), await freePort()];
  const env = { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'info' };
  if (postgres) env.REDIS_URL ??= 'redis://127.0.0.1:6379';
  const args = [BIN, '--database', database, 'serve', '--port', String(port)];
  args.push('--docs-port', String(docsPort), '--no-demo');
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'inherit'] });
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/v1/health`)).ok) return { child, port };
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the server did not start');
}

/** 1,000 random ids of the big organization, from a walk of its pages. */
async function sampleIds(port, key) {
  const ids = [];
  let cursor = null;
  do {
    const query = `limit=1000&fields=_id${cursor ? `&cursor=${cursor}` : ''}`;
    const response = await fetch(`http://127.0.0.1:${port}/api/v1/inventory/items?${query}`, {
      headers: { 'x-api-key': key },
    });
    const page = await response.json();
    for (const item of page.data) ids.push(item._id);
    cursor = page.nextCursor;
  } while (cursor);
  return Array.from({ length: 1000 }, (_, i) => ids[(i * 7919 * 104729) % ids.length]);
}

function load(port, key, paths, duration) {
  return new Promise((resolve, reject) =>
    autocannon(
      {
        url: `http://127.0.0.1:${port}`,
        connections: Number(opts.connections),
        duration,
        headers: { 'x-api-key': key },
        requests: paths.map((p) => ({ method: 'GET', path: p })),
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    ),
  );
}

const created = await promisify(execFile)(process.execPath, [
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
  'cpu per request',
  '--json',
]);
const { key } = JSON.parse(created.stdout);
const server = await startServer();
try {
  const ids = await sampleIds(server.port, key);
  const cases = {
    'item detail': ids.map((id) => `/api/v1/inventory/item?itemId=${id}`),
    organization: ['/api/v1/organization'],
    health: ['/api/v1/health'],
    // The first page, with and without a status filter (pages of a 1M organization cost alike).
    'list limit=50': [
      '/api/v1/inventory/items?limit=50',
      '/api/v1/inventory/items?limit=50&status=Active',
    ],
  };
  console.log(`${postgres ? 'PostgreSQL' : 'SQLite'}: ${database.replace(/\/\/[^@]*@/, '//')}`);
  console.log('case          run  req/s  server µs/req  postgres µs/req');
  for (let run = 1; run <= Number(opts.runs); run++) {
    for (const [name, paths] of Object.entries(cases)) {
      await load(server.port, key, paths, 2); // warm-up
      const [server0, pg0, t0] = [cpuSeconds(server.child.pid), postgresCpuSeconds(), Date.now()];
      const result = await load(server.port, key, paths, Number(opts.seconds));
      const [server1, pg1, t1] = [cpuSeconds(server.child.pid), postgresCpuSeconds(), Date.now()];
      const n = result.requests.total;
      if (result.non2xx || result.errors) throw new Error(`${name}: errors in the run`);
      const perRequest = (seconds) => ((seconds / n) * 1e6).toFixed(1).padStart(8);
      console.log(
        `${name.padEnd(13)} ${String(run).padStart(3)} ${String(Math.round(n / ((t1 - t0) / 1000))).padStart(6)}  ${perRequest(server1 - server0)}       ${postgres ? perRequest(pg1 - pg0) : '       –'}`,
      );
    }
  }
} finally {
  server.child.kill('SIGTERM');
}
