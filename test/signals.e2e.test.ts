import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { issueKey } from '../packages/server/src/keys/issue.js';
import { SqliteStore } from '../packages/server/src/store/sqlite/sqlite-store.js';
import {
  childPids,
  type ServeProcess,
  startServeProcess,
} from '../packages/server/src/testing/serve-process.js';

/**
 * Signals to `stockroom serve` (the built binary): SIGHUP to a cluster primary is a rolling
 * restart with no failed request; SIGHUP to a single process is logged and ignored; SIGTERM
 * turns readyz to 503 before the listeners close, and SHUTDOWN_TIMEOUT bounds the drain.
 */
const dirs: string[] = [];
const processes: ServeProcess[] = [];
afterAll(async () => {
  await Promise.all(processes.map((p) => p.stop('SIGKILL')));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const ADMIN_TOKEN = 'signals-e2e-admin-token-0123456789abcdef';

/** A fresh SQLite file with one organization (slug `signals`) and a key without a rate limit. */
async function seededDatabase(): Promise<{ file: string; key: string }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'stockroom-signals-'));
  dirs.push(dir);
  const file = path.join(dir, 'stockroom.db');
  const store = new SqliteStore(file);
  try {
    await store.migrate();
    const org = await store.createOrganization({
      name: 'Signals',
      slug: 'signals',
      features: ['inventory'],
    });
    const { key } = await issueKey(store, { organizationId: org.id, rateLimit: null });
    return { file, key };
  } finally {
    await store.close();
  }
}

async function serve(env: Record<string, string>, args: string[] = []): Promise<ServeProcess> {
  const server = await startServeProcess(env, args);
  processes.push(server);
  return server;
}

type Result = { status: number; body: string } | { error: string };

/** One GET; resolves with the status and body, or the error (never rejects). */
function get(url: string, agent: http.Agent | false, headers: Record<string, string> = {}) {
  return new Promise<Result>((resolve) => {
    const request = http.get(url, { agent, headers }, (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (chunk: string) => {
        body += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      response.on('error', (error) => resolve({ error: error.message }));
    });
    request.on('error', (error) => resolve({ error: error.message }));
  });
}

/** Resolves when the process exits, with its code and how long after `since` it exited. */
function exitOf(server: ServeProcess, since: () => number) {
  return new Promise<{ code: number | null; afterMs: number }>((resolve) => {
    const done = (code: number | null) => resolve({ code, afterMs: Date.now() - since() });
    if (server.child.exitCode !== null) done(server.child.exitCode);
    else server.child.once('exit', (code) => done(code));
  });
}

/** A raw connection; `reply()` resolves with everything received until the server closes it. */
async function rawConnection(url: string): Promise<{ socket: Socket; reply(): Promise<string> }> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  let received = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => {
    received += chunk;
  });
  const closed = new Promise<string>((resolve) => socket.once('close', () => resolve(received)));
  socket.on('error', () => {});
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return { socket, reply: () => closed };
}

/**
 * An admin bulk-upsert whose body never comes: the server has read its headers (it answered
 * `100 Continue`), so the request is in flight and holds the drain until the deadline.
 */
async function heldRequest(
  adminUrl: string,
): Promise<{ socket: Socket; reply(): Promise<string> }> {
  const connection = await rawConnection(adminUrl);
  const { host } = new URL(adminUrl);
  const continued = new Promise<void>((resolve) => {
    connection.socket.on('data', (chunk: string) => {
      if (chunk.includes('100 Continue')) resolve();
    });
  });
  connection.socket.write(
    [
      'POST /admin/v1/organizations/signals/items/bulk-upsert HTTP/1.1',
      `Host: ${host}`,
      `Authorization: Bearer ${ADMIN_TOKEN}`,
      'Content-Type: application/json',
      'Content-Length: 100000',
      'Expect: 100-continue',
      '',
      '',
    ].join('\r\n'),
  );
  await continued;
  connection.socket.write('[{"name":"held","sku":"HELD-1"');
  return connection;
}

