// The stall scenarios of issue 27 on SQLite: `health` and item detail latency of a
// `stockroom serve` process (the built binary) while one heavy thing runs beside them:
//   search   a 200-character search made of "." on a 200k-item organization whose items all
//            contain "....." (no item matches), one request after another;
//   lock     another process holds the write lock (BEGIN IMMEDIATE) for 8 s; quota-charged
//            requests meanwhile must answer 503 after DATABASE_TIMEOUT_MS, never hang;
//   import   a 150k-row `stockroom items import --strict` in another process;
//   delete   deleting a 400k-item organization through the admin API.
// Used by bench/stalls.js (the table of BENCHMARKS.md) and test/stalls.e2e.test.ts (which
// asserts p99 ≤ 20 ms). The fixture is written with bulk SQL in one transaction, not the API.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Connection, requestBytes, summarize } from './http-client.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DIST = path.join(ROOT, 'packages/server/dist');
export const BIN = path.join(ROOT, 'packages/server/bin/stockroom.js');
export const ADMIN_TOKEN = 'stall-bench-admin-token-0123456789abcdef';

export const DEFAULT_SIZES = { dots: 200_000, big: 400_000, imported: 150_000 };
/** The search of the first scenario: 200 × "." (every trigram of it is "...", in every item). */
export const DOT_SEARCH = '.'.repeat(200);
/** How long the lock scenario holds the write lock, and the search scenario runs. */
export const HOLD_MS = 8_000;

/** An id of the layout of ids.ts (24 hex digits) that sorts in `n` order within a fixture. */
function idSql(n) {
  return `printf('%08x%016x', 1767225600, ${n})`;
}

async function dist(module) {
  return import(path.join(DIST, module));
}

/**
 * The database: organizations `dots` (DOT_SEARCH's haystack), `big` (to delete), `small` (the
 * item of the item-detail requests, 100 items) and `imports` (the import's target, empty), and
 * an NDJSON file of sizes.imported rows for it. Keys have no rate limit; `quota` has uses left.
 */
