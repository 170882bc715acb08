import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { issueKey } from '../packages/server/src/keys/issue.js';
import { SqliteStore } from '../packages/server/src/store/sqlite/sqlite-store.js';
import type { ItemFields } from '../packages/server/src/store/types.js';
import {
  childPids,
  type ServeProcess,
  startServeProcess,
} from '../packages/server/src/testing/serve-process.js';

/**
 * Faults of `stockroom serve` processes: SIGTERM under load, and a cluster worker killed under
 * load. A database that goes away or is locked, in one process: faults.test.ts.
 */
const dirs: string[] = [];
const processes: ServeProcess[] = [];
afterAll(async () => {
  await Promise.all(processes.map((p) => p.stop('SIGKILL')));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A fresh SQLite file with one organization holding `rows`, and a key without a rate limit. */
async function seededDatabase(rows: ItemFields[] = []): Promise<{ file: string; key: string }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'stockroom-faults-'));
  dirs.push(dir);
  const file = path.join(dir, 'stockroom.db');
  const store = new SqliteStore(file);
  try {
    await store.migrate();
    const org = await store.createOrganization({
      name: 'Faults',
      slug: 'faults',
      features: ['inventory'],
    });
    if (rows.length > 0) await store.writeItems(org.id, rows);
    const { key } = await issueKey(store, { organizationId: org.id, rateLimit: null });
    return { file, key };
  } finally {
    await store.close();
  }
}
/** GET over a keep-alive agent; resolves with the status and body, or the socket's error. */

function get(
  agent: http.Agent,
  url: string,
  headers: Record<string, string>,
  onSocket?: (socket: Socket) => void,
): Promise<{ status: number; body: string } | { error: string }> {
  return new Promise((resolve) => {
    const request = http.get(url, { agent, headers }, (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (chunk: string) => {
        body += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      response.on('error', (error) => resolve({ error: error.message }));
    });
    if (onSocket) request.on('socket', onSocket);
    request.on('error', (error) => resolve({ error: error.message }));
  });
}

describe('SIGTERM under load', () => {
  it('answers every one of 40 in-flight requests for pages of 1000 items, then exits 0', async () => {
    const rows: ItemFields[] = Array.from({ length: 3000 }, (_, i) => ({
      name: `Item ${i}`,
      description: 'x'.repeat(200),
      sku: `SKU-${i}`,
      barcode: null,
      status: 'Active',
      quantity: i,
      customFields: '{"colour":"green"}',
    }));
    const { file, key } = await seededDatabase(rows);
    const server = await startServeProcess({ DATABASE_URL: file, LOG_LEVEL: 'debug' });
    processes.push(server);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 40 });
    try {
      // Warm connections first: a request the server has not read when the signal comes is not
      // in flight, and a new connection after it would be refused.
      await Promise.all(
        Array.from({ length: 40 }, () => get(agent, `${server.apiUrl}/api/v1/health`, {})),
      );
      const url = `${server.apiUrl}/api/v1/inventory/items?limit=1000`;
      const inFlight = Array.from({ length: 40 }, () => get(agent, url, { 'x-api-key': key }));
      // Every one read by the server (it logs each at debug level), then the signal.
      await server.waitForLine(/\/inventory\/items.*"request received"/, 40);
      const exited = server.stop('SIGTERM');
      const results = await Promise.all(inFlight);
      for (const result of results) {
        expect('status' in result ? result.status : result.error).toBe(200);
        if ('status' in result) expect(JSON.parse(result.body).count).toBe(1000);
      }
      expect(await exited).toBe(0);
    } finally {
      agent.destroy();
    }
  }, 90_000);
});

interface Outcome {
  loop: number;
  socket: number;
  requestId: string;
  status?: number;
  error?: string;
}

