import type { Worker } from 'node:cluster';
import { AggregatorRegistry, collectDefaultMetrics, Gauge, Registry } from 'prom-client';

/**
 * Metrics of `serve --workers N`: the primary serves METRICS_PORT and, on each scrape, asks
 * every ready worker for its registry (as JSON, over the cluster's IPC channel). Each worker's
 * series carry a `worker` label (its cluster id), the primary's own process metrics
 * `worker="primary"`: per-process values such as `process_start_time_seconds` or resident
 * memory stay meaningful, and totals are a `sum without (worker)` away. A worker that is
 * starting, or dies during the scrape, is left out of that one scrape instead of failing it;
 * the primary adds the number of workers that answered.
 */
const REQUEST = 'stockroom:metrics-request';
const RESPONSE = 'stockroom:metrics-response';
const SCRAPE_TIMEOUT_MS = 2000;

interface MetricsRequest {
  type: typeof REQUEST;
  id: number;
}
interface MetricsResponse {
  type: typeof RESPONSE;
  id: number;
  metrics: unknown[];
}

/** In a worker: answer the primary's scrapes with this process's registry. */
export function answerMetricsRequests(registry: Registry): void {
  process.on('message', (message: unknown) => {
    const request = message as MetricsRequest | null;
    if (request?.type !== REQUEST) return;
    const reply = (metrics: unknown[]) =>
      process.send?.({ type: RESPONSE, id: request.id, metrics } satisfies MetricsResponse);
    registry.getMetricsAsJSON().then(reply, () => reply([]));
  });
}

/** In the primary: collects and sums the workers' metrics. */
export class ClusterMetrics {
  private nextId = 0;
  private readonly pending = new Map<number, (workerId: number, metrics: unknown[]) => void>();

  /** The primary's own process metrics (memory, CPU, event loop, start time). */
  private readonly primary = new Registry();

  constructor(private readonly readyWorkers: () => Worker[]) {
    collectDefaultMetrics({ register: this.primary });
  }

  /** Routes the answers of one worker (call once per forked worker). */
  attach(worker: Worker): void {
    worker.on('message', (message: unknown) => {
      const response = message as MetricsResponse | null;
      if (response?.type !== RESPONSE) return;
      this.pending.get(response.id)?.(worker.id, response.metrics);
    });
  }

  async collect(): Promise<string> {
    const id = this.nextId++;
    const workers = this.readyWorkers().filter((worker) => worker.isConnected());
    const answers = new Map<number, unknown[]>();
    await new Promise<void>((resolve) => {
      const timer = setTimeout(finish, SCRAPE_TIMEOUT_MS);
      function finish() {
        clearTimeout(timer);
        resolve();
      }
      // Answers arrive asynchronously, after every request below was sent and counted.
      let asked = 0;
      this.pending.set(id, (workerId, metrics) => {
        answers.set(workerId, metrics);
        if (answers.size === asked) finish();
      });
      for (const worker of workers) {
        try {
          worker.send({ type: REQUEST, id } satisfies MetricsRequest);
          asked++;
        } catch {
          // Disconnected meanwhile: it is left out of this scrape.
        }
      }
      if (asked === 0) finish();
    });
    this.pending.delete(id);
    const labelled = [...answers].map(([workerId, metrics]) =>
      labelledWith(metrics, String(workerId)),
    );
    labelled.push(labelledWith(await this.primary.getMetricsAsJSON(), 'primary'));
    const registry = AggregatorRegistry.aggregate(labelled);
    new Gauge({
      name: 'stockroom_cluster_workers',
      help: 'Workers whose metrics this scrape summed (the others were starting or had died).',
      registers: [registry],
    }).set(answers.size);
    return registry.metrics();
  }
}

interface MetricJson {
  aggregator?: string;
  values?: Array<{ labels?: Record<string, string | number> }>;
}

/**
 * One process's metrics with `worker` added to every series. Their aggregator becomes `first`:
 * no two processes share a series any more, and prom-client's `omit` (which would drop
 * `process_start_time_seconds`, meaningless when summed) no longer applies.
 */
function labelledWith(metrics: unknown[], worker: string): MetricJson[] {
  return (metrics as MetricJson[]).map((metric) => ({
    ...metric,
    aggregator: 'first',
    values: (metric.values ?? []).map((value) => ({
      ...value,
      labels: { ...value.labels, worker },
    })),
  }));
}

export const PROMETHEUS_CONTENT_TYPE = AggregatorRegistry.PROMETHEUS_CONTENT_TYPE;