export async function buildStallFixture(dir, sizes = DEFAULT_SIZES) {
  const { SqliteStore } = await dist('store/sqlite/sqlite-store.js');
  const { default: Database } = await dist('store/sqlite/driver.js');
  const { generateKey } = await dist('keys/format.js');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'stockroom.db');
  const store = new SqliteStore(file);
  await store.migrate();
  const org = (slug) => store.createOrganization({ name: slug, slug, features: ['inventory'] });
  const orgs = {
    dots: await org('dots'),
    big: await org('big'),
    small: await org('small'),
    imports: await org('imports'),
  };
  const keys = {};
  for (const [name, organization, remaining] of [
    ['reader', orgs.small, null],
    ['quota', orgs.small, 1_000_000],
    ['dots', orgs.dots, null],
  ]) {
    const generated = generateKey('organization');
    await store.createApiKey({
      id: `key_stall_${name}`,
      organizationId: organization.id,
      userId: null,
      type: 'organization',
      name,
      prefix: generated.prefix,
      hash: generated.hash,
      permissions: ['inventory:view'],
      expiresAt: null,
      remaining,
      rateLimit: null,
      createdAt: Date.now(),
    });
    keys[name] = generated.key;
  }
  await store.close();

  const db = new Database(file);
  const seqOf = (id) => db.prepare('SELECT seq FROM organizations WHERE id = ?').get(id).seq;
  const now = Date.now();
  const insert = (organization, count, name, description) => {
    const base = seqOf(organization.id) * 2 ** 32;
    db.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?),
         rows AS (SELECT i, ${name} AS name, ${description} AS description,
           printf('%s-%d', ?, i) AS sku FROM n)
       INSERT INTO items (seq, organization_id, id, name, description, sku, barcode, status,
         quantity, custom_fields, search_text, created_at, updated_at, change_seq, created_seq)
       SELECT ? + i, ?, ${idSql('i')}, name, description, sku, NULL, 'Active', i, '{}',
         lower(name) || char(0) || lower(description) || char(0) || lower(sku) || char(0),
         ?, ?, ? + i, ? + i
       FROM rows`,
    ).run(count, organization.slug, base, organization.id, now, now, now * 1000, now * 1000);
  };
  db.transaction(() => {
    insert(orgs.dots, sizes.dots, "printf('Dotted widget %d .....', i)", "'ends with ..... dots'");
    insert(orgs.big, sizes.big, "printf('Bulk part %d', i)", "'galvanized steel bracket'");
    insert(orgs.small, 100, "printf('Small thing %d', i)", "'a small thing'");
    // The search index, in one batch (as a bulk load leaves it: see SqliteStore.indexPending).
    db.prepare(
      `INSERT INTO items_search (rowid, search_text)
       SELECT i.seq, i.search_text FROM items_search_pending p JOIN items i ON i.seq = p.seq`,
    ).run();
    db.prepare('DELETE FROM items_search_pending').run();
    db.prepare(
      'UPDATE organizations SET change_seq = (SELECT COALESCE(MAX(change_seq), 0) FROM items WHERE organization_id = organizations.id)',
    ).run();
  })();
  const itemId = db
    .prepare('SELECT id FROM items WHERE organization_id = ? ORDER BY id LIMIT 1')
    .pluck()
    .get(orgs.small.id);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();

  const importFile = path.join(dir, 'import.ndjson');
  const lines = [];
  for (let i = 1; i <= sizes.imported; i++) {
    lines.push(JSON.stringify({ sku: `IMP-${i}`, name: `Imported part ${i}`, quantity: i }));
  }
  writeFileSync(importFile, `${lines.join('\n')}\n`);
  return { dir, file, orgs, keys, itemId, importFile, sizes };
}

export function freePort() {
  return new Promise((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** `stockroom serve` on the fixture (one process), with the admin API on. */
export async function startStallServer(fixture, env = {}) {
  const [port, docsPort, adminPort] = [await freePort(), await freePort(), await freePort()];
  const child = spawn(
    process.execPath,
    [BIN, '--database', fixture.file, 'serve', '--port', String(port)].concat([
      '--docs-port',
      String(docsPort),
      '--no-demo',
    ]),
    {
      env: {
        ...process.env,
        NODE_ENV: 'production',
        LOG_LEVEL: 'warn',
        ADMIN_TOKEN,
        ADMIN_PORT: String(adminPort),
        WEBHOOKS: 'off',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const output = [];
  child.stdout.setEncoding('utf8').on('data', (chunk) => output.push(chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk) => output.push(chunk));
  const exited = once(child, 'exit');
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited:\n${output.join('')}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/v1/health`)).ok) break;
    } catch {}
    if (Date.now() > deadline) throw new Error(`the server did not start:\n${output.join('')}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    port,
    apiUrl: `http://127.0.0.1:${port}`,
    adminUrl: `http://127.0.0.1:${adminPort}`,
    pid: child.pid,
    output,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * Requests at a fixed rate until stopped, each timed from the moment it was due (so a stalled
 * server counts fully: no coordinated omission), on a few keep-alive connections.
 */
export function startSampler({ port, path: requestPath, headers = {}, rate = 50 }) {
  const bytes = requestBytes('127.0.0.1', port, requestPath, headers);
  const pool = Array.from({ length: 8 }, () => new Connection('127.0.0.1', port));
  const idle = [...pool];
  const queue = [];
  const latencies = [];
  const statuses = new Map();
  let errors = 0;
  let stopped = false;
  let inFlight = 0;
  let drained;
  const start = performance.now();
  let issued = 0;
  let timer;
  const dispatch = () => {
    while (queue.length > 0 && idle.length > 0) {
      const due = queue.shift();
      const connection = idle.pop();
      inFlight++;
      connection.send(bytes).then(
        (status) => {
          latencies.push(performance.now() - due);
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          idle.push(connection);
          inFlight--;
          dispatch();
          if (stopped && inFlight === 0) drained?.();
        },
        () => {
          errors++;
          inFlight--;
          if (stopped && inFlight === 0) drained?.();
        },
      );
    }
  };
  const tick = () => {
    if (stopped) return;
    const now = performance.now();
    while (start + (issued * 1000) / rate <= now) {
      queue.push(start + (issued * 1000) / rate);
      issued++;
    }
    dispatch();
    timer = setTimeout(tick, Math.max(0, start + (issued * 1000) / rate - performance.now()));
  };
  const ready = Promise.all(pool.map((connection) => connection.ready)).then(tick);
  return {
    async stop() {
      await ready;
      stopped = true;
      clearTimeout(timer);
      // Requests still queued never went out: counted as late as they are now.
      const now = performance.now();
      for (const due of queue.splice(0)) latencies.push(now - due);
      if (inFlight > 0) await new Promise((resolve) => (drained = resolve));
      for (const connection of pool) connection.close();
      return { ...summarize(latencies), statuses: Object.fromEntries(statuses), errors };
    },
  };
}

/**
 * The serving thread's (the process's main thread) time on a CPU and waiting for one, in ms
 * (Linux schedstat; null elsewhere): tells a thread busy with work from one kept off the CPU by
 * other processes.
 */
function mainThreadTimes(pid) {
  try {
    const [run, wait] = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ');
    return { cpuMs: Number(run) / 1e6, waitMs: Number(wait) / 1e6 };
  } catch {
    return null;
  }
}

/** Samples health and item detail while `work` runs; returns both summaries and its result. */
export async function measure(server, fixture, work) {
  const before = mainThreadTimes(server.pid);
  const health = startSampler({ port: server.port, path: '/api/v1/health' });
  const item = startSampler({
    port: server.port,
    path: `/api/v1/inventory/item?itemId=${fixture.itemId}`,
    headers: { 'x-api-key': fixture.keys.reader },
  });
  const started = performance.now();
  const outcome = await work().then(
    (result) => ({ result }),
    (error) => ({ error }),
  );
  const summaries = { health: await health.stop(), item: await item.stop() };
  if ('error' in outcome) throw outcome.error;
  const after = mainThreadTimes(server.pid);
  const mainThread =
    before && after
      ? { cpuMs: after.cpuMs - before.cpuMs, waitMs: after.waitMs - before.waitMs }
      : null;
  return {
    ...summaries,
    seconds: (performance.now() - started) / 1000,
    mainThread,
    result: outcome.result,
  };
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Nothing else running. */
export function baseline(server, fixture, ms = 4_000) {
  return measure(server, fixture, () => sleep(ms).then(() => ({})));
}

/** DOT_SEARCH, one request after another, for HOLD_MS. */
export function searchScenario(server, fixture) {
  return measure(server, fixture, async () => {
    const statuses = [];
    const durations = [];
    const until = performance.now() + HOLD_MS;
    while (performance.now() < until) {
      const started = performance.now();
      const response = await fetch(
        `${server.apiUrl}/api/v1/inventory/items?search=${encodeURIComponent(DOT_SEARCH)}`,
        { headers: { 'x-api-key': fixture.keys.dots } },
      );
      const body = await response.json();
      durations.push(performance.now() - started);
      statuses.push(response.status === 200 ? `200 (${body.data.length} items)` : response.status);
    }
    return { searches: statuses, durations };
  });
}

/**
 * Another process takes the write lock and keeps it HOLD_MS; meanwhile quota-charged requests
 * (which need the lock) are sent every 250 ms and timed.
 */
export function lockScenario(server, fixture) {
  return measure(server, fixture, async () => {
    const script = `
      const { default: Database } = await import(${JSON.stringify(path.join(DIST, 'store/sqlite/driver.js'))});
      const db = new Database(${JSON.stringify(fixture.file)});
      db.exec('BEGIN IMMEDIATE');
      console.log('locked');
      setTimeout(() => { db.exec('ROLLBACK'); db.close(); }, ${HOLD_MS});`;
    const holder = spawn(process.execPath, ['--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise((resolve, reject) => {
      holder.stdout.on('data', (chunk) => String(chunk).includes('locked') && resolve());
      holder.once('exit', (code) => reject(new Error(`the lock holder exited (${code})`)));
    });
    const exited = once(holder, 'exit');
    const charged = [];
    let done = false;
    exited.then(() => {
      done = true;
    });
    const charges = [];
    while (!done) {
      charges.push(
        (async () => {
          const started = performance.now();
          const response = await fetch(
            `${server.apiUrl}/api/v1/inventory/item?itemId=${fixture.itemId}`,
            { headers: { 'x-api-key': fixture.keys.quota } },
          );
          await response.arrayBuffer();
          charged.push({ status: response.status, ms: performance.now() - started, started });
        })(),
      );
      await Promise.race([sleep(250), exited]);
    }
    await Promise.all(charges);
    return { charged };
  });
}

/** `stockroom items import --strict` of the fixture's file, in another process. */
export function importScenario(server, fixture) {
  return measure(server, fixture, async () => {
    const child = spawn(
      process.execPath,
      [BIN, '--database', fixture.file, 'items', 'import', '--strict', '--org', 'imports'].concat(
        fixture.importFile,
      ),
      { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_ENV: 'production' } },
    );
    const output = [];
    child.stdout.setEncoding('utf8').on('data', (chunk) => output.push(chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => output.push(chunk));
    const [code] = await once(child, 'exit');
    return { code, output: output.join('') };
  });
}

/** DELETE /admin/v1/organizations/big. */
export function deleteScenario(server, fixture) {
  return measure(server, fixture, async () => {
    const started = performance.now();
    const response = await fetch(`${server.adminUrl}/admin/v1/organizations/big`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    const body = await response.json();
    const ms = performance.now() - started;
    // A moment after the answer too: what the delete left behind (a checkpoint) counts.
    await sleep(500);
    return { status: response.status, body, ms };
  });
}

export const SCENARIOS = [
  ['baseline', baseline],
  ['search 200 × "."', searchScenario],
  ['write lock held 8 s', lockScenario],
  ['import 150k rows', importScenario],
  ['delete 400k-item org', deleteScenario],
];
