#!/usr/bin/env node
// `npm run bench:soak`: holds a share of the server's measured capacity for a long time and
// reports errors, latency and memory minute by minute (issue 7: 70% for 10 minutes with zero
// errors and flat memory). Not part of `npm test`.
//
// 1. Reuses the database `npm run bench` imported (bench/.data/<items>/stockroom.db), or
//    generates and imports the same dataset through the real CLI.
// 2. Starts the real server (`stockroom serve`, production mode, one key without rate limit).
// 3. Measures capacity on a mixed workload (autocannon, 32 connections), then replays the same
//    mix at --fraction of it with an open-loop, fixed-rate client for --minutes, one segment
//    per minute, sampling the server's RSS every 5 s.
// 4. Exits 1 unless every request succeeded, every minute's requests were answered within the
//    minute (2 s of slack: the rate was held, not queued), and memory stayed flat.
//
//   npm run bench:soak                      1,000,000 items, 70% for 10 minutes
//   options: --items N  --minutes M  --fraction F  --workers N  --database URL (postgres://…)
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import autocannon from 'autocannon';
import { ensureDataset } from './lib/dataset.js';
import { fixedRate } from './lib/http-client.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = path.join(ROOT, 'packages/server/bin/stockroom.js');
const run = promisify(execFile);

const { values: opts } = parseArgs({
  options: {
    items: { type: 'string', default: '1000000' },
    minutes: { type: 'string', default: '10' },
    fraction: { type: 'string', default: '0.7' },
    workers: { type: 'string', default: '1' },
    database: { type: 'string' },
    redis: { type: 'string' },
  },
});
const ITEMS = Number(opts.items);
const MINUTES = Number(opts.minutes);
const FRACTION = Number(opts.fraction);
const DATA = path.join(ROOT, 'bench/.data', String(ITEMS));
const SQLITE_DB = path.join(DATA, 'stockroom.db');
const DATABASE = opts.database ?? SQLITE_DB;
const CAPACITY_SECONDS = 15;
const SAMPLE_MS = 5_000;
/** Seconds past its minute a segment may take to answer its last requests and still count as held. */
const HELD_SLACK_SECONDS = 2;
/** The last minute's RSS over the first's beyond which memory is said to grow. */
const MAX_RSS_GROWTH = 1.25;

const log = (message) => process.stderr.write(`[soak] ${message}\n`);
const children = new Set();
process.on('exit', () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
});

