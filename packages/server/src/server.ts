import cluster from 'node:cluster';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { createAdminApp } from './admin/app.js';
import { createApiApp } from './api/app.js';
import { reportReady, resolveWorkers, runPrimary, workerConfig } from './cluster.js';
import { type Config, isPostgresUrl } from './config.js';
import { createServices, type Services } from './context.js';
import { type DemoSeed, seedDemo } from './demo.js';
import { createDocsApp } from './docs/app.js';
import { boundHeapGrowth } from './heap-growth.js';
import type { IpcEndpoint } from './keys/ipc-rate-limit.js';
import { answerMetricsRequests } from './metrics/cluster.js';
import { PrometheusMetrics } from './metrics/metrics.js';
import { type MetricsServer, startMetricsServer } from './metrics/server.js';
import { acquireServeLock, type ServeLock } from './serve-lock.js';
import { migrateWhenReachable } from './store/start-retry.js';

export const DOCS_DIR = fileURLToPath(new URL('../../../docs', import.meta.url));

export interface RunningServer {
  apiUrl: string;
  docsUrl: string;
  /** The Prometheus endpoint of this process (METRICS_PORT); null when off or in a worker. */
  metricsUrl: string | null;
  /** The admin API's base URL (ADMIN_PORT on ADMIN_HOST); null when ADMIN_TOKEN is unset. */
  adminUrl: string | null;
  services: Services;
  /** Set when this start seeded the demo organization. */
  demo: DemoSeed | null;
  api: FastifyInstance;
  docs: FastifyInstance;
  /** The admin API host; null when ADMIN_TOKEN is unset. */
  admin: FastifyInstance | null;
  /** Stops accepting, finishes in-flight requests, then closes the database. */
  close(): Promise<void>;
}

export interface StartOptions {
  demo?: boolean;
  logger?: pino.Logger | false;
  keyCacheTtlMs?: number;
  docsDir?: string;
  /** In a cluster worker: the primary's channel (rate limits on SQLite without Redis). */
  primary?: IpcEndpoint;
  /** How a port given as 0 is chosen (tests stand in a port that is taken meanwhile). */
  choosePort?: (host: string) => Promise<number>;
}

/** Port 0 means "any free port"; resolve it first so both hosts know each other's URL. */
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

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

/** Logs go to stdout, or to stderr (`destination` 2) when stdout is kept for `--json`. */
export function createLogger(config: Config, destination: 1 | 2 = 1): pino.Logger {
  return pino(
    {
      level: config.logLevel,
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers["x-api-key"]',
          'headers.authorization',
          'headers["x-api-key"]',
        ],
        censor: '[redacted]',
      },
    },
    // Asynchronous stdout: under load, lines written while a write is in flight go out together
    // instead of one system call per request line (about 12% of item-detail throughput,
    // BENCHMARKS.md). Nothing waits when idle, and pino flushes synchronously on exit.
    pino.destination({ dest: destination, sync: false }),
  );
}

function shouldSeed(config: Config, services: Services, requested: boolean): Promise<boolean> {
  if (!requested || config.nodeEnv === 'production' || services.store.engine !== 'sqlite') {
    return Promise.resolve(false);
  }
  return services.store.countOrganizations().then((count) => count === 0);
}

/** Attempts at binding ports chosen for `0` before giving up. */
const PORT_ATTEMPTS = 5;

/**
 * Starts the API and docs hosts. A port given as 0 is chosen free just before it is bound
 * (both hosts must know each other's URL first), so another process may take it in between:
 * that start is undone and retried with other ports. A port given explicitly is never retried.
 */
export async function startServer(
  config: Config,
  options: StartOptions = {},
): Promise<RunningServer> {
  // The demo is seeded once, whichever attempt binds.
  const seeded: { demo?: DemoSeed | null } = {};
  const choose = options.choosePort ?? freePort;
  for (let attempt = 1; ; attempt++) {
    const apiPort = config.port === 0 ? await choose(config.host) : config.port;
    const docsPort = config.docsPort === 0 ? await choose(config.host) : config.docsPort;
    // The admin port only when the admin API is on: otherwise it is never opened.
    const adminPort =
      config.adminToken !== null && config.adminPort === 0
        ? await choose(config.adminHost)
        : config.adminPort;
    try {
      return await startOnce(config, options, { apiPort, docsPort, adminPort }, seeded);
    } catch (error) {
      const { code, port } = error as { code?: string; port?: number };
      const chosen =
        (config.port === 0 && port === apiPort) ||
        (config.docsPort === 0 && port === docsPort) ||
        (config.adminToken !== null && config.adminPort === 0 && port === adminPort);
      if (code !== 'EADDRINUSE' || !chosen || attempt >= PORT_ATTEMPTS) throw error;
    }
  }
}