describe('serve --workers 3: a worker killed under load', () => {
  it('is replaced, and only the connections it held fail; metrics show every worker', async () => {
    const { file, key } = await seededDatabase();
    const cluster = await startServeProcess(
      { DATABASE_URL: file, LOG_LEVEL: 'info', METRICS_PORT: '0' },
      ['--workers', '3'],
    );
    processes.push(cluster);
    const metricsUrl = /Metrics:\s+(http\S+)/.exec(
      await cluster.waitForLine(/Metrics:\s+http/),
    )?.[1] as string;
    const verify = `${cluster.apiUrl}/api/v1/auth/verify`;

    // Metrics of the three workers, summed by the primary: 30 requests on fresh connections
    // (round robin over the workers) are 30 in the sum.
    const fresh = new http.Agent({ keepAlive: false });
    const warm = await Promise.all(
      Array.from({ length: 30 }, () => get(fresh, verify, { 'x-api-key': key })),
    );
    for (const result of warm) expect('status' in result && result.status).toBe(200);
    const scraped = await (await fetch(metricsUrl)).text();
    expect(scraped).toMatch(/^stockroom_cluster_workers 3$/m);
    // One series per worker (label `worker`), summing to the 30 requests.
    const perWorker = [
      ...scraped.matchAll(
        /^stockroom_http_requests_total\{route="\/api\/v1\/auth\/verify",status="200",transport="rest",worker="(\d+)"\} (\d+)$/gm,
      ),
    ];
    expect(new Set(perWorker.map((match) => match[1])).size).toBe(perWorker.length);
    expect(perWorker.reduce((sum, match) => sum + Number(match[2]), 0)).toBe(30);
    // Every process's own metrics, the primary's included, each under its label.
    const startTimes = [...scraped.matchAll(/^process_start_time_seconds\{worker="(\w+)"\} \d+/gm)];
    expect(startTimes.map((match) => match[1])).toContain('primary');
    expect(startTimes).toHaveLength(4);
    expect(scraped.match(/^stockroom_build_info\{[^}]*engine="sqlite"[^}]*\} 1$/gm)).toHaveLength(
      3,
    );

    // Steady load: 12 loops, each on one keep-alive connection of its own.
    const outcomes: Outcome[] = [];
    const socketIds = new WeakMap<Socket, number>();
    let sockets = 0;
    let stopping = false;
    let replaced: Promise<unknown> | null = null;
    const died = cluster.waitForLine(/worker died; starting a replacement/);
    const successes = new Map<number, number>();
    let onProgress = () => {};
    // A failure before the kill is a failure of the test, not something to wait out.
    let killed = false;
    let failEarly: (error: Error) => void = () => {};
    const early = new Promise<never>((_, reject) => {
      failEarly = reject;
    });
    const loop = async (index: number) => {
      let agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      while (!stopping) {
        const requestId = `crash-${index}-${randomBytes(6).toString('hex')}`;
        let socketId = -1;
        const result = await get(
          agent,
          verify,
          { 'x-api-key': key, 'x-request-id': requestId },
          (socket) => {
            if (!socketIds.has(socket)) socketIds.set(socket, sockets++);
            socketId = socketIds.get(socket) as number;
          },
        );
        outcomes.push({ loop: index, socket: socketId, requestId, ...result });
        if ('error' in result && !killed) {
          failEarly(new Error(`a request failed before any worker was killed: ${result.error}`));
          agent.destroy();
          return;
        }
        if ('error' in result) {
          // The connection died with its worker: wait until the primary knows, then reconnect.
          agent.destroy();
          await died;
          agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
        } else successes.set(index, (successes.get(index) ?? 0) + 1);
        onProgress();
      }
      agent.destroy();
    };
    const everyLoop = (atLeast: number) =>
      new Promise<void>((resolve) => {
        onProgress = () => {
          if ([...Array(12).keys()].every((i) => (successes.get(i) ?? 0) >= atLeast)) resolve();
        };
      });
    const started = everyLoop(3);
    const loops = Array.from({ length: 12 }, (_, i) => loop(i));
    await Promise.race([started, early]);
    const before = await childPids(cluster.pid);
    expect(before).toHaveLength(3);
    const victim = before[0] as number;
    replaced = cluster.waitForLine(/replacement worker ready/);
    killed = true;
    process.kill(victim, 'SIGKILL');
    await died;
    await replaced;
    // Load goes on after the replacement: every loop succeeds a few more times.
    const counts = new Map(successes);
    await new Promise<void>((resolve) => {
      onProgress = () => {
        if ([...Array(12).keys()].every((i) => (successes.get(i) ?? 0) >= (counts.get(i) ?? 0) + 3))
          resolve();
      };
    });
    stopping = true;
    await Promise.all(loops);

    const after = await childPids(cluster.pid);
    expect(after).toHaveLength(3);
    expect(after).not.toContain(victim);

    // The survivors write their last log lines when they exit; the victim's last few lines
    // died with it (logs are written asynchronously), so only the victim's may be missing.
    expect(await cluster.stop()).toBe(0);

    // Which worker answered each request, from its request log line.
    const pidOf = new Map<string, number>();
    for (const line of cluster.lines) {
      if (!line.includes('"msg":"request"')) continue;
      const entry = JSON.parse(line) as { pid: number; requestId: string };
      pidOf.set(entry.requestId, entry.pid);
    }
    const answered = outcomes.filter((o) => o.status !== undefined);
    const failed = outcomes.filter((o) => o.error !== undefined);
    // Every answer was a success.
    for (const outcome of answered) expect(outcome.status).toBe(200);
    // The worker of each connection, from the log lines of its requests: one worker each.
    const workerOf = new Map<number, number>();
    for (const outcome of answered) {
      const pid = pidOf.get(outcome.requestId);
      if (pid === undefined) continue;
      expect(workerOf.get(outcome.socket) ?? pid).toBe(pid);
      workerOf.set(outcome.socket, pid);
    }
    // A request without a log line was the victim's (its last lines were lost with it).
    for (const outcome of answered) {
      if (!pidOf.has(outcome.requestId)) expect(workerOf.get(outcome.socket)).toBe(victim);
    }
    // Round robin gave the victim some of the 12 connections: their requests failed, and only
    // theirs. Connections of the surviving workers never failed.
    expect(failed.length).toBeGreaterThanOrEqual(1);
    for (const failure of failed) expect(workerOf.get(failure.socket)).toBe(victim);
  }, 120_000);
});
