import type { FastifyBaseLogger } from 'fastify';
import { type Config, isPostgresUrl } from './config.js';
import { type DependencyReport, dependencyChecks } from './dependency-checks.js';
import { TombstonePurger } from './items/tombstones.js';
import { AuthFailureThrottle } from './keys/auth-failures.js';
import type { IpcEndpoint } from './keys/ipc-rate-limit.js';
import type { RateLimiter } from './keys/rate-limit.js';
import { createRateLimiter } from './keys/rate-limiters.js';
import { KeyUsageRecorder } from './keys/usage.js';
import { KeyVerifier } from './keys/verifier.js';
import { type Metrics, NO_METRICS, PrometheusMetrics } from './metrics/metrics.js';
import { openStore } from './store/open.js';
import { connectionLossCode } from './store/postgres/errors.js';
import { type Store, StoreUnavailableError } from './store/types.js';
import type { Tracing } from './tracing/tracing.js';
import { WebhookDispatcher } from './webhooks/dispatcher.js';

/** The services a server process builds once at boot and shares with every request. */
export interface Services {
  config: Config;
  store: Store;
  keys: KeyVerifier;
  rateLimiter: RateLimiter;
  usage: KeyUsageRecorder;
  /** Invalid-key outcomes per client address (AUTH_FAILURE_LIMIT); null when turned off. */
  authFailures: AuthFailureThrottle | null;
  /**
   * Sends webhook deliveries (started once the schema is migrated); null with WEBHOOKS=off.
   */
  webhooks: WebhookDispatcher | null;
  /** Drops expired sync tombstones (started once the schema is migrated, like webhooks). */
  tombstones: TombstonePurger;
  /** Prometheus metrics when METRICS_PORT is set; NO_METRICS otherwise. */
  metrics: Metrics;
  /** OpenTelemetry tracing when an OTLP endpoint is set (config `tracing`); null otherwise. */
  tracing: Tracing | null;
  /** Resolved public docs URL (used in error `docUrl`s). */
  publicDocsUrl: string;
  /**
   * Resolved public API URL: PUBLIC_API_URL, or the address this process actually listens on
   * (the OpenAPI document's server).
   */
  publicApiUrl: string;
  /** Set once the process starts shutting down: readyz answers 503 from then on. */
  draining: boolean;
  /** Pings the database (and Redis when configured); shared by readyz and metrics. */
  checkDependencies(): Promise<DependencyReport>;
  close(): Promise<void>;
}

export interface ServiceOptions {
  publicDocsUrl: string;
  publicApiUrl: string;
  /** In a cluster worker: the primary's channel (rate limits on SQLite, rate-limiters.ts). */
  primary?: IpcEndpoint;
  logger?: FastifyBaseLogger;
  /** How long key lookups are cached; must stay under one second. */
  keyCacheTtlMs?: number;
}

export async function createServices(config: Config, options: ServiceOptions): Promise<Services> {
  // Loaded only when asked for: without an OTLP endpoint no @opentelemetry module is loaded.
  const tracing = config.tracing ? (await import('./tracing/tracing.js')).startTracing() : null;
  const opened = await openStore(config.databaseUrl, {
    poolSize: config.databasePoolSize,
    timeoutMs: config.databaseTimeoutMs,
    // SQLite's statements off this event loop (store/sqlite/sqlite-threads.ts).
    threads: true,
    onThreadLost: (info) =>
      options.logger?.warn(info, 'a SQLite thread was replaced; its calls answered 503'),
  });
  // With tracing, the store's calls made inside a request are its spans' children.
  const store = tracing
    ? tracing.traceStore(opened, opened.engine === 'postgres' ? 'postgresql' : 'sqlite')
    : opened;
  store.availability?.setLog(options.logger ?? null);
  // While the database is away (or not reached yet, at a start), the background jobs' failures
  // (webhook polls, key-usage flushes, tombstone purges) go to debug: the outage has its own
  // two lines, and a start its retry line.
  const duringOutage = (object: Record<string, unknown> | { err?: unknown }) => {
    const error = (object as { err?: unknown }).err;
    return (
      error instanceof StoreUnavailableError &&
      (store.availability?.down === true || connectionLossCode(error) !== null)
    );
  };
  const log = {
    warn: (object: Record<string, unknown>, message: string) =>
      duringOutage(object)
        ? options.logger?.debug(object, message)
        : options.logger?.warn(object, message),
    info: (object: Record<string, unknown>, message: string) =>
      options.logger?.info(object, message),
  };
  const rateLimiter = await createRateLimiter(config, store, log, {
    ...(options.primary ? { primary: options.primary } : {}),
    ...(tracing ? { traceRedis: (redis) => tracing.traceRedis(redis) } : {}),
  });
  const usage = new KeyUsageRecorder(store, 5_000, (error) =>
    log.warn({ err: error }, 'could not record key usage'),
  );
  const purger = new TombstonePurger(store, config.syncRetentionMs, (error) =>
    log.warn({ err: error }, 'could not drop expired tombstones'),
  );
  const limit = config.authFailureLimit;
  const checkDependencies = dependencyChecks({ config, store, rateLimiter });
  const metrics =
    config.metricsPort === null
      ? NO_METRICS
      : new PrometheusMetrics(store, {
          engine: isPostgresUrl(config.databaseUrl) ? 'postgres' : 'sqlite',
          dependencies: checkDependencies,
        });
  const webhooks = config.webhooksEnabled
    ? new WebhookDispatcher({
        store,
        policy: config.webhookDestinations,
        retryDelaysMs: config.webhookRetryDelaysMs,
        pollMs: config.webhookPollMs,
        log,
        metrics,
      })
    : null;
  return {
    config,
    store,
    keys: new KeyVerifier(store, options.keyCacheTtlMs ?? 500),
    rateLimiter,
    usage,
    authFailures: limit ? new AuthFailureThrottle(limit.max, limit.windowSeconds) : null,
    webhooks,
    tombstones: purger,
    metrics,
    tracing,
    publicDocsUrl: options.publicDocsUrl,
    publicApiUrl: options.publicApiUrl,
    draining: false,
    checkDependencies,
    async close() {
      await webhooks?.close();
      await purger.close();
      await usage.close();
      await rateLimiter.close();
      await store.close();
      // The spans of the last requests are exported (bounded: tracing.ts SHUTDOWN_DEADLINE_MS).
      await tracing?.shutdown();
    },
  };
}
