import { collectDefaultMetrics, Registry } from 'prom-client';
import type { DependencyReport } from '../dependency-checks.js';
import type { Store } from '../store/types.js';
import { VERSION } from '../version.js';

/**
 * What the server counts for Prometheus (METRICS_PORT). The request path calls these on every
 * request, so they only add to numbers in memory: no allocation, no string building, no
 * label hashing. prom-client reads those numbers when the endpoint is scraped (`collect`
 * objects below), and formats, aggregates across cluster workers and adds the process's
 * default metrics.
 *
 * Labels are bounded by construction: a route label is a route template the API registered
 * (or `unmatched`), a status label one of the few statuses the API answers with, a transport
 * label `mcp` (the MCP server's route) or `rest` (every other).
 */
export interface Metrics {
  readonly enabled: boolean;
  /** A finished request: its route template (`unmatched` if none), status and duration. */
  request(route: string, status: number, seconds: number): void;
  /** A key found in the verification cache (hit) or looked up in the database (miss). */
  keyCache(hit: boolean): void;
  /** A request refused with RATE_LIMITED: the key's own limit, or its address's invalid keys. */
  rateLimited(reason: RateLimitReason): void;
  /** A webhook delivery attempt, by what came of it. */
  webhookAttempt(outcome: WebhookOutcome): void;
  /** A request answered 503 SERVICE_UNAVAILABLE, by why. */
  unavailable(cause: UnavailableCause): void;
  /** A call of an MCP tool (one of the server's own, by name): answered, or an error result. */
  toolCall(tool: string, ok: boolean): void;
}

/**
 * Why a request was answered 503: the database or the rate limiter (Redis, or a cluster
 * primary) did not answer; readyz found the database not ready; the process is draining.
 */
export type UnavailableCause = 'database' | 'rate_limiter' | 'not_ready' | 'draining';
const UNAVAILABLE_CAUSES: UnavailableCause[] = [
  'database',
  'rate_limiter',
  'not_ready',
  'draining',
];

export type RateLimitReason = 'key' | 'auth_failures';
/** Accepted; failed and to be retried; failed for good (the webhook was disabled). */
export type WebhookOutcome = 'delivered' | 'retry' | 'failed';

/** Metrics off (the default): every call does nothing. */
export const NO_METRICS: Metrics = {
  enabled: false,
  request() {},
  keyCache() {},
  rateLimited() {},
  webhookAttempt() {},
  unavailable() {},
  toolCall() {},
};

/** The route of the MCP server (api/routes/mcp.ts): its requests have transport="mcp". */
const MCP_ROUTE = '/mcp';

/** The transport label of a route template: the MCP server, or the REST API. */
function transportOf(route: string): 'mcp' | 'rest' {
  return route === MCP_ROUTE ? 'mcp' : 'rest';
}

/** Upper bounds of the latency buckets, in seconds. */
export const LATENCY_BUCKETS = [
  0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
] as const;

class RouteStats {
  readonly statuses = new Map<number, number>();
  /** Per bucket (not cumulative); the last slot counts what is above every bound. */
  readonly buckets = new Float64Array(LATENCY_BUCKETS.length + 1);
  sum = 0;
  count = 0;
}

interface Sample {
  value: number;
  labels: Record<string, string | number>;
  metricName?: string;
}

/** A metric prom-client formats and aggregates, whose values are read at scrape time. */
function scraped(
  name: string,
  help: string,
  type: 'counter' | 'gauge' | 'histogram',
  values: () => Sample[] | Promise<Sample[]>,
) {
  const metric = {
    name,
    help,
    type,
    aggregator: 'sum' as const,
    get: async () => ({ name, help, type, aggregator: 'sum', values: await values() }),
    reset() {},
  };
  return metric as never;
}

export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

export interface MetricsOptions {
  engine: 'sqlite' | 'postgres';
  /** The shared dependency check (readyz's), run at each scrape. */
  dependencies: () => Promise<DependencyReport>;
}

export class PrometheusMetrics implements Metrics {
  readonly enabled = true;
  readonly registry = new Registry();
  private readonly routes = new Map<string, RouteStats>();
  private cacheHits = 0;
  private cacheMisses = 0;
  private keyLimited = 0;
  private addressLimited = 0;
  /** Per MCP tool: calls answered, and calls answered with an error result. */
  private readonly toolCalls = new Map<string, { ok: number; error: number }>();
  private readonly webhookAttempts: Record<WebhookOutcome, number> = {
    delivered: 0,
    retry: 0,
    failed: 0,
  };

  private readonly unavailableCounts = new Map<UnavailableCause, number>(
    UNAVAILABLE_CAUSES.map((cause) => [cause, 0]),
  );

