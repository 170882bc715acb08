import cluster, { type Worker } from 'node:cluster';
import net from 'node:net';
import os from 'node:os';
import type pino from 'pino';
import type { Config } from './config.js';
import { type DemoSeed, seedDemo } from './demo.js';
import { answerRateLimits } from './keys/ipc-rate-limit.js';
import { MemoryRateLimiter } from './keys/rate-limit.js';
import { ClusterMetrics, PROMETHEUS_CONTENT_TYPE } from './metrics/cluster.js';
import { startMetricsServer } from './metrics/server.js';
import { openStore } from './store/open.js';
import { migrateWhenReachable } from './store/start-retry.js';

/**
 * `serve --workers N|auto`: N API processes through node:cluster, sharing the ports. Every
 * process is stateless: state lives in the database (quotas, keys) and in Redis, the database
 * or, on SQLite without Redis, the primary (rate limits), so a request may land on any of them.
 * On SQLite the workers share the one database file (WAL: one writer at a time, which the
 * atomic quota UPDATE needs anyway); the primary holds the serve lock (serve-lock.ts).
 */

/** How many processes to run; `auto` is one per core. */
export function resolveWorkers(config: Config): number {
  return config.workers === 'auto' ? os.availableParallelism() : config.workers;
}

const PORTS_ENV = 'STOCKROOM_CLUSTER_PORTS';
const READY = 'stockroom:ready';

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

export interface PrimaryOptions {
  /** Seed the demo organization into an empty embedded database (as a single server does). */
  demo: boolean;
  /** Prints the start banner once every worker listens. */
  banner(urls: {
    apiUrl: string;
    docsUrl: string;
    metricsUrl: string | null;
    adminUrl: string | null;
    demo: DemoSeed | null;
  }): string;
}

/**
 * The primary: migrates once, forks the workers, replaces a worker that dies, and on
 * SIGTERM/SIGINT asks every worker to drain (finish in-flight requests) and exits when all
 * have. A worker that fails before the first start completed aborts the start: that is a
 * configuration problem, not a crash to retry. On SQLite without Redis it also counts the
 * workers' rate limits (ipc-rate-limit.ts); the counters outlive any one worker.
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
      store.engine === 'sqlite' &&
      (await store.countOrganizations()) === 0
    ) {
      demo = await seedDemo(store);
    }
  } finally {
    await store.close();
  }
  const rateLimits = store.engine === 'sqlite' && !config.redisUrl ? new MemoryRateLimiter() : null;
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

  const fork = (): Worker => {
    const worker = cluster.fork(env);
    if (rateLimits) answerRateLimits(worker, rateLimits);
    metrics?.attach(worker);
    worker.on('message', (message: unknown) => {
      if (!isReady(message)) return;
      ready.add(worker.id);
      failedStarts = 0;
      if (started) {
        logger.info({ workerPid: worker.process.pid }, 'replacement worker ready');
      } else if (ready.size === count) {
        started = true;
        process.stdout.write(
          `${options.banner({
            apiUrl: message.apiUrl,
            docsUrl: message.docsUrl,
            metricsUrl: metricsServer?.url ?? null,
            adminUrl: message.adminUrl,
            demo,
          })}\n`,
        );
      }
    });
    return worker;
  };

  const stop = (signal: string, code: number) => {
    if (stopping) return;
    stopping = true;
    exitCode = code;
    logger.info({ signal }, 'shutting down: workers finish their in-flight requests');
    const workers = Object.values(cluster.workers ?? {});
    if (workers.length === 0) process.exit(exitCode);
    for (const worker of workers) worker?.process.kill('SIGTERM');
  };

  cluster.on('exit', (worker, code, signal) => {
    const wasReady = ready.delete(worker.id);
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(exitCode);
      return;
    }
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

  // Registered for good, as in a single server (server.ts): a repeated signal during the drain
  // must not meet the default action, which would end the primary, and its workers with it,
  // mid-request. It is logged and ignored; SIGKILL stops at once.
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
  logger.info({ workers: count }, 'starting workers');
  for (let i = 0; i < count; i++) fork();
}
