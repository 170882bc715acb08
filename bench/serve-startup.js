#!/usr/bin/env node
// How long `stockroom serve` takes from spawn to its first 200 on /livez (API host) and on a docs
// page, on a fresh SQLite database in a temp directory. Each run is a new process; the median
// and every run are printed.
//
//   node bench/serve-startup.js [runs] [--workers N] [--bin path/to/stockroom.js]
//
// Run `npm run build` first (the bench npm scripts do). Polls every 10 ms: the figure is at most
// that much late.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    workers: { type: 'string', default: '1' },
    // Another build to compare with, e.g. a checkout of an older commit.
    bin: { type: 'string' },
  },
});
const runs = Number(positionals[0] ?? 5);
const BIN = values.bin
  ? path.resolve(values.bin)
  : fileURLToPath(new URL('../packages/server/bin/stockroom.js', import.meta.url));

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

async function answers(url) {
  try {
    const response = await fetch(url);
    await response.arrayBuffer();
    return response.status === 200;
  } catch {
    return false;
  }
}

/**
 * CPU time the process used so far (user + system, in ms), from /proc on Linux: on a busy
 * machine wall time says more about the neighbours than about the start. Null elsewhere.
 */
function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // utime and stime, fields 14 and 15 of the line (11 and 12 after the name), in clock ticks.
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return null;
  }
}

async function once() {
  const dir = mkdtempSync(path.join(tmpdir(), 'stockroom-startup-'));
  const [port, docsPort] = [await freePort(), await freePort()];
  const started = performance.now();
  const child = spawn(process.execPath, [BIN, 'serve'], {
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: path.join(dir, 'stockroom.db'),
      PORT: String(port),
      DOCS_PORT: String(docsPort),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      WORKERS: values.workers,
    },
    stdio: 'ignore',
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let livez = null;
  let docs = null;
  let cpu = null;
  try {
    while (livez === null || docs === null) {
      if (child.exitCode !== null) throw new Error(`serve exited with ${child.exitCode}`);
      if (livez === null && (await answers(`http://127.0.0.1:${port}/livez`))) {
        livez = performance.now() - started;
        cpu = cpuMs(child.pid);
      }
      if (docs === null && (await answers(`http://127.0.0.1:${docsPort}/en/docs/errors`))) {
        docs = performance.now() - started;
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  } finally {
    child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  }
  return { livez, docs, cpu };
}

const results = [];
for (let i = 0; i < runs; i++) results.push(await once());
const median = (list) => list.sort((a, b) => a - b)[Math.floor(list.length / 2)];
const ms = (value) => (value === null ? '?' : `${Math.round(value)} ms`);
process.stdout.write(
  `serve (WORKERS=${values.workers}), ${runs} runs: /livez ${ms(median(results.map((r) => r.livez)))}, docs page ${ms(median(results.map((r) => r.docs)))}, CPU until livez ${ms(median(results.map((r) => r.cpu)))} (medians)\n` +
    results.map((r) => `  livez ${ms(r.livez)}  docs ${ms(r.docs)}  cpu ${ms(r.cpu)}`).join('\n') +
    '\n',
);