  constructor(store: Pick<Store, 'poolStats'>, options: MetricsOptions) {
    collectDefaultMetrics({ register: this.registry });
    const registry = this.registry;
    registry.registerMetric(
      scraped(
        'stockroom_build_info',
        'Always 1; its labels say what runs: the Stockroom version, the database engine and the Node.js version.',
        'gauge',
        () => [
          {
            value: 1,
            labels: { version: VERSION, engine: options.engine, node: process.versions.node },
          },
        ],
      ),
    );
    registry.registerMetric(
      scraped(
        'stockroom_unavailable_responses_total',
        'Requests answered 503 SERVICE_UNAVAILABLE, by cause: database (it did not answer), rate_limiter (Redis or the cluster primary did not answer), not_ready (readyz found the database down), draining (readyz while shutting down).',
        'counter',
        () => [...this.unavailableCounts].map(([cause, value]) => ({ value, labels: { cause } })),
      ),
    );
    registry.registerMetric(
      scraped(
        'stockroom_dependency_up',
        'Whether a dependency answered a ping at this scrape (1) or not (0) within 1 s: database, and redis when REDIS_URL is set.',
        'gauge',
        async () =>
          Object.entries(await options.dependencies()).map(([dependency, check]) => ({
            value: check.state === 'ok' ? 1 : 0,
            labels: { dependency },
          })),
      ),
    );
    registry.registerMetric(
      scraped(
        'stockroom_dependency_ping_seconds',
        'How long the ping of this scrape took, per dependency (1 when it did not answer within 1 s).',
        'gauge',
        async () =>
          Object.entries(await options.dependencies()).map(([dependency, check]) => ({
            value: check.seconds,
            labels: { dependency },
          })),
      ),
    );
    registry.registerMetric(
      scraped(
        'stockroom_http_requests_total',
        'API requests answered, by route template, status code and transport (rest or mcp).',
        'counter',
        () => {
          const values: Sample[] = [];
          for (const [route, stats] of this.routes) {
            const transport = transportOf(route);
            for (const [status, count] of stats.statuses) {
              values.push({ value: count, labels: { route, status, transport } });
            }
          }
          return values;
        },
      ),
    );
    registry.registerMetric(
      scraped(
        'stockroom_http_request_duration_seconds',
        'API request latency (from the request being read to the response being sent), by route template and transport (rest or mcp).',
        'histogram',
        () => {
          const values: Sample[] = [];
          const name = 'stockroom_http_request_duration_seconds';
          for (const [route, stats] of this.routes) {
            const transport = transportOf(route);
            let cumulative = 0;
            LATENCY_BUCKETS.forEach((bound, i) => {
              cumulative += stats.buckets[i] as number;
              values.push({
                value: cumulative,
                labels: { route, transport, le: bound },
                metricName: `${name}_bucket`,
              });
            });
            values.push(
              {
                value: stats.count,
                labels: { route, transport, le: '+Inf' },
                metricName: `${name}_bucket`,
              },
              { value: stats.sum, labels: { route, transport }, metricName: `${name}_sum` },
              { value: stats.count, labels: { route, transport }, metricName: `${name}_count` },
            );
          }
          return values;
        },
      ),
    );
    registry.registerMetric(
      scraped(
        'stockroom_key_cache_lookups_total',
        'Key verifications answered from the in-process cache (hit) or by the database (miss).',
        'counter',
        () => [
          { value: this.cacheHits, labels: { result: 'hit' } },
          { value: this.cacheMisses, labels: { result: 'miss' } },
        ],
      ),
    );
    registry.registerMetric(
      scraped(
        'stockroom_rate_limit_rejections_total',
        'Requests refused with RATE_LIMITED: by the key’s rate limit (key) or by the invalid-key throttle of the client address (auth_failures).',
        'counter',
        () => [
          { value: this.keyLimited, labels: { reason: 'key' } },
          { value: this.addressLimited, labels: { reason: 'auth_failures' } },
        ],
      ),
    );
    registry.registerMetric(
      scraped(
        'stockroom_mcp_tool_calls_total',
        'Calls of the MCP server’s tools (/mcp), by tool and outcome: ok, or error (a tool result with isError, e.g. a bad argument).',
        'counter',
        () =>
          [...this.toolCalls].flatMap(([tool, counts]) => [
            { value: counts.ok, labels: { tool, outcome: 'ok' } },
            { value: counts.error, labels: { tool, outcome: 'error' } },
          ]),
      ),
    );
    registry.registerMetric(
      scraped(
        'stockroom_webhook_attempts_total',
        'Webhook delivery attempts made by this process: delivered (a 2xx in time), retry (failed, to be retried), failed (the last attempt failed; the webhook was disabled).',
        'counter',
        () =>
          Object.entries(this.webhookAttempts).map(([outcome, value]) => ({
            value,
            labels: { outcome },
          })),
      ),
    );
    const poolStats = store.poolStats?.bind(store);
    if (poolStats) {
      registry.registerMetric(
        scraped(
          'stockroom_database_pool_connections',
          'PostgreSQL connections of this process: total open, idle, and requests waiting for one.',
          'gauge',
          () => {
            const stats = poolStats();
            return [
              { value: stats.total, labels: { state: 'total' } },
              { value: stats.idle, labels: { state: 'idle' } },
              { value: stats.waiting, labels: { state: 'waiting' } },
            ];
          },
        ),
      );
    }
  }

  request(route: string, status: number, seconds: number): void {
    let stats = this.routes.get(route);
    if (stats === undefined) {
      stats = new RouteStats();
      this.routes.set(route, stats);
    }
    stats.statuses.set(status, (stats.statuses.get(status) ?? 0) + 1);
    let bucket = 0;
    while (bucket < LATENCY_BUCKETS.length && seconds > (LATENCY_BUCKETS[bucket] as number)) {
      bucket++;
    }
    stats.buckets[bucket] = (stats.buckets[bucket] ?? 0) + 1;
    stats.sum += seconds;
    stats.count++;
  }

  keyCache(hit: boolean): void {
    if (hit) this.cacheHits++;
    else this.cacheMisses++;
  }

  rateLimited(reason: RateLimitReason): void {
    if (reason === 'key') this.keyLimited++;
    else this.addressLimited++;
  }

  webhookAttempt(outcome: WebhookOutcome): void {
    this.webhookAttempts[outcome]++;
  }

  toolCall(tool: string, ok: boolean): void {
    let counts = this.toolCalls.get(tool);
    if (counts === undefined) {
      counts = { ok: 0, error: 0 };
      this.toolCalls.set(tool, counts);
    }
    if (ok) counts.ok++;
    else counts.error++;
  }

  unavailable(cause: UnavailableCause): void {
    this.unavailableCounts.set(cause, (this.unavailableCounts.get(cause) ?? 0) + 1);
  }
}
