import cluster, { type Worker } from 'node:cluster';
import { once } from 'node:events';
import net from 'node:net';
import os from 'node:os';
import type pino from 'pino';
import type { Config } from './config.js';
import { type DemoSeed, seedDemo } from './demo.js';
import { hasRateLimitCounters } from './keys/db-rate-limit.js';
import { answerRateLimits } from './keys/ipc-rate-limit.js';
import { MemoryRateLimiter } from './keys/rate-limit.js';
import { ClusterMetrics, PROMETHEUS_CONTENT_TYPE } from './metrics/cluster.js';
import { startMetricsServer } from './metrics/server.js';
import { openStore } from './store/open.js';
import { migrateWhenReachable } from './store/start-retry.js';

/**
 * `serve --workers N|auto`: N API processes through node:cluster, sharing the ports. Every
 * process is stateless: state lives in the database (quotas, keys) and in Redis, the database
 * or, on SQLite without Redis (or while it is down), the primary (rate limits), so a request
 * may land on any of them.
 * On SQLite the workers share the one database file (WAL: one writer at a time, which the
 * atomic quota UPDATE needs anyway); the primary holds the serve lock (serve-lock.ts).
 */

/** How many processes to run; `auto` is one per core. */
export function resolveWorkers(config: Config): number {
  return config.workers === 'auto' ? os.availableParallelism() : config.workers;
}

const PORTS_ENV = 'STOCKROOM_CLUSTER_PORTS';
const READY = 'stockroom:ready';
/** Primary → worker: drain and exit, as on SIGTERM but without SHUTDOWN_DELAY (a reload). */
const DRAIN = 'stockroom:drain';

interface ReadyMessage {
  type: typeof READY;
  apiUrl: string;
  docsUrl: string;
  /** Null when the admin API is off. */
  adminUrl: string | null;
}

function isReady(message: unknown): message is ReadyMessage {
  return (message as ReadyMessage | null)?.type === READY;
}

/**
 * In a worker: the ports the primary chose (so `--port 0` means one port for all). Every
 * worker listens on the admin port too, as on the API's: the cluster shares it, so an admin
 * request, like an API request, may land on any worker (they share the database).
 */
export function workerConfig(config: Config): Config {
  const [port, docsPort, adminPort] = process.env[PORTS_ENV]?.split(':').map(Number) ?? [];
  if (port === undefined || docsPort === undefined) return config;
  return { ...config, port, docsPort, ...(adminPort === undefined ? {} : { adminPort }) };
}

/** In a worker: tells the primary this process is listening. */
export function reportReady(urls: {
  apiUrl: string;
  docsUrl: string;
  adminUrl?: string | null;
}): void {
  process.send?.({
    type: READY,
    apiUrl: urls.apiUrl,
    docsUrl: urls.docsUrl,
    adminUrl: urls.adminUrl ?? null,
  } satisfies ReadyMessage);
}

/** In a worker: runs `drain` when the primary asks this worker to drain (a rolling restart). */
export function onDrainRequest(drain: () => void): void {
  process.on('message', (message: unknown) => {
    if ((message as { type?: unknown } | null)?.type === DRAIN) drain();
  });
}

async function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const address = probe.address() as net.AddressInfo;
      probe.close(() => resolve(address.port));
    });
  });
}

/** A replacement that cannot start is retried later and later, never in a tight loop. */
const MAX_RESTART_DELAY_MS = 30_000;
/** How long a rolling restart waits for a new worker to report ready before giving up. */
export const RELOAD_START_TIMEOUT_MS = 60_000;
/** Past SHUTDOWN_TIMEOUT, how long the primary waits for a worker before killing it. */
const KILL_GRACE_MS = 5000;

export interface PrimaryOptions {
  /** Seed the demo organization into an empty embedded database (as a single server does). */
  demo: boolean;
  /** Says that the cluster runs (log line, banner) once every worker listens. */
  announce(urls: {
    apiUrl: string;
    docsUrl: string;
    metricsUrl: string | null;
    adminUrl: string | null;
    demo: DemoSeed | null;
  }): void;
}

/**
 * The primary: migrates once, forks the workers, replaces a worker that dies, and on
 * SIGTERM/SIGINT asks every worker to drain (finish in-flight requests) and exits when all
 * have. A worker that fails before the first start completed aborts the start: that is a
 * configuration problem, not a crash to retry. On SQLite it also counts the workers' rate
 * limits (ipc-rate-limit.ts) without Redis and while Redis is down; the counters outlive any
 * one worker.
 */
