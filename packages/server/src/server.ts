import cluster from 'node:cluster';
import type http from 'node:http';
import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { createApiApp } from './api/app.js';
import {
  onDrainRequest,
  reportReady,
  resolveWorkers,
  runPrimary,
  workerConfig,
} from './cluster.js';
import { type Config, configWarnings, isPostgresUrl } from './config.js';
import { createServices, type Services } from './context.js';
import { type DemoSeed, seedDemo } from './demo.js';
import { createDocsApp } from './docs/app.js';
import { builtSite, type RenderedSite } from './docs/built-site.js';
import { boundHeapGrowth } from './heap-growth.js';
import type { IpcEndpoint } from './keys/ipc-rate-limit.js';
import { answerMetricsRequests } from './metrics/cluster.js';
import { PrometheusMetrics } from './metrics/metrics.js';
import { type MetricsServer, startMetricsServer } from './metrics/server.js';
import { acquireServeLock, type ServeLock } from './serve-lock.js';
import { startupSummary } from './startup-summary.js';
import { migrateWhenReachable } from './store/start-retry.js';

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
  /**
   * Stops accepting, finishes in-flight requests, then closes the database. Connections idle
   * for `idleCloseMs` (default 0: at once) are closed; busier ones get `Connection: close` on
   * their next response.
   */
  close(options?: { idleCloseMs?: number }): Promise<void>;
  /** What is still open, per host that has anything open (for the shutdown deadline's log). */
  openTraffic(): Record<string, { requests: number; connections: number }>;
}

/** The connections of one host, and the requests in flight on each. */
interface HostTraffic {
  host: string;
  requests: number;
  sockets: Map<net.Socket, { busy: number; idleSince: number }>;
}

function trackTraffic(host: string, server: http.Server): HostTraffic {
  const traffic: HostTraffic = { host, requests: 0, sockets: new Map() };
  server.on('connection', (socket: net.Socket) => {
    traffic.sockets.set(socket, { busy: 0, idleSince: Date.now() });
    socket.once('close', () => traffic.sockets.delete(socket));
  });
  server.on('request', (request: http.IncomingMessage, response: http.ServerResponse) => {
    const state = traffic.sockets.get(request.socket);
    traffic.requests += 1;
    if (state) state.busy += 1;
    // 'close' comes once the response is sent or the client went away, whichever happens.
    response.once('close', () => {
      traffic.requests -= 1;
      if (state) {
        state.busy -= 1;
        state.idleSince = Date.now();
      }
    });
  });
  return traffic;
}

/**
 * Resolves once every connection of these hosts has ended. Answers carry `Connection: close`
 * meanwhile, so a busy connection ends cleanly after its next answer. Idle ones are closed
 * (Node's closeIdleConnections, which spares a connection whose next request has begun to
 * arrive) only once none has been idle for less than `idleCloseMs`: a keep-alive client's next
 * request usually follows its last answer within a millisecond, and closing the socket under a
 * request still on the wire would fail it.
 */
function endConnections(
  hosts: Array<{ traffic: HostTraffic; server: http.Server }>,
  idleCloseMs: number,
): Promise<void> {
  return new Promise((resolve) => {
    const sweep = () => {
      const now = Date.now();
      let open = 0;
      for (const { traffic, server } of hosts) {
        open += traffic.sockets.size;
        const idle = [...traffic.sockets.values()].filter((state) => state.busy === 0);
        if (idle.length > 0 && idle.every((state) => now - state.idleSince >= idleCloseMs)) {
          server.closeIdleConnections();
        }
      }
      if (open === 0) resolve();
      else setTimeout(sweep, Math.min(50, Math.max(10, idleCloseMs)));
    };
    sweep();
  });
}

export interface StartOptions {
  demo?: boolean;
  logger?: pino.Logger | false;
  keyCacheTtlMs?: number;
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

/**
 * Logs go to stdout, or to stderr (`destination` 2) when stdout is kept for `--json`; `stream`
 * replaces both (the human-readable lines of a terminal, `terminalLogStream`).
 */
export function createLogger(
  config: Config,
  destination: 1 | 2 = 1,
  stream?: pino.DestinationStream,
): pino.Logger {
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
    stream ?? pino.destination({ dest: destination, sync: false }),
  );
}

/**
 * In a terminal (stdout is a TTY, not production, not `--json`), log lines an operator can
 * read: time, level, message, fields. pino-pretty loads only then, so servers and pipes do not
 * pay for it; written synchronously, so the banner printed after them comes last.
 */
