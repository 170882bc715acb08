import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../testing/harness.js';
import { announceSkip, postgresUnavailable, redisUnavailable } from '../testing/services.js';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from './testing.js';

/**
 * OpenTelemetry tracing (OTEL_EXPORTER_OTLP_ENDPOINT): the spans a server exports over
 * OTLP/HTTP to a receiver of the test's own, after forceFlush. The SDK reads its settings from
 * process.env (the endpoint too), the server's config from its env: both are given.
 */

const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const PARENT_ID = 'b7ad6b7169203331';

const byName = (spans: ReceivedSpan[], name: string) => spans.filter((span) => span.name === name);

async function tracedServer(
  receiver: OtlpReceiver,
  options: { engine?: 'postgres'; redis?: boolean } = {},
): Promise<TestServer> {
  vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', receiver.endpoint);
  vi.stubEnv('OTEL_SERVICE_NAME', '');
  // Exported when flushed, not on a timer of the processor's.
  vi.stubEnv('OTEL_BSP_SCHEDULE_DELAY', '60000');
  return startTestServer({
    ...options,
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, ADMIN_TOKEN: 'a'.repeat(32) },
  });
}

describe('tracing on', () => {
  let receiver: OtlpReceiver;
  let server: TestServer;
  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    server = await tracedServer(receiver);
  });
  afterAll(async () => {
    await server?.close();
    await receiver?.close();
    vi.unstubAllEnvs();
  });

  it('exports a SERVER span per request, named by route template, with the key id and no secret', async () => {
    const response = await server.request('/api/v1/inventory/items?limit=2&search=x', {
      key: server.demo.key,
    });
    expect(response.status).toBe(200);
    await server.server.services.tracing?.forceFlush();
    const [span] = byName(receiver.spans, 'GET /api/v1/inventory/items');
    expect(span).toBeDefined();
    expect(span?.kind).toBe(SpanKind.SERVER + 1); // OTLP's enum counts from UNSPECIFIED
    expect(span?.attributes).toMatchObject({
      'http.request.method': 'GET',
      'http.route': '/api/v1/inventory/items',
      'http.response.status_code': 200,
      'url.path': '/api/v1/inventory/items',
      'stockroom.organization.id': server.demo.organizationId,
    });
    expect(span?.attributes['stockroom.key.id']).toMatch(/\S/);
    expect(span?.resource['service.name']).toBe('stockroom');
    // Nothing of the key's secret, nor the query string, anywhere in what was exported.
    const exported = receiver.bodies.join('\n');
    expect(exported).not.toContain(server.demo.key);
    expect(exported).not.toContain(server.demo.key.slice(-12));
    expect(exported).not.toContain('search=x');
  });

  it('gives the store calls of a request CLIENT spans, children of its span', async () => {
    const response = await server.request(`/api/v1/inventory/item?itemId=${server.demo.itemId}`, {
      key: server.demo.key,
      headers: { traceparent: `00-${TRACE_ID}-${PARENT_ID}-01` },
    });
    expect(response.status).toBe(200);
    await server.server.services.tracing?.forceFlush();
    const inTrace = receiver.spans.filter((span) => span.traceId === TRACE_ID);
    // traceparent continued: the request span is the caller's span's child.
    const [request] = byName(inTrace, 'GET /api/v1/inventory/item');
    expect(request?.parentSpanId).toBe(PARENT_ID);
    const store = inTrace.filter((span) => span.name.startsWith('store.'));
    expect(store.length).toBeGreaterThan(0);
    for (const span of store) {
      expect(span.parentSpanId).toBe(request?.spanId);
      expect(span.kind).toBe(SpanKind.CLIENT + 1);
      expect(span.attributes['db.system']).toBe('sqlite');
      expect(span.attributes['db.operation.name']).toBe(span.name.slice('store.'.length));
    }
  });

  it('names a request no route takes by its method, masking a key-like path', async () => {
    const response = await server.request('/nowhere/sr_org_abcdefghijkl?x=1');
    expect(response.status).toBe(404);
    await server.server.services.tracing?.forceFlush();
    const [span] = receiver.spans.filter(
      (s) => s.attributes['url.path'] === '/nowhere/sr_org_abcd…',
    );
    expect(span?.name).toBe('GET');
    expect(span?.attributes['http.route']).toBeUndefined();
    expect(span?.attributes['http.response.status_code']).toBe(404);
    expect(span?.status.code ?? SpanStatusCode.UNSET).toBe(SpanStatusCode.UNSET);
    expect(receiver.bodies.join('\n')).not.toContain('efghijkl');
  });

  it('traces the docs and admin hosts too', async () => {
    const docs = await server.docsRequest('/llms.txt');
    expect(docs.status).toBe(200);
    const admin = await server.fetch(`${server.server.adminUrl}/admin/v1/organizations`, {
      headers: { authorization: `Bearer ${'a'.repeat(32)}` },
    });
    expect(admin.status).toBe(200);
    await server.server.services.tracing?.forceFlush();
    expect(byName(receiver.spans, 'GET /llms.txt')).toHaveLength(1);
    const [listing] = byName(receiver.spans, 'GET /admin/v1/organizations');
    expect(listing).toBeDefined();
    expect(receiver.bodies.join('\n')).not.toContain('a'.repeat(32));
  });
});

const [pgMissing, redisMissing] = await Promise.all([postgresUnavailable(), redisUnavailable()]);
const skipRedis = announceSkip('tracing on PostgreSQL with Redis', pgMissing ?? redisMissing);

describe.skipIf(skipRedis)('tracing on PostgreSQL, with REDIS_URL', () => {
  it('gives the rate-limit hit on Redis and the PostgreSQL calls spans of the request', async () => {
    const receiver = await startOtlpReceiver();
    // The harness's servers use Redis on PostgreSQL (with a prefix of their own).
    const server = await tracedServer(receiver, { engine: 'postgres', redis: true });
    try {
      const response = await server.request('/api/v1/organization', { key: server.demo.key });
      expect(response.status).toBe(200);
      await server.server.services.tracing?.forceFlush();
      const [request] = byName(receiver.spans, 'GET /api/v1/organization');
      const [hit] = byName(receiver.spans, 'redis rate-limit hit');
      expect(hit?.parentSpanId).toBe(request?.spanId);
      expect(hit?.attributes).toMatchObject({ 'db.system': 'redis' });
      const store = receiver.spans.filter((span) => span.name.startsWith('store.'));
      expect(store.length).toBeGreaterThan(0);
      for (const span of store) {
        expect(span.parentSpanId).toBe(request?.spanId);
        expect(span.attributes['db.system']).toBe('postgresql');
      }
    } finally {
      await server.close();
      await receiver.close();
      vi.unstubAllEnvs();
    }
  });
});

describe('tracing off', () => {
  it('leaves the services without tracing and the store unwrapped', async () => {
    const server = await startTestServer();
    try {
      expect(server.server.services.tracing).toBeNull();
      expect(server.server.services.config.tracing).toBe(false);
    } finally {
      await server.close();
    }
  });
});