async function cli(...args) {
  try {
    const { stdout } = await run(
      process.execPath,
      [BIN, '--json', '--database', DATABASE, ...args],
      {
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    return JSON.parse(stdout);
  } catch (error) {
    throw new Error(`stockroom ${args.join(' ')} failed: ${error.stderr || error.message}`);
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** Resident memory of a process and its descendants (cluster workers), in MB. */
function rssMb(pid) {
  try {
    const own = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
    const kids = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .split(' ')
      .filter(Boolean)
      .map(Number);
    return own / 1024 + kids.reduce((sum, child) => sum + rssMb(child), 0);
  } catch {
    return 0;
  }
}

async function prepareDatabase() {
  if (opts.database) return;
  if (existsSync(path.join(DATA, 'imported.json')) && existsSync(SQLITE_DB)) {
    log(`reusing ${path.relative(ROOT, SQLITE_DB)} (imported by npm run bench)`);
    return;
  }
  mkdirSync(DATA, { recursive: true });
  const manifest = await ensureDataset(DATA, { bigItems: ITEMS, smallOrgs: 1 });
  log(`importing ${ITEMS.toLocaleString('en')} items…`);
  await cli('migrate');
  await cli('org', 'create', '--name', 'Big Hardware Co', '--slug', 'big');
  await cli('items', 'import', path.join(DATA, manifest.bigFile), '--org', 'big');
  writeFileSync(path.join(DATA, 'imported.json'), '{"soak":true}\n');
}

async function startServer(port, docsPort) {
  const args = [BIN, '--database', DATABASE, 'serve', '--port', String(port)];
  args.push('--docs-port', String(docsPort), '--no-demo', '--workers', opts.workers);
  const env = { ...process.env, LOG_LEVEL: 'warn', NODE_ENV: 'production' };
  delete env.REDIS_URL;
  if (opts.redis) env.REDIS_URL = opts.redis;
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'inherit'] });
  children.add(child);
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      await (await fetch(`http://127.0.0.1:${port}/api/v1/health`)).arrayBuffer();
      return child;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error('the server did not start');
}

/** A realistic mix of what integrations ask, weighted; cycled in a fixed shuffled order. */
async function workload(port, key) {
  const get = async (pathAndQuery) => {
    const response = await fetch(`http://127.0.0.1:${port}${pathAndQuery}`, {
      headers: { 'x-api-key': key },
    });
    if (response.status !== 200) throw new Error(`${pathAndQuery}: ${response.status}`);
    return response.json();
  };
  const firstPages = [];
  let cursor = null;
  for (let i = 0; i < 20; i++) {
    const page = await get(`/api/v1/inventory/items?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
    firstPages.push(...page.data.map((item) => item._id));
    cursor = page.nextCursor;
    if (!cursor) break;
  }
  const ids = firstPages.filter((_, i) => i % 7 === 0);
  const weighted = [
    [50, (i) => `/api/v1/inventory/item?itemId=${ids[i % ids.length]}`],
    [15, () => '/api/v1/inventory/items?limit=50'],
    [5, () => '/api/v1/inventory/items?limit=100&status=Active&fields=_id,name,sku,quantity'],
    [5, () => '/api/v1/inventory/items?search=steel&limit=20'],
    [5, () => '/api/v1/inventory/items?search=quillfeather'],
    [10, () => '/api/v1/auth/verify'],
    [10, () => '/api/v1/organization'],
  ];
  const paths = [];
  for (const [weight, make] of weighted) {
    for (let i = 0; i < weight; i++) paths.push(make(paths.length));
  }
  // A fixed interleaving (every kind spread over the cycle), the same in every run.
  return paths
    .map((p, i) => [((i * 37) % paths.length) + i / 1e6, p])
    .sort((a, b) => a[0] - b[0])
    .map(([, p]) => p);
}

async function capacity(port, key, paths) {
  let next = 0;
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: 32,
    duration: CAPACITY_SECONDS,
    headers: { 'x-api-key': key },
    requests: [
      { method: 'GET', setupRequest: (r) => ({ ...r, path: paths[next++ % paths.length] }) },
    ],
  });
  return {
    rps: Math.round(result['2xx'] / result.duration),
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

const ms = (value) => (Number.isFinite(value) ? value.toFixed(2) : '–');

async function main() {
  log(
    `${os.cpus().length} cores, Node ${process.version}; load average ${os
      .loadavg()
      .map((v) => v.toFixed(2))
      .join(' ')}`,
  );
  await prepareDatabase();
  const { key } = await cli(
    'key',
    'create',
    '--org',
    'big',
    '--name',
    'soak',
    '--rate-limit',
    'none',
  );
  const [port, docsPort] = [await freePort(), await freePort()];
  const server = await startServer(port, docsPort);
  const paths = await workload(port, key);
  await capacity(port, key, paths); // warm-up
  const measured = await capacity(port, key, paths);
  const rate = Math.round(measured.rps * FRACTION);
  log(
    `capacity on the mix: ${measured.rps} req/s (${measured.errors} errors); holding ${rate} req/s (${Math.round(FRACTION * 100)}%) for ${MINUTES} min`,
  );

  const samples = [];
  const sampler = setInterval(
    () => samples.push({ at: Date.now(), rss: rssMb(server.pid) }),
    SAMPLE_MS,
  );
  const minutes = [];
  const started = Date.now();
  for (let m = 1; m <= MINUTES; m++) {
    const segmentStart = Date.now();
    const result = await fixedRate({
      host: '127.0.0.1',
      port,
      paths,
      headers: { 'x-api-key': key },
      rate,
      durationMs: 60_000,
      connections: 64,
    });
    const inSegment = samples.filter((s) => s.at >= segmentStart);
    const rss = inSegment.length ? inSegment[inSegment.length - 1].rss : rssMb(server.pid);
    const row = {
      minute: m,
      // Longer than the minute when the server fell behind and the backlog took time to drain.
      seconds: Math.round((Date.now() - segmentStart) / 100) / 10,
      requests: result.count,
      p50: result.p50,
      p99: result.p99,
      max: result.max,
      errors: result.errors + result.non2xx,
      rssMb: Math.round(rss),
    };
    minutes.push(row);
    log(
      `minute ${m}: ${row.requests} requests, p50 ${ms(row.p50)} ms, p99 ${ms(row.p99)} ms, errors ${row.errors}, RSS ${row.rssMb} MB`,
    );
  }
  clearInterval(sampler);
  const totalSeconds = Math.round((Date.now() - started) / 1000);
  await new Promise((resolve) => {
    server.once('exit', resolve);
    server.kill('SIGTERM');
  });

  const errors = minutes.reduce((sum, row) => sum + row.errors, 0);
  const requests = minutes.reduce((sum, row) => sum + row.requests, 0);
  const rssValues = samples.map((s) => s.rss);
  const firstMinuteRss = minutes[0]?.rssMb ?? 0;
  const lastMinuteRss = minutes[minutes.length - 1]?.rssMb ?? 0;
  const summary = [
    `Machine: ${os.cpus().length} cores (${os.cpus()[0]?.model}), Node ${process.version}; the load generator shares the cores`,
    `Server: ${opts.database ? 'PostgreSQL' : 'SQLite'}${opts.redis ? ' + Redis' : ''}, --workers ${opts.workers}, ${ITEMS.toLocaleString('en')}-item organization; one key without rate limit`,
    'Mix: 50% item detail, 15% list limit=50, 5% status + fields, 5% common search, 5% rare search, 10% verify, 10% organization',
    `Capacity on the mix (autocannon, 32 connections, ${CAPACITY_SECONDS} s): ${measured.rps} req/s`,
    `Held ${rate} req/s (${Math.round(FRACTION * 100)}%) open-loop for ${MINUTES} min (${totalSeconds} s): ${requests.toLocaleString('en')} requests, ${errors} errors`,
    `Server RSS: ${firstMinuteRss} MB after minute 1, ${lastMinuteRss} MB after minute ${MINUTES}, max ${Math.round(Math.max(...rssValues))} MB`,
  ];
  // The verdict: every request answered, the rate held (each minute's requests answered
  // within the minute and a little slack for the last ones), memory flat (the last minute's RSS
  // no more than a quarter above the first's).
  const lagging = minutes.filter((row) => row.seconds > 60 + HELD_SLACK_SECONDS);
  const grew = lastMinuteRss > firstMinuteRss * MAX_RSS_GROWTH;
  const verdict = [
    errors === 0 ? 'no errors' : `${errors} errors`,
    lagging.length === 0
      ? 'rate held every minute'
      : `fell behind in minute${lagging.length > 1 ? 's' : ''} ${lagging.map((row) => row.minute).join(', ')}`,
    grew ? 'memory grew' : 'memory flat',
  ];
  summary.push(`Verdict: ${verdict.join(', ')}`);
  const header = '| minute | seconds | requests | p50 ms | p99 ms | max ms | errors | RSS MB |';
  const lines = minutes.map(
    (r) =>
      `| ${r.minute} | ${r.seconds} | ${r.requests} | ${ms(r.p50)} | ${ms(r.p99)} | ${ms(r.max)} | ${r.errors} | ${r.rssMb} |`,
  );
  const markdown = `${summary.map((line) => `- ${line}`).join('\n')}\n\n${header}\n| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n${lines.join('\n')}\n`;
  process.stdout.write(`\n${summary.join('\n')}\n\n${header}\n${lines.join('\n')}\n`);
  mkdirSync(DATA, { recursive: true });
  writeFileSync(path.join(DATA, 'soak-results.md'), markdown);
  writeFileSync(
    path.join(DATA, 'soak-results.json'),
    `${JSON.stringify({ date: new Date().toISOString(), rate, capacity: measured, minutes, samples }, null, 2)}\n`,
  );
  log(`results in ${path.relative(ROOT, DATA)}/soak-results.{md,json}`);
  if (errors > 0 || lagging.length > 0 || grew) process.exitCode = 1;
}

main().catch((error) => {
  log(error.stack ?? String(error));
  process.exit(1);
});
