#!/usr/bin/env node
// Issue 27's stall scenarios on SQLite (bench/lib/stalls.js): `health` and item detail p50/p99
// of one `stockroom serve` process, 50 requests a second each, timed from when each was due,
// while a heavy thing runs beside them. Builds its fixture once under bench/.data/stalls.
//
//   npm run bench:stalls               (builds first)
//   options: --dots N (200000)  --big N (400000)  --imported N (150000)  --json
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildStallFixture, SCENARIOS, startStallServer } from './lib/stalls.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const { values: opts } = parseArgs({
  options: {
    dots: { type: 'string', default: '200000' },
    big: { type: 'string', default: '400000' },
    imported: { type: 'string', default: '150000' },
    json: { type: 'boolean', default: false },
  },
});
const sizes = { dots: Number(opts.dots), big: Number(opts.big), imported: Number(opts.imported) };

const started = performance.now();
const fixture = await buildStallFixture(path.join(ROOT, 'bench/.data/stalls'), sizes);
console.error(`fixture built in ${((performance.now() - started) / 1000).toFixed(1)} s`);
const server = await startStallServer(fixture);
const rows = [];
try {
  for (const [name, run] of SCENARIOS) {
    console.error(`running: ${name}`);
    const outcome = await run(server, fixture);
    rows.push({ name, ...outcome });
  }
} finally {
  await server.stop();
}

const ms = (value) => value.toFixed(1);
const note = (row) => {
  const result = row.result ?? {};
  if (result.searches) {
    const seconds = result.durations.map((d) => d / 1000);
    const range = `${Math.min(...seconds).toFixed(2)}-${Math.max(...seconds).toFixed(2)} s`;
    return `${result.searches.length} searches: ${[...new Set(result.searches)].join(', ')}, each in ${range}`;
  }
  if (result.charged) {
    const by = {};
    for (const charge of result.charged) {
      const key = charge.status;
      by[key] ??= [];
      by[key].push(charge.ms);
    }
    return Object.entries(by)
      .map(
        ([status, list]) =>
          `${list.length} quota requests ${status} (max ${(Math.max(...list) / 1000).toFixed(2)} s)`,
      )
      .join(', ');
  }
  if (result.code !== undefined) return `import exit code ${result.code}`;
  if (result.status !== undefined) {
    return `DELETE ${result.status} in ${(result.ms / 1000).toFixed(2)} s, ${result.body?.data?.deleted?.items} items`;
  }
  return '';
};
if (opts.json) console.log(JSON.stringify(rows, null, 2));
else {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  console.log(
    `${os.cpus().length} × ${cpu}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.versions.node}, ${os.platform()} ${os.release()}`,
  );
  console.log('');
  console.log(
    '| scenario | seconds | health p50 / p99 (ms) | item detail p50 / p99 (ms) | non-200 (health, item) | serving thread on CPU / waiting for one (ms) | what ran |',
  );
  console.log('|---|---:|---:|---:|---|---:|---|');
  const bad = (summary) =>
    Object.entries(summary.statuses)
      .filter(([s]) => s !== '200')
      .map(([s, n]) => `${n}×${s}`)
      .join(' ') || '0';
  for (const row of rows) {
    console.log(
      `| ${row.name} | ${row.seconds.toFixed(1)} | ${ms(row.health.p50)} / ${ms(row.health.p99)} | ${ms(row.item.p50)} / ${ms(row.item.p99)} | ${bad(row.health)}, ${bad(row.item)} | ${row.mainThread ? `${row.mainThread.cpuMs.toFixed(0)} / ${row.mainThread.waitMs.toFixed(0)}` : 'n/a'} | ${note(row)} |`,
    );
  }
}