async function startOnce(
  config: Config,
  options: StartOptions,
  ports: { apiPort: number; docsPort: number; adminPort: number },
  seeded: { demo?: DemoSeed | null },
): Promise<RunningServer> {
  const { apiPort, docsPort, adminPort } = ports;
  const apiUrl = config.publicApiUrl ?? `http://${urlHost(config.host)}:${apiPort}`;
  const docsUrl = config.publicDocsUrl ?? `http://${urlHost(config.host)}:${docsPort}`;
  const logger = options.logger === undefined ? false : options.logger;

  const services = await createServices(config, {
    publicDocsUrl: docsUrl,
    publicApiUrl: apiUrl,
    ...(options.primary ? { primary: options.primary } : {}),
    ...(logger ? { logger } : {}),
    ...(options.keyCacheTtlMs === undefined ? {} : { keyCacheTtlMs: options.keyCacheTtlMs }),
  });
  // Closed again if the start fails half-way (e.g. the docs port is taken once the API
  // listens): a process that could not start must not keep serving one of its hosts.
  const apps: FastifyInstance[] = [];
  try {
    // On PostgreSQL, waits while the database is unreachable (start-retry.ts): the ports open
    // once the schema is migrated, so nothing is served from an unknown schema.
    await migrateWhenReachable(services.store, { log: logger || null });
    services.webhooks?.start();
    seeded.demo ??= (await shouldSeed(config, services, options.demo ?? false))
      ? await seedDemo(services.store)
      : null;
    const demo = seeded.demo;
    // close() closes the connections idle at that moment. One serving a request in flight
    // would stay open after its response (keep-alive) and hold close() up for the keep-alive
    // timeout (72 s): such responses ask the client to hang up, as Fastify does for requests
    // that arrive while it closes. (Added to each app before it is ready.)
    let draining = false;
    const serving = (app: FastifyInstance): FastifyInstance => {
      app.addHook('onSend', async (_request, reply) => {
        if (draining) reply.header('connection', 'close');
      });
      apps.push(app);
      return app;
    };
    const api = serving(await createApiApp(services, { logger: logger || false }));
    // Ready now, so that its OpenAPI document is complete when the docs render their API
    // reference from it (once, in a thread of their own).
    await api.ready();
    const docs = serving(
      await createDocsApp({
        docsDir: options.docsDir ?? DOCS_DIR,
        publicDocsUrl: docsUrl,
        publicApiUrl: apiUrl,
        openapi: () => api.swagger(),
        // The same process logger; `app` tells its lines from the API's (both log `request`).
        logger: logger ? logger.child({ app: 'docs' }) : false,
      }),
    );
    // The admin API (ADMIN_TOKEN set): its own app on its own port, never on the API's.
    const adminToken = config.adminToken;
    const adminUrl =
      adminToken === null ? null : `http://${urlHost(config.adminHost)}:${adminPort}`;
    const admin =
      adminToken === null || adminUrl === null
        ? null
        : serving(
            await createAdminApp(services, adminToken, {
              adminUrl,
              logger: logger ? logger.child({ app: 'admin' }) : false,
            }),
          );
    await api.listen({ port: apiPort, host: config.host });
    await docs.listen({ port: docsPort, host: config.host });
    await admin?.listen({ port: adminPort, host: config.adminHost });
    let metricsServer: MetricsServer | null = null;
    const metrics = services.metrics;
    if (metrics instanceof PrometheusMetrics && config.metricsPort !== null) {
      // A cluster's primary serves the port and asks its workers (metrics/cluster.ts).
      if (cluster.isWorker) answerMetricsRequests(metrics.registry);
      else {
        metricsServer = await startMetricsServer(
          config.metricsHost,
          config.metricsPort,
          () => metrics.registry.metrics(),
          metrics.registry.contentType,
          (error) => {
            if (logger) logger.warn({ err: error }, 'could not collect metrics');
          },
        );
      }
    }
    let closing: Promise<void> | null = null;
    return {
      apiUrl,
      docsUrl,
      metricsUrl: metricsServer?.url ?? null,
      adminUrl,
      services,
      demo,
      api,
      docs,
      admin,
      close() {
        closing ??= (async () => {
          draining = true;
          await Promise.all([api.close(), docs.close(), admin?.close(), metricsServer?.close()]);
          await services.close();
        })();
        return closing;
      },
    };
  } catch (error) {
    await Promise.allSettled(apps.map((app) => app.close()));
    await services.close();
    throw error;
  }
}