export async function runPrimary(
  config: Config,
  count: number,
  logger: pino.Logger,
  options: PrimaryOptions,
): Promise<void> {
  // Once here rather than racing in N workers (they find nothing left to do).
  const store = await openStore(config.databaseUrl, {
    poolSize: 1,
    timeoutMs: config.databaseTimeoutMs,
  });
  let demo: DemoSeed | null = null;
  try {
    // On PostgreSQL, waits while the database is unreachable (start-retry.ts).
    await migrateWhenReachable(store, { log: logger });
    if (
      options.demo &&
      config.nodeEnv !== 'production' &&
      store.seedsDemoWhenEmpty &&
      (await store.countOrganizations()) === 0
    ) {
      demo = await seedDemo(store);
    }
  } finally {
    await store.close();
  }
  // A store without shared counters (SQLite): the workers count here without Redis, and
  // while it is down (their fallback).
  const rateLimits = hasRateLimitCounters(store) ? null : new MemoryRateLimiter();
  const apiPort = config.port === 0 ? await freePort(config.host) : config.port;
  const docsPort = config.docsPort === 0 ? await freePort(config.host) : config.docsPort;
  // The admin port only when the admin API is on: otherwise it is never opened.
  const adminPort =
    config.adminToken === null
      ? null
      : config.adminPort === 0
        ? await freePort(config.adminHost)
        : config.adminPort;
  const env = {
    [PORTS_ENV]:
      adminPort === null ? `${apiPort}:${docsPort}` : `${apiPort}:${docsPort}:${adminPort}`,
  };

  const ready = new Set<number>();
  // METRICS_PORT is served here, summing the ready workers' metrics on each scrape.
  const metrics =
    config.metricsPort === null
      ? null
      : new ClusterMetrics(() =>
          [...ready].flatMap((id) => {
            const worker = cluster.workers?.[id];
            return worker ? [worker] : [];
          }),
        );
  const metricsServer = metrics
    ? await startMetricsServer(
        config.metricsHost,
        config.metricsPort as number,
        () => metrics.collect(),
        PROMETHEUS_CONTENT_TYPE,
        (error) => logger.warn({ err: error }, 'could not collect metrics'),
      )
    : null;
  let started = false;
  let stopping = false;
  let exitCode = 0;
  let failedStarts = 0;
  // Rolling restarts (SIGHUP): each signal starts a new generation, and a restart runs until
  // no ready worker of an older generation is left, so a signal during one is coalesced into
  // it (the workers it already replaced are replaced again only if they predate the signal).
  let generation = 0;
  const generationOf = new Map<number, number>();
  /** Forked by a rolling restart and not ready yet: its failure is the restart's to handle. */
  const starting = new Set<number>();
  /** Old workers a rolling restart is draining: their exit is expected. */
  const retiring = new Set<number>();
  let reloading: Promise<void> | null = null;
  const stopped = { drained: 0, cut: 0 };

  const fork = (): Worker => {
    const worker = cluster.fork(env);
    generationOf.set(worker.id, generation);
    if (rateLimits) answerRateLimits(worker, rateLimits);
    metrics?.attach(worker);
    worker.on('message', (message: unknown) => {
      if (!isReady(message)) return;
      ready.add(worker.id);
      failedStarts = 0;
      if (starting.delete(worker.id)) {
        logger.info({ workerPid: worker.process.pid }, 'new worker ready');
      } else if (started) {
        logger.info({ workerPid: worker.process.pid }, 'replacement worker ready');
      } else if (ready.size === count) {
        started = true;
        options.announce({
          apiUrl: message.apiUrl,
          docsUrl: message.docsUrl,
          metricsUrl: metricsServer?.url ?? null,
          adminUrl: message.adminUrl,
          demo,
        });
      }
    });
    return worker;
  };

  const live = (): Worker[] =>
    Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => worker !== undefined);

  const finish = () => {
    logger.info(
      { drained: stopped.drained, cut: stopped.cut, exitCode },
      stopped.cut > 0
        ? 'stopped: some workers were cut at the shutdown deadline'
        : 'stopped: every worker drained',
    );
    process.exit(exitCode);
  };

  const stop = (signal: string, code: number) => {
    if (stopping) return;
    stopping = true;
    exitCode = code;
    logger.info(
      { signal, shutdownTimeoutMs: config.shutdownTimeoutMs },
      'shutting down: workers finish their in-flight requests',
    );
    const workers = live();
    if (workers.length === 0) finish();
    // Each worker drains under SHUTDOWN_TIMEOUT itself (exiting 1 when it cut requests); one
    // that is still there a little later is killed.
    for (const worker of workers) worker.process.kill('SIGTERM');
    setTimeout(() => {
      const left = live();
      logger.error(
        { workers: left.map((worker) => worker.process.pid) },
        'workers still running past SHUTDOWN_TIMEOUT: killing them',
      );
      for (const worker of left) worker.process.kill('SIGKILL');
      exitCode = 1;
    }, config.shutdownTimeoutMs + KILL_GRACE_MS);
  };

  cluster.on('exit', (worker, code, signal) => {
    const wasReady = ready.delete(worker.id);
    const wasStarting = starting.delete(worker.id);
    const wasRetiring = retiring.delete(worker.id);
    generationOf.delete(worker.id);
    if (stopping) {
      // A worker that was serving and did not exit 0 was cut (or failed) in its drain.
      if (wasReady && code !== 0) {
        stopped.cut += 1;
        exitCode = 1;
      } else if (wasReady) stopped.drained += 1;
      if (live().length === 0) finish();
      return;
    }
    // The rolling restart waits for these itself.
    if (wasStarting || wasRetiring) return;
    if (!started) {
      logger.error({ workerPid: worker.process.pid, code, signal }, 'a worker failed to start');
      stop('startup failure', 1);
      return;
    }
    if (wasReady) {
      logger.warn(
        { workerPid: worker.process.pid, code, signal },
        'worker died; starting a replacement',
      );
      fork();
      return;
    }
    failedStarts += 1;
    const delay = Math.min(1000 * 2 ** (failedStarts - 1), MAX_RESTART_DELAY_MS);
    logger.warn(
      { workerPid: worker.process.pid, code, signal, delayMs: delay },
      'replacement worker failed to start; retrying',
    );
    setTimeout(() => {
      if (!stopping) fork();
    }, delay);
  });

  /** Resolves true once the worker reports ready, false if it exits or takes too long first. */
  const readyOrFailed = (worker: Worker): Promise<boolean> =>
    new Promise((resolve) => {
      const timer = setTimeout(() => {
        logger.error(
          { workerPid: worker.process.pid, timeoutMs: RELOAD_START_TIMEOUT_MS },
          'new worker did not report ready in time: stopping it',
        );
        worker.process.kill('SIGKILL');
        resolve(false);
      }, RELOAD_START_TIMEOUT_MS);
      const onMessage = (message: unknown) => {
        if (!isReady(message)) return;
        done(true);
      };
      const onExit = () => done(false);
      const done = (ok: boolean) => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('exit', onExit);
        resolve(ok);
      };
      worker.on('message', onMessage);
      worker.once('exit', onExit);
    });

  /** Drains one old worker (no SHUTDOWN_DELAY: the others keep the port) and waits for it. */
  const retire = async (worker: Worker): Promise<number | null> => {
    retiring.add(worker.id);
    const exited = once(worker, 'exit') as Promise<[number | null, string | null]>;
    try {
      worker.send({ type: DRAIN });
    } catch {
      worker.process.kill('SIGTERM');
    }
    const backstop = setTimeout(
      () => worker.process.kill('SIGKILL'),
      config.shutdownTimeoutMs + KILL_GRACE_MS,
    );
    const [code] = await exited;
    clearTimeout(backstop);
    return code;
  };

  /**
   * The rolling restart: for each ready worker of an older generation, fork a new one (which
   * loads the code on disk now), wait until it listens, then drain the old one and wait for
   * its exit before the next: never fewer than `count` serving workers, at most one more.
   */
  const reload = async () => {
    const begun = Date.now();
    let replaced = 0;
    let cut = 0;
    let failed = false;
    logger.info(
      { signal: 'SIGHUP', workers: live().length },
      'rolling restart: replacing the workers one at a time',
    );
    while (!stopping) {
      const old = live().find(
        (worker) =>
          ready.has(worker.id) &&
          !retiring.has(worker.id) &&
          (generationOf.get(worker.id) ?? 0) < generation,
      );
      if (!old) break;
      const fresh = fork();
      starting.add(fresh.id);
      if (!(await readyOrFailed(fresh))) {
        failed = true;
        break;
      }
      if (stopping) break;
      const code = await retire(old);
      replaced += 1;
      if (code !== 0) cut += 1;
    }
    const summary = {
      replaced,
      cut,
      workers: live().length,
      durationMs: Date.now() - begun,
    };
    if (stopping) {
      logger.warn(summary, 'rolling restart interrupted by shutdown');
    } else if (failed) {
      logger.error(
        summary,
        'rolling restart aborted: a new worker failed to start; the remaining old workers keep serving (fix the build and send SIGHUP again)',
      );
    } else {
      logger.info(summary, `rolling restart done: replaced ${replaced} workers`);
    }
  };

  const onHangup = () => {
    if (stopping || !started) {
      logger.warn(
        { signal: 'SIGHUP' },
        stopping
          ? 'SIGHUP ignored: shutting down'
          : 'SIGHUP ignored: the workers are still starting',
      );
      return;
    }
    generation += 1;
    if (reloading) {
      logger.info(
        { signal: 'SIGHUP' },
        'rolling restart already under way: SIGHUP coalesced into it (every worker started before this signal is replaced)',
      );
      return;
    }
    reloading = reload().finally(() => {
      reloading = null;
    });
  };

  // Registered for good, as in a single server (server.ts): a repeated signal during the drain
  // must not meet the default action, which would end the primary, and its workers with it,
  // mid-request. It is logged and ignored; SIGKILL stops at once. SIGHUP's default action
  // would do the same: it is the rolling restart instead.
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn(
        { signal },
        'already shutting down: workers are still finishing in-flight requests (send SIGKILL to stop at once)',
      );
      return;
    }
    stop(signal, 0);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  process.on('SIGHUP', onHangup);
  logger.info({ workers: count }, 'starting workers');
  for (let i = 0; i < count; i++) fork();
}