async function terminalLogStream(
  config: Config,
  json: boolean,
): Promise<pino.DestinationStream | undefined> {
  if (json || !process.stdout.isTTY || config.nodeEnv === 'production') return undefined;
  const { default: pretty } = await import('pino-pretty');
  return pretty({
    colorize: true,
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname',
    singleLine: true,
    sync: true,
  });
}

/**
 * Writes `text` to stdout after every log line written before it. The JSON lines go out
 * asynchronously through their own stream on the same descriptor, so `text` joins that stream
 * (which keeps its order) instead of racing it; a terminal's stream writes synchronously.
 */
function writeAfterLogs(logger: pino.Logger, text: string): void {
  const stream = (logger as unknown as Record<symbol, unknown>)[pino.symbols.streamSym] as
    | { fd?: number; write(chunk: string): unknown }
    | undefined;
  if (stream?.fd === 1) stream.write(text);
  else process.stdout.write(text);
}

/**
 * The start of a serving process group, said once (by a single server, or by a cluster's
 * primary when every worker listens): the summary line, then a warning per risky setting,
 * then the banner (or `--json`'s ready object) on stdout, last.
 */
function announce(
  config: Config,
  logger: pino.Logger,
  json: boolean,
  urls: Parameters<typeof banner>[0],
  workers: number,
): void {
  logger.info({ startup: startupSummary(config, urls, workers) }, 'stockroom started');
  for (const warning of configWarnings(config)) logger.warn(warning);
  // With --json the logs are on stderr: stdout carries only the ready object.
  if (json) process.stdout.write(`${JSON.stringify(readyJson(urls, urls.demo))}\n`);
  else writeAfterLogs(logger, `${banner(urls, workers)}\n`);
}