function banner(
  server: {
    apiUrl: string;
    docsUrl: string;
    metricsUrl: string | null;
    adminUrl?: string | null;
    demo: DemoSeed | null;
  },
  workers = 1,
): string {
  const lines = [
    '',
    workers > 1 ? `Stockroom is running with ${workers} workers.` : 'Stockroom is running.',
    `  API:  ${server.apiUrl}/api/v1`,
    `  Docs: ${server.docsUrl}/en/docs/introduction  (llms.txt: ${server.docsUrl}/llms.txt)`,
    ...(server.metricsUrl ? [`  Metrics: ${server.metricsUrl}`] : []),
    ...(server.adminUrl
      ? [`  Admin: ${server.adminUrl}/admin/v1  (Authorization: Bearer $ADMIN_TOKEN)`]
      : []),
    '',
  ];
  if (server.demo) {
    const key = server.demo.key;
    lines.push(
      `Seeded the demo organization "${server.demo.organization.name}" with an API key (shown only now):`,
      `  ${key}`,
      '',
      'Try it:',
      `  curl ${server.apiUrl}/api/v1/health`,
      `  curl -H "x-api-key: ${key}" ${server.apiUrl}/api/v1/organization`,
      `  curl -H "x-api-key: ${key}" "${server.apiUrl}/api/v1/inventory/items?limit=5&status=Active&fields=_id,name,sku,quantity"`,
      '',
    );
  } else {
    lines.push('Create a key with: npx stockroom key create --org <organization id or slug>', '');
  }
  return lines.join('\n');
}

/** What `serve --json` prints once listening: the one JSON object on stdout. */
export function readyJson(
  urls: { apiUrl: string; docsUrl: string; metricsUrl: string | null; adminUrl?: string | null },
  demo: DemoSeed | null,
): Record<string, unknown> {
  return {
    apiUrl: urls.apiUrl,
    docsUrl: urls.docsUrl,
    // Only when METRICS_PORT is set: the object is otherwise what it always was.
    ...(urls.metricsUrl ? { metricsUrl: urls.metricsUrl } : {}),
    // Only when ADMIN_TOKEN is set, likewise.
    ...(urls.adminUrl ? { adminUrl: urls.adminUrl } : {}),
    demo: demo
      ? {
          organizationId: demo.organization.id,
          organizationSlug: demo.organization.slug,
          keyId: demo.keyId,
          key: demo.key,
        }
      : null,
  };
}

/** The serve lock of this process (SQLite), held until it exits. */
export let heldServeLock: ServeLock | null = null;

/**
 * `stockroom serve`: runs until SIGTERM/SIGINT, then drains and exits 0. With several workers
 * this process becomes the cluster primary and each worker runs this again. On SQLite the
 * serving process (the primary, with workers) first takes the database's serve lock, held
 * until it exits: a second `serve` on the same file is refused (serve-lock.ts). With `json`,
 * stdout carries exactly one JSON object (`readyJson`) once listening, and the logs go to
 * stderr.
 */
export async function serve(
  config: Config,
  options: { demo: boolean; json?: boolean },
): Promise<void> {
  // Every serving process, primary and workers alike (they run this function too).
  boundHeapGrowth();
  const json = options.json === true;
  const workers = resolveWorkers(config);
  // With --json, stdout carries only the ready object: the logs go to stderr.
  const logger = createLogger(config, json ? 2 : 1);
  if (
    cluster.isPrimary &&
    !isPostgresUrl(config.databaseUrl) &&
    config.databaseUrl !== ':memory:'
  ) {
    // Released by the operating system when this process exits, however it exits. Kept
    // referenced: a collected connection would be closed, and its lock with it.
    heldServeLock = acquireServeLock(config.databaseUrl);
  }
  if (workers > 1 && cluster.isPrimary) {
    return runPrimary(config, workers, logger, {
      demo: options.demo,
      banner: (urls) => (json ? JSON.stringify(readyJson(urls, urls.demo)) : banner(urls, workers)),
    });
  }
  if (cluster.isWorker) {
    let server: RunningServer;
    try {
      server = await startServer(workerConfig(config), { demo: false, logger, primary: process });
    } catch (error) {
      // The primary sees the exit and decides (abort the start, or retry later).
      process.stderr.write(`stockroom: worker could not start: ${(error as Error).message}\n`);
      process.exit(1);
    }
    stopOnSignals(server, logger);
    reportReady(server);
    return;
  }
  const server = await startServer(config, { demo: options.demo, logger });
  // Handlers first: whoever reads the banner may signal at once.
  stopOnSignals(server, logger);
  process.stdout.write(
    json ? `${JSON.stringify(readyJson(server, server.demo))}\n` : `${banner(server)}\n`,
  );
}

/**
 * SIGTERM or SIGINT drains: stop accepting, finish in-flight requests, close the database,
 * exit 0. The handlers stay registered for the whole drain: with a one-shot handler a second
 * signal (an impatient Ctrl-C, a supervisor repeating its SIGTERM) would meet the default action
 * and kill the requests still in flight. A repeated signal is logged and ignored; SIGKILL is the
 * way to stop at once.
 */
function stopOnSignals(server: RunningServer, logger: pino.Logger): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn(
        { signal },
        'already shutting down: still finishing in-flight requests (send SIGKILL to stop at once)',
      );
      return;
    }
    stopping = true;
    logger.info({ signal }, 'shutting down: finishing in-flight requests');
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
