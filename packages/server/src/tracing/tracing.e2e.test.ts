import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueKey } from '../keys/issue.js';
import { SqliteStore } from '../store/sqlite/sqlite-store.js';
import { childPids, startServeProcess } from '../testing/serve-process.js';
import { type OtlpReceiver, startOtlpReceiver } from './testing.js';

/**
 * Tracing in a real `stockroom serve` (the built binary): spans exported over OTLP/HTTP to a
 * receiver of the test's own when OTEL_EXPORTER_OTLP_ENDPOINT is set, flushed at the graceful
 * shutdown (the batch delay is set far past the test, so nothing is exported before), one SDK
 * per worker under --workers; and without the variable, nothing of tracing loaded at all.
 */

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_ID = '00f067aa0ba902b7';

let dir: string;
let file: string;
let key: string;
let keyId: string;
let receiver: OtlpReceiver;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'stockroom-tracing-'));
  file = path.join(dir, 'stockroom.db');
  const store = new SqliteStore(file);
  try {
    await store.migrate();
    const org = await store.createOrganization({
      name: 'Traced',
      slug: 'traced',
      features: ['inventory'],
    });
    const issued = await issueKey(store, { organizationId: org.id, rateLimit: null });
    key = issued.key;
    keyId = issued.record.id;
  } finally {
    await store.close();
  }
  receiver = await startOtlpReceiver();
});

afterAll(async () => {
  await receiver?.close();
  rmSync(dir, { recursive: true, force: true });
});

const traced = () => ({
  DATABASE_URL: file,
  OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
  OTEL_BSP_SCHEDULE_DELAY: '600000',
  OTEL_SERVICE_NAME: 'stockroom-e2e',
});

describe('stockroom serve with OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  it('exports request and store spans, continuing traceparent, when it shuts down', async () => {
    const serve = await startServeProcess(traced());
    const response = await fetch(`${serve.apiUrl}/api/v1/inventory/items?limit=1`, {
      headers: { 'x-api-key': key, traceparent: `00-${TRACE_ID}-${PARENT_ID}-01` },
    });
    expect(response.status).toBe(200);
    expect(await serve.stop()).toBe(0);
    const inTrace = receiver.spans.filter((span) => span.traceId === TRACE_ID);
    const request = inTrace.find((span) => span.name === 'GET /api/v1/inventory/items');
    expect(request?.parentSpanId).toBe(PARENT_ID);
    expect(request?.attributes).toMatchObject({
      'http.route': '/api/v1/inventory/items',
      'http.response.status_code': 200,
      'stockroom.key.id': keyId,
      'stockroom.organization.slug': 'traced',
    });
    expect(request?.resource).toMatchObject({ 'service.name': 'stockroom-e2e' });
    // The SQLite store runs on threads: its calls are spans of the request nonetheless.
    const store = inTrace.filter((span) => span.name.startsWith('store.'));
    expect(store.length).toBeGreaterThan(0);
    for (const span of store) {
      expect(span.parentSpanId).toBe(request?.spanId);
      expect(span.attributes['db.system']).toBe('sqlite');
    }
    expect(receiver.bodies.join('\n')).not.toContain(key);
  });

  it('under --workers 2, each worker exports its own spans', async () => {
    const serve = await startServeProcess(traced(), ['--workers', '2']);
    const workers = await childPids(serve.pid);
    expect(workers).toHaveLength(2);
    const before = receiver.spans.length;
    for (let i = 0; i < 6; i++) {
      // A new connection each time: the primary hands them to the workers in turn.
      const response = await fetch(`${serve.apiUrl}/api/v1/health`, {
        headers: { connection: 'close' },
      });
      expect(response.status).toBe(200);
    }
    expect(await serve.stop()).toBe(0);
    const health = receiver.spans
      .slice(before)
      .filter((span) => span.name === 'GET /api/v1/health');
    expect(health).toHaveLength(6);
    const pids = new Set(health.map((span) => span.resource['process.pid']));
    for (const pid of pids) expect(workers).toContain(pid);
  });
});

describe('stockroom serve without an OTLP endpoint', () => {
  /** Preloaded: loading the tracing module or an OpenTelemetry SDK package fails the start. */
  let guard: string;
  beforeAll(() => {
    // prom-client requires @opentelemetry/api (its no-op facade, for exemplars) whenever it
    // loads: the SDK packages and the tracing module are what tracing would add.
    const traced = `const traced = (specifier) =>
  specifier.endsWith('tracing/tracing.js') ||
  (specifier.startsWith('@opentelemetry/') && specifier !== '@opentelemetry/api');`;
    const hooks = `${traced}
export async function resolve(specifier, context, next) {
  if (traced(specifier)) throw new Error('tracing loaded: ' + specifier);
  return next(specifier, context);
}`;
    guard = path.join(dir, 'no-opentelemetry.mjs');
    writeFileSync(
      guard,
      `import Module, { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hooks)}));
${traced}
const load = Module._load;
Module._load = function (request, ...rest) {
  if (traced(request)) throw new Error('tracing loaded: ' + request);
  return load.call(this, request, ...rest);
};
`,
    );
  });

  it('loads neither the tracing module nor any OpenTelemetry SDK package', async () => {
    const options = `--import=${pathToFileURL(guard).href}`;
    const serve = await startServeProcess({ DATABASE_URL: file, NODE_OPTIONS: options });
    const response = await fetch(`${serve.apiUrl}/api/v1/organization`, {
      headers: { 'x-api-key': key },
    });
    expect(response.status).toBe(200);
    expect(await serve.stop()).toBe(0);
    // The guard works: with the endpoint set, the same start fails on the tracing module.
    await expect(startServeProcess({ ...traced(), NODE_OPTIONS: options })).rejects.toThrow(
      /tracing loaded: \S*tracing\/tracing\.js/,
    );
  });
});