describe('SIGHUP to a cluster primary', () => {
  it('replaces every worker one at a time under steady load with no failed request', async () => {
    const { file, key } = await seededDatabase();
    const cluster = await serve({ DATABASE_URL: file, LOG_LEVEL: 'info' }, ['--workers', '2']);
    const before = await childPids(cluster.pid);
    expect(before).toHaveLength(2);
    const verify = `${cluster.apiUrl}/api/v1/auth/verify`;
    const headers = { 'x-api-key': key };

    // Steady load: 8 loops on keep-alive connections and 4 opening a new connection each time.
    const outcomes: Array<{ at: number; result: Result }> = [];
    let stopping = false;
    const loop = async (keepAlive: boolean) => {
      const agent = keepAlive ? new http.Agent({ keepAlive: true, maxSockets: 1 }) : false;
      while (!stopping) {
        const result = await get(verify, agent, headers);
        outcomes.push({ at: Date.now(), result });
      }
      if (agent) agent.destroy();
    };
    const loops = [
      ...Array.from({ length: 8 }, () => loop(true)),
      ...Array.from({ length: 4 }, () => loop(false)),
    ];
    // Load is flowing before the signal.
    const deadline = Date.now() + 30_000;
    while (outcomes.length < 200 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(outcomes.length).toBeGreaterThanOrEqual(200);

    const signalled = Date.now();
    process.kill(cluster.pid, 'SIGHUP');
    await cluster.waitForLine(/rolling restart: replacing the workers one at a time/);
    const done = await cluster.waitForLine(/rolling restart done/);
    const finished = Date.now();
    // A little more load on the new workers.
    const settled = outcomes.length;
    while (outcomes.length < settled + 100) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    stopping = true;
    await Promise.all(loops);

    const failures = outcomes.filter(
      ({ result }) => !('status' in result) || result.status !== 200,
    );
    expect(failures.map(({ result }) => result)).toEqual([]);
    const during = outcomes.filter(({ at }) => at >= signalled && at <= finished).length;
    const seconds = (finished - signalled) / 1000;
    console.log(
      `rolling restart: ${during} requests in ${seconds.toFixed(1)} s (${Math.round(during / seconds)}/s), ${outcomes.length} in all, ${failures.length} failed`,
    );
    expect(during).toBeGreaterThanOrEqual(100);

    expect(JSON.parse(done)).toMatchObject({ replaced: 2, cut: 0, workers: 2 });
    // The same primary, with two new workers.
    expect(cluster.child.exitCode).toBeNull();
    const after = await childPids(cluster.pid);
    expect(after).toHaveLength(2);
    for (const pid of after) expect(before).not.toContain(pid);
    expect((await get(`${cluster.apiUrl}/readyz`, false)) as { status: number }).toMatchObject({
      status: 200,
    });
    expect(await cluster.stop('SIGTERM')).toBe(0);
  }, 240_000);

  it('coalesces a second SIGHUP during a restart into it', async () => {
    const { file } = await seededDatabase();
    const cluster = await serve({ DATABASE_URL: file, LOG_LEVEL: 'info' }, ['--workers', '2']);
    const before = await childPids(cluster.pid);
    process.kill(cluster.pid, 'SIGHUP');
    await cluster.waitForLine(/rolling restart: replacing the workers/);
    process.kill(cluster.pid, 'SIGHUP');
    await cluster.waitForLine(/SIGHUP coalesced/);
    const done = JSON.parse(await cluster.waitForLine(/rolling restart done/));
    // One restart: both original workers replaced, plus any started before the second signal.
    expect(done.replaced).toBeGreaterThanOrEqual(2);
    expect(done.replaced).toBeLessThanOrEqual(3);
    expect(cluster.lines.filter((line) => /rolling restart done/.test(line))).toHaveLength(1);
    const after = await childPids(cluster.pid);
    expect(after).toHaveLength(2);
    for (const pid of after) expect(before).not.toContain(pid);
    expect(await cluster.stop('SIGTERM')).toBe(0);
  }, 240_000);
});

describe('SIGHUP to a single process', () => {
  it('is logged and ignored: the same process keeps serving', async () => {
    const { file } = await seededDatabase();
    const server = await serve({ DATABASE_URL: file });
    process.kill(server.pid, 'SIGHUP');
    const line = JSON.parse(await server.waitForLine(/SIGHUP ignored/));
    expect(line).toMatchObject({ pid: server.pid, signal: 'SIGHUP', level: 40 });
    expect(await get(`${server.apiUrl}/readyz`, false)).toMatchObject({ status: 200 });
    expect(server.child.exitCode).toBeNull();
    expect(await server.stop('SIGTERM')).toBe(0);
  });
});

describe('SIGTERM and SHUTDOWN_TIMEOUT', () => {
  it('answers readyz 503 at once, then cuts a request still in flight at the deadline and exits 1', async () => {
    const { file } = await seededDatabase();
    const server = await serve({
      DATABASE_URL: file,
      LOG_LEVEL: 'info',
      ADMIN_TOKEN,
      ADMIN_PORT: '0',
      SHUTDOWN_TIMEOUT: '2s',
    });
    const adminUrl = /Admin:\s+(http\S+)\/admin\/v1/.exec(
      await server.waitForLine(/Admin:\s+http/),
    )?.[1] as string;
    const held = await heldRequest(adminUrl);
    // In one write, a whole livez request and the start of a readyz one: once livez is
    // answered the server has read the start of readyz too, so the drain keeps the connection.
    const probe = await rawConnection(server.apiUrl);
    const livez = new Promise<void>((resolve) => {
      probe.socket.on('data', (chunk: string) => {
        if (chunk.includes('{"status":"ok"}')) resolve();
      });
    });
    probe.socket.write(
      'GET /livez HTTP/1.1\r\nHost: stockroom\r\n\r\nGET /readyz HTTP/1.1\r\nHost: stockroom\r\n',
    );
    await livez;

    let signalledAt = 0;
    const exited = exitOf(server, () => signalledAt);
    signalledAt = Date.now();
    process.kill(server.pid, 'SIGTERM');
    await server.waitForLine(/shutting down: finishing in-flight requests/);
    probe.socket.write('\r\n');
    const answer = await probe.reply();
    expect(answer).toMatch(/^HTTP\/1\.1 200 [\s\S]*HTTP\/1\.1 503 /);
    expect(answer).toMatch(/\r\nconnection: close\r\n/i);
    expect(answer).toMatch(/"code":"SERVICE_UNAVAILABLE"/);
    expect(answer).toMatch(/draining/);

    const { code, afterMs } = await exited;
    expect(code).toBe(1);
    // About the deadline: not before it, and not long after.
    expect(afterMs).toBeGreaterThanOrEqual(1900);
    expect(afterMs).toBeLessThan(6000);
    const cut = JSON.parse(
      server.lines.find((line) => /shutdown deadline passed/.test(line)) ?? '{}',
    );
    expect(cut.level).toBe(50);
    expect(cut.cut).toEqual({ admin: { requests: 1, connections: 1 } });
    expect(cut.msg).toMatch(/cutting 1 request in flight on 1 open connection \(admin: /);
    // The held request's connection was cut with the process.
    await held.reply();
  });

  it('exits 0 well before the deadline when nothing holds the drain', async () => {
    const { file } = await seededDatabase();
    const server = await serve({ DATABASE_URL: file, SHUTDOWN_TIMEOUT: '10s' });
    // An idle keep-alive connection does not hold it.
    const agent = new http.Agent({ keepAlive: true });
    expect(await get(`${server.apiUrl}/livez`, agent)).toMatchObject({ status: 200 });
    const started = Date.now();
    expect(await server.stop('SIGTERM')).toBe(0);
    expect(Date.now() - started).toBeLessThan(8000);
    expect(server.lines.some((line) => /shutdown deadline passed/.test(line))).toBe(false);
    agent.destroy();
  });

  it('answers readyz 503 from the signal while the listener still accepts (SHUTDOWN_DELAY), then closes it', async () => {
    const { file } = await seededDatabase();
    const server = await serve({
      DATABASE_URL: file,
      LOG_LEVEL: 'info',
      SHUTDOWN_DELAY: '3s',
      SHUTDOWN_TIMEOUT: '10s',
    });
    expect(await get(`${server.apiUrl}/readyz`, false)).toMatchObject({ status: 200 });
    let signalledAt = 0;
    const exited = exitOf(server, () => signalledAt);
    signalledAt = Date.now();
    process.kill(server.pid, 'SIGTERM');
    await server.waitForLine(/shutting down: readyz answers 503 now/);
    // New connections are still accepted: readyz says not ready, livez still says alive.
    const ready = await get(`${server.apiUrl}/readyz`, false);
    const refusedBefore = Date.now() - signalledAt;
    expect(ready).toMatchObject({ status: 503 });
    expect(JSON.parse((ready as { body: string }).body).error).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
    });
    expect(await get(`${server.apiUrl}/livez`, false)).toMatchObject({ status: 200 });
    // Then the listener closes: new connections are refused.
    let refused: Result = { status: 0, body: '' };
    while ('status' in refused) {
      refused = await get(`${server.apiUrl}/readyz`, false);
      if ('status' in refused) {
        expect(refused.status).toBe(503);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    const closedAfter = Date.now() - signalledAt;
    expect(refused.error).toMatch(/ECONNREFUSED/);
    expect(refusedBefore).toBeLessThan(3000);
    expect(closedAfter).toBeGreaterThanOrEqual(2900);
    expect((await exited).code).toBe(0);
  });
});

describe('SIGTERM to a cluster primary', () => {
  it('drains every worker under the deadline and exits 1 when one was cut', async () => {
    const { file } = await seededDatabase();
    const cluster = await serve(
      {
        DATABASE_URL: file,
        LOG_LEVEL: 'info',
        ADMIN_TOKEN,
        ADMIN_PORT: '0',
        SHUTDOWN_TIMEOUT: '2s',
      },
      ['--workers', '2'],
    );
    const adminUrl = /Admin:\s+(http\S+)\/admin\/v1/.exec(
      await cluster.waitForLine(/Admin:\s+http/),
    )?.[1] as string;
    const held = await heldRequest(adminUrl);
    let signalledAt = 0;
    const exited = exitOf(cluster, () => signalledAt);
    signalledAt = Date.now();
    process.kill(cluster.pid, 'SIGTERM');
    const { code, afterMs } = await exited;
    expect(code).toBe(1);
    expect(afterMs).toBeGreaterThanOrEqual(1900);
    expect(afterMs).toBeLessThan(6000);
    expect(cluster.lines.filter((line) => /shutdown deadline passed/.test(line))).toHaveLength(1);
    const summary = JSON.parse(cluster.lines.find((line) => /"msg":"stopped:/.test(line)) ?? '{}');
    expect(summary).toMatchObject({ drained: 1, cut: 1, exitCode: 1 });
    await held.reply();
  }, 120_000);
});
