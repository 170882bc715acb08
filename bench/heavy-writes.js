#!/usr/bin/env node
// Issue 41, point 9 (bench/lib/heavy-writes.js): p50/p99/max of item detail with a key that
// has a quota (every request charges one use, a write), beside a key without one, RATE requests
// a second each, timed from when each was due, from one `stockroom serve` process while another process deletes a 200k-item
// organization, then imports 200k rows; on SQLite and PostgreSQL. Builds its fixtures under
// bench/.data/heavy-writes (SQLite) and in a fresh schema (PostgreSQL, dropped afterwards).
//
//   npm run bench:heavy-writes           (builds first)
//   options: --engine sqlite|postgres|both (both)  --deleted N (200000)  --imported N (200000)
//            --postgres URL (TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test)
//            --json
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { buildHeavyFixture, RATE, SCENARIOS, startHeavyServer } from './lib/heavy-writes.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const { values: opts } = parseArgs({
  options: {
    engine: { type: 'string', default: 'both' },
    deleted: { type: 'string', default: '200000' },
    imported: { type: 'string', default: '200000' },
    postgres: {
      type: 'string',
      default: process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test',
    },
    json: { type: 'boolean', default: false },
  },
});
const sizes = { deleted: Number(opts.deleted), imported: Number(opts.imported) };
const engines = opts.engine === 'both' ? ['sqlite', 'postgres'] : [opts.engine];

/** A fresh schema of the PostgreSQL database (extensions in public, as the tests do). */
async function postgresSchema(url) {
  const schema = `stockroom_bench_${randomBytes(4).toString('hex')}`;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public');
  await client.query('CREATE EXTENSION IF NOT EXISTS btree_gin SCHEMA public');
  await client.query(`CREATE SCHEMA ${schema}`);
  await client.end();
  const scoped = new URL(url);
  scoped.searchParams.set('options', `-c search_path=${schema},public`);
  return {
    url: scoped.toString(),
    async drop() {
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      await admin.end();
    },
  };
}

const rows = [];
for (const engine of engines) {
  const dir = path.join(ROOT, 'bench/.data/heavy-writes', engine);
  const schema = engine === 'postgres' ? await postgresSchema(opts.postgres) : null;
  try {
    const started = performance.now();
    const fixture = await buildHeavyFixture(
      dir,
      schema ? schema.url : path.join(dir, 'stockroom.db'),
      sizes,
    );
    console.error(
      `${engine}: fixture built in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    const server = await startHeavyServer(fixture);
    try {
      for (const [name, run] of SCENARIOS) {
        console.error(`${engine}: ${name}`);
        const outcome = await run(server, fixture);
        if (outcome.result.code !== 0) throw new Error(`${name} failed:\n${outcome.result.output}`);
        rows.push({ engine, name, ...outcome });
      }
    } finally {
      await server.stop();
    }
  } finally {
    await schema?.drop();
  }
}

if (opts.json) console.log(JSON.stringify(rows, null, 2));
else {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  console.log(
    `${os.cpus().length} × ${cpu}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.versions.node}, ${os.platform()} ${os.release()}; ${RATE} requests/s`,
  );
  console.log('');
  console.log(
    '| engine | heavy write (another process) | its seconds | quota key: item detail p50 / p99 / max (ms) | requests | non-200 | key without quota: p50 / p99 / max (ms) |',
  );
  console.log('|---|---|---:|---:|---:|---|---:|');
  const ms = (value) => value.toFixed(1);
  for (const row of rows) {
    const bad =
      Object.entries(row.item.statuses)
        .filter(([status]) => status !== '200')
        .map(([status, n]) => `${n}×${status}`)
        .join(' ') || (row.item.errors ? `${row.item.errors} errors` : '0');
    console.log(
      `| ${row.engine} | ${row.name} | ${row.result.seconds.toFixed(1)} | ${ms(row.item.p50)} / ${ms(row.item.p99)} / ${ms(row.item.max)} | ${row.item.count} | ${bad} | ${ms(row.reference.p50)} / ${ms(row.reference.p99)} / ${ms(row.reference.max)} |`,
    );
  }
}
