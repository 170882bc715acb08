import type { Worker } from 'node:cluster';
import { AggregatorRegistry, Gauge, type Registry } from 'prom-client';

/**
 * Metrics of `serve --workers N`: the primary serves METRICS_PORT and, on each scrape, asks
 * every ready worker for its registry (as JSON, over the cluster's IPC channel) and sums them
 * with prom-client's AggregatorRegistry. A worker that is starting, or dies during the scrape,
 * is left out of that one scrape instead of failing it; the primary adds the number of workers
 * that answered.
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

  constructor(private readonly readyWorkers: () => Worker[]) {}

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
    const registry = AggregatorRegistry.aggregate([...answers.values()]);
    new Gauge({
      name: 'stockroom_cluster_workers',
      help: 'Workers whose metrics this scrape summed (the others were starting or had died).',
      registers: [registry],
    }).set(answers.size);
    return registry.metrics();
  }
}

export const PROMETHEUS_CONTENT_TYPE = AggregatorRegistry.PROMETHEUS_CONTENT_TYPE;
