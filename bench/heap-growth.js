#!/usr/bin/env node
// The heap growth bound (packages/server/src/heap-growth.ts) measured: the old generation's
// peak of a workload that keeps promoting short-lived objects (as a server under load does),
// unbound, bound by boundHeapGrowth, and with an operator's own --heap-growing-percent=300
// (which the bound leaves alone). The median of `--runs` processes each, one at a time (side by
// side they measure each other). Measured on Node 20: bound about 0.6 times unbound, the
// operator's choice 1.7-1.9 times bound.
//
//   npm run bench:heap                 (builds first)
//   options: --runs N (3)  --json
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs, promisify } from 'node:util';

const BUILT = fileURLToPath(new URL('../packages/server/dist/heap-growth.js', import.meta.url));
if (!existsSync(BUILT)) throw new Error('packages/server is not built: run `npm run build`');
const { values: opts } = parseArgs({
  options: { runs: { type: 'string', default: '3' }, json: { type: 'boolean', default: false } },
});
const runs = Number(opts.runs);

/** A live set of a few MB and a stream of objects that die soon after promotion; prints the peak. */
const WORKLOAD = `
import v8 from 'node:v8';
if (process.argv.includes('bound')) {
  const { boundHeapGrowth } = await import(${JSON.stringify(pathToFileURL(BUILT).href)});
  boundHeapGrowth();
}
const oldUsed = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'old_space').space_used_size;
const live = Array.from({ length: 100_000 }, (_, i) => ({ i, s: 'live ' + i }));
const recent = [];
let peak = 0;
for (let round = 0; round < 6_000; round++) {
  recent.push(Array.from({ length: 1_000 }, (_, i) => ({ i, s: 'short ' + i + round })));
  if (recent.length > 150) recent.shift();
  if (round % 20 === 0) peak = Math.max(peak, oldUsed());
}
console.log(JSON.stringify({ peak, live: live.length }));
`;

async function oldGenerationPeak(nodeArgs, bound) {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [...nodeArgs, '--input-type=module', '-e', WORKLOAD, ...(bound ? ['bound'] : [])],
    { timeout: 120_000 },
  );
  return JSON.parse(stdout).peak;
}

// The median: V8 sometimes ends a run at a fraction of its usual peak (seen on Node 24, with
// and without the bound: 24 MB instead of 134-230 MB).
async function medianPeak(nodeArgs, bound) {
  const peaks = [];
  for (let run = 0; run < runs; run++) peaks.push(await oldGenerationPeak(nodeArgs, bound));
  return peaks.sort((a, b) => a - b)[Math.floor(peaks.length / 2)];
}

const unbound = await medianPeak([], false);
const bound = await medianPeak([], true);
const operatorChoice = await medianPeak(['--heap-growing-percent=300'], true);
const rows = [
  { case: 'unbound', peakMB: unbound / 2 ** 20, ratio: unbound / bound },
  { case: 'bound (boundHeapGrowth)', peakMB: bound / 2 ** 20, ratio: 1 },
  {
    case: 'operator --heap-growing-percent=300',
    peakMB: operatorChoice / 2 ** 20,
    ratio: operatorChoice / bound,
  },
];
if (opts.json) {
  console.log(JSON.stringify({ node: process.version, runs, rows }, null, 2));
} else {
  console.log(`Node ${process.version}, median of ${runs} runs each; ratio = peak / bound peak`);
  console.log(`${'case'.padEnd(38)}${'old gen peak'.padStart(14)}${'ratio'.padStart(8)}`);
  for (const row of rows) {
    console.log(
      `${row.case.padEnd(38)}${`${row.peakMB.toFixed(1)} MB`.padStart(14)}${row.ratio.toFixed(2).padStart(8)}`,
    );
  }
}