function shouldSeed(config: Config, services: Services, requested: boolean): Promise<boolean> {
  if (!requested || config.nodeEnv === 'production' || !services.store.seedsDemoWhenEmpty) {
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

/** What a serving process needs before any host answers, and the hosts' common wiring. */
export interface ServiceStartOptions {
  demo?: boolean;
  logger?: pino.Logger | false;
  keyCacheTtlMs?: number;
  primary?: IpcEndpoint;
  /** The hosts' public URLs: error answers link the docs, the docs show the API's URL. */
  apiUrl: string;
  docsUrl: string;
}

/**
 * Creates the services and makes them ready to serve: migrated (on PostgreSQL, waiting while
 * the database is unreachable, start-retry.ts, so nothing is served from an unknown schema),
 * background jobs started, the demo seeded when asked into an empty SQLite database. `seeded`
 * keeps the demo of an earlier attempt, so that it is seeded once. The services are closed
 * again if any of this fails.
 */
export async function startServices(
  config: Config,
  options: ServiceStartOptions,
  seeded: { demo?: DemoSeed | null } = {},
): Promise<{ services: Services; demo: DemoSeed | null }> {
  const logger = options.logger === undefined ? false : options.logger;
  const services = await createServices(config, {
    publicDocsUrl: options.docsUrl,
    publicApiUrl: options.apiUrl,
    ...(options.primary ? { primary: options.primary } : {}),
    ...(logger ? { logger } : {}),
    ...(options.keyCacheTtlMs === undefined ? {} : { keyCacheTtlMs: options.keyCacheTtlMs }),
  });
  try {
    await migrateWhenReachable(services.store, { log: logger || null });
    services.webhooks?.start();
    // After the migration: on a fresh database its table does not exist before.
    services.tombstones.start();
    seeded.demo ??= (await shouldSeed(config, services, options.demo ?? false))
      ? await seedDemo(services.store)
      : null;
    return { services, demo: seeded.demo };
  } catch (error) {
    await services.close();
    throw error;
  }
}

/**
 * Once draining, every answer asks the client to hang up (as Fastify does for requests that
 * arrive while it closes): a keep-alive connection then ends after its next answer instead of
 * holding the drain up for the keep-alive timeout (72 s). Added to each app before it is ready.
 */
function hangUpWhileDraining(app: FastifyInstance, services: Services): FastifyInstance {
  app.addHook('onSend', async (_request, reply) => {
    // From the signal on (services.draining), before the listeners close.
    if (services.draining) reply.header('connection', 'close');
  });
  return app;
}

/** The API host, ready: its OpenAPI document is complete once it is (the docs render it). */
export async function createApiHost(
  services: Services,
  logger: pino.Logger | false,
): Promise<FastifyInstance> {
  const api = hangUpWhileDraining(await createApiApp(services, { logger }), services);
  await api.ready();
  return api;
}

/** The docs host: the site rendered at build time (`builtSite()` unless given), with these URLs. */
export async function createDocsHost(
  services: Services,
  options: {
    apiUrl: string;
    docsUrl: string;
    site?: RenderedSite | Promise<RenderedSite>;
    logger: pino.Logger | false;
  },
): Promise<FastifyInstance> {
  const { logger } = options;
  return hangUpWhileDraining(
    await createDocsApp({
      site: await (options.site ?? builtSite()),
      publicDocsUrl: options.docsUrl,
      publicApiUrl: options.apiUrl,
      trustProxy: services.config.trustProxy,
      // The same process logger; `app` tells its lines from the API's (both log `request`).
      logger: logger ? logger.child({ app: 'docs' }) : false,
      ...(services.tracing
        ? { instrument: services.tracing.instrument.bind(services.tracing) }
        : {}),
    }),
    services,
  );
}

/** The admin API host (ADMIN_TOKEN set), answering on `adminUrl`; null when the token is unset. */
export async function createAdminHost(
  services: Services,
  adminUrl: string,
  logger: pino.Logger | false,
): Promise<FastifyInstance | null> {
  const adminToken = services.config.adminToken;
  if (adminToken === null) return null;
  return hangUpWhileDraining(
    // Loaded only with ADMIN_TOKEN: its routes and schemas would cost every other start.
    await (await import('./admin/app.js')).createAdminApp(services, adminToken, {
      adminUrl,
      logger: logger ? logger.child({ app: 'admin' }) : false,
    }),
    services,
  );
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
  // The docs site rendered at build time, read (once per process) while the database opens.
  const site = builtSite();
  // Awaited below; should opening the database fail first, its rejection is not unhandled.
  site.catch(() => {});

  const { services, demo } = await startServices(
    config,
    {
      apiUrl,
      docsUrl,
      logger,
      ...(options.demo === undefined ? {} : { demo: options.demo }),
      ...(options.primary ? { primary: options.primary } : {}),
      ...(options.keyCacheTtlMs === undefined ? {} : { keyCacheTtlMs: options.keyCacheTtlMs }),
    },
    seeded,
  );
  // Closed again if the start fails half-way (e.g. the docs port is taken once the API
  // listens): a process that could not start must not keep serving one of its hosts.
  const apps: FastifyInstance[] = [];
  try {
    // Each host's connections and requests are tracked for the drain.
    const hosts: Array<{ traffic: HostTraffic; server: http.Server }> = [];
    const serving = (app: FastifyInstance, host: string): FastifyInstance => {
      apps.push(app);
      hosts.push({ traffic: trackTraffic(host, app.server), server: app.server });
      return app;
    };
    const api = serving(await createApiHost(services, logger), 'api');
    const docs = serving(await createDocsHost(services, { apiUrl, docsUrl, site, logger }), 'docs');
    // The admin API (ADMIN_TOKEN set): its own app on its own port, never on the API's.
    const adminUrl =
      config.adminToken === null ? null : `http://${urlHost(config.adminHost)}:${adminPort}`;
    const adminApp = adminUrl === null ? null : await createAdminHost(services, adminUrl, logger);
    const admin = adminApp === null ? null : serving(adminApp, 'admin');
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
      close({ idleCloseMs = 0 } = {}) {
        closing ??= (async () => {
          services.draining = true;
          // Stop accepting first, keeping the open connections (an HTTP server's own close()
          // would also close the idle ones at once); in a cluster worker this takes the worker
          // out of the primary's distribution, which hands new connections to the others.
          for (const app of apps) {
            if (app.server.listening) net.Server.prototype.close.call(app.server);
          }
          const metricsClosed = metricsServer?.close();
          await endConnections(hosts, idleCloseMs);
          // Nothing open is left: this runs the apps' close hooks.
          await Promise.all([...apps.map((app) => app.close()), metricsClosed]);
          await services.close();
        })();
        return closing;
      },
      openTraffic() {
        const open: Record<string, { requests: number; connections: number }> = {};
        for (const { traffic } of hosts) {
          if (traffic.sockets.size > 0 || traffic.requests > 0) {
            open[traffic.host] = { requests: traffic.requests, connections: traffic.sockets.size };
          }
        }
        return open;
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
  const logger = createLogger(config, json ? 2 : 1, await terminalLogStream(config, json));
  // SIGHUP's default action would end the process: until the handlers of a running server
  // (or primary) are in place, it is logged and ignored.
  const hangupWhileStarting = () =>
    logger.warn({ signal: 'SIGHUP' }, 'SIGHUP ignored: still starting');
  process.on('SIGHUP', hangupWhileStarting);
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
    await runPrimary(config, workers, logger, {
      demo: options.demo,
      announce: (urls) => announce(config, logger, json, urls, workers),
    });
    process.off('SIGHUP', hangupWhileStarting);
    return;
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
    process.off('SIGHUP', hangupWhileStarting);
    reportReady(server);
    return;
  }
  const server = await startServer(config, { demo: options.demo, logger });
  // Handlers first: whoever reads the banner may signal at once.
  stopOnSignals(server, logger);
  process.off('SIGHUP', hangupWhileStarting);
  announce(config, logger, json, server, 1);
}

/**
 * How long a connection with nothing in flight may stay open once a shutdown closed the
 * listeners: long enough for a keep-alive client's next request to arrive (and be answered,
 * with `Connection: close`), short enough not to hold the drain.
 */
export const IDLE_CLOSE_MS = 1000;

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** "1 request in flight on 2 open connections (api: …; admin: …)", for the deadline's log. */
export function describeCut(open: Record<string, { requests: number; connections: number }>) {
  const entries = Object.entries(open);
  const requests = entries.reduce((sum, [, host]) => sum + host.requests, 0);
  const connections = entries.reduce((sum, [, host]) => sum + host.connections, 0);
  const perHost = entries
    .map(
      ([name, host]) =>
        `${name}: ${plural(host.requests, 'request')}, ${plural(host.connections, 'connection')}`,
    )
    .join('; ');
  return `${plural(requests, 'request')} in flight on ${plural(connections, 'open connection')}${perHost ? ` (${perHost})` : ''}`;
}

/**
 * SIGTERM or SIGINT drains: readyz answers 503 at once; after SHUTDOWN_DELAY (so a load
 * balancer polling readyz stops sending first) the listeners close and in-flight requests
 * finish; then the database closes and the process exits 0. SHUTDOWN_TIMEOUT, counted from the
 * signal, bounds all of it: past it the process logs what it cut (requests and connections
 * still open, per host) and exits 1. In a cluster worker the primary asks for the same drain
 * without the delay when it replaces the worker (SIGHUP): the other workers keep the port.
 *
 * The handlers stay registered for the whole drain: with a one-shot handler a second signal
 * (an impatient Ctrl-C, a supervisor repeating its SIGTERM) would meet the default action and
 * kill the requests still in flight. A repeated signal is logged and ignored; SIGKILL is the
 * way to stop at once. SIGHUP never stops a serving process: a single server logs and ignores
 * it (a cluster primary restarts its workers, cluster.ts).
 */
function stopOnSignals(server: RunningServer, logger: pino.Logger): void {
  const { shutdownTimeoutMs, shutdownDelayMs } = server.services.config;
  let stopping = false;
  const stop = (signal: NodeJS.Signals | 'reload') => {
    if (stopping) {
      logger.warn(
        { signal },
        'already shutting down: still finishing in-flight requests (send SIGKILL to stop at once)',
      );
      return;
    }
    stopping = true;
    const started = Date.now();
    // Readiness first: from now on readyz answers 503.
    server.services.draining = true;
    const delayMs = signal === 'reload' ? 0 : shutdownDelayMs;
    logger.info(
      { signal, shutdownDelayMs: delayMs, shutdownTimeoutMs },
      delayMs > 0
        ? 'shutting down: readyz answers 503 now; the listeners close after SHUTDOWN_DELAY, then finishing in-flight requests'
        : 'shutting down: finishing in-flight requests (readyz answers 503 from now on)',
    );
    setTimeout(() => {
      const open = server.openTraffic();
      logger.error(
        { signal, shutdownTimeoutMs, cut: open },
        `shutdown deadline passed (SHUTDOWN_TIMEOUT ${shutdownTimeoutMs} ms): cutting ${describeCut(open)}`,
      );
      process.exit(1);
    }, shutdownTimeoutMs);
    new Promise((resolve) => setTimeout(resolve, delayMs))
      .then(() => server.close({ idleCloseMs: IDLE_CLOSE_MS }))
      .then(
        () => {
          logger.info(
            { signal, durationMs: Date.now() - started },
            'shut down: every request answered',
          );
          process.exit(0);
        },
        (error: unknown) => {
          logger.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  if (cluster.isWorker) {
    onDrainRequest(() => stop('reload'));
    // A hangup of the whole process group reaches the workers too: the primary handles it.
    process.on('SIGHUP', () => logger.debug({ signal: 'SIGHUP' }, 'SIGHUP ignored in a worker'));
  } else {
    process.on('SIGHUP', () =>
      logger.warn(
        { signal: 'SIGHUP' },
        'SIGHUP ignored: this process keeps serving. A rolling restart needs --workers (the primary replaces its workers one at a time); to load a new build here, restart the process',
      ),
    );
  }
}
