import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKey } from '../keys/format.js';
import type { PrometheusMetrics } from '../metrics/metrics.js';
import { startTestServer, type TestServer } from '../testing/harness.js';
import { announceSkip, postgresUnavailable } from '../testing/services.js';
import { VERSION } from '../version.js';

/**
 * Prometheus metrics (METRICS_PORT), scraped over HTTP from the port of their own: requests by
 * route template and status, latency histograms, key-cache hits and misses, rate-limit
 * rejections by reason, the PostgreSQL pool, and the process's default metrics.
 */

/** `name{labels} value` lines → value by `name{labels}` (labels as printed). */
function parse(text: string): Map<string, number> {
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    samples.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return samples;
}

async function scrape(url: string): Promise<{ text: string; samples: Map<string, number> }> {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
  const text = await response.text();
  return { text, samples: parse(text) };
}

describe('METRICS_PORT', () => {
  let server: TestServer;
  let url: string;
  beforeAll(async () => {
    // Listening: the metrics port is a listener of its own.
    server = await startTestServer({
      listen: true,
      env: { METRICS_PORT: '0', AUTH_FAILURE_LIMIT: '2/1d', TRUST_PROXY: 'true' },
    });
    url = server.server.metricsUrl as string;
  });
  afterAll(() => server.close());

  it('serves /metrics on a loopback port of its own, not on the API', async () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    expect(new URL(url).port).not.toBe(new URL(server.apiUrl).port);
    expect((await server.request('/metrics')).body.error.code).toBe('ROUTE_NOT_FOUND');
    expect((await fetch(new URL('/other', url))).status).toBe(404);
    expect((await fetch(url, { method: 'POST' })).status).toBe(405);
  });

  it('counts requests by route template and status, with a latency histogram per route', async () => {
    const item = '/api/v1/inventory/item';
    const before = (await scrape(url)).samples;
    const count = (samples: Map<string, number>, key: string) => samples.get(key) ?? 0;
    const key = server.demo.key;
    for (let i = 0; i < 3; i++) {
      expect((await server.request(`${item}?itemId=${server.demo.itemId}`, { key })).status).toBe(
        200,
      );
    }
    expect((await server.request(`${item}?itemId=${'0'.repeat(24)}`, { key })).status).toBe(404);
    expect((await server.request(`${item}?itemId=zz`, { key })).status).toBe(400);
    expect((await server.request('/api/v1/no/such/path?x=1')).status).toBe(404);
    const { text, samples } = await scrape(url);
    const requests = (route: string, status: number) =>
      count(
        samples,
        `stockroom_http_requests_total{route="${route}",status="${status}",transport="rest"}`,
      ) -
      count(
        before,
        `stockroom_http_requests_total{route="${route}",status="${status}",transport="rest"}`,
      );
    expect(requests(item, 200)).toBe(3);
    expect(requests(item, 404)).toBe(1);
    expect(requests(item, 400)).toBe(1);
    expect(requests('unmatched', 404)).toBe(1);
    const histogram = (suffix: string) =>
      count(samples, `stockroom_http_request_duration_seconds_${suffix}`) -
      count(before, `stockroom_http_request_duration_seconds_${suffix}`);
    expect(histogram(`count{route="${item}",transport="rest"}`)).toBe(5);
    expect(histogram(`bucket{route="${item}",transport="rest",le="+Inf"}`)).toBe(5);
    expect(histogram(`sum{route="${item}",transport="rest"}`)).toBeGreaterThan(0);
    // Buckets are cumulative: each at least the one before it.
    const buckets = [...samples]
      .filter(([name]) => name.startsWith(`stockroom_http_request_duration_seconds_bucket{`))
      .filter(([name]) => name.includes(`route="${item}"`))
      .map(([, value]) => value);
    expect(buckets.length).toBeGreaterThan(5);
    for (let i = 1; i < buckets.length; i++) {
      expect(buckets[i]).toBeGreaterThanOrEqual(buckets[i - 1] as number);
    }
    // Labels are templates: no ids, query strings or raw unknown paths.
    expect(text).not.toContain(server.demo.itemId);
    expect(text).not.toContain('itemId');
    expect(text).not.toContain('/no/such/path');
  });

  it('labels the MCP server’s requests transport="mcp"', async () => {
    const before = (await scrape(url)).samples;
    const series = 'stockroom_http_requests_total{route="/mcp",status="200",transport="mcp"}';
    const response = await server.request('/mcp', {
      method: 'POST',
      key: server.demo.key,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(response.status).toBe(200);
    const { samples } = await scrape(url);
    expect((samples.get(series) ?? 0) - (before.get(series) ?? 0)).toBe(1);
    expect(
      samples.get('stockroom_http_request_duration_seconds_count{route="/mcp",transport="mcp"}'),
    ).toBeGreaterThanOrEqual(1);
    // Tool calls by tool and outcome.
    const call = (args: Record<string, unknown>) =>
      server.request('/mcp', {
        method: 'POST',
        key: server.demo.key,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 2,
          method: 'tools/call',
          params: { name: 'search_items', arguments: args },
        }),
      });
    expect((await call({ limit: 1 })).status).toBe(200);
    expect((await call({ status: 'nope' })).status).toBe(200);
    const after = (await scrape(url)).samples;
    const calls = (outcome: string) =>
      (after.get(`stockroom_mcp_tool_calls_total{tool="search_items",outcome="${outcome}"}`) ?? 0) -
      (samples.get(`stockroom_mcp_tool_calls_total{tool="search_items",outcome="${outcome}"}`) ??
        0);
    expect(calls('ok')).toBe(1);
    expect(calls('error')).toBe(1);
  });

  it('counts key-cache hits and misses', async () => {
    const lookups = async () => {
      const { samples } = await scrape(url);
      return {
        hit: samples.get('stockroom_key_cache_lookups_total{result="hit"}') ?? 0,
        miss: samples.get('stockroom_key_cache_lookups_total{result="miss"}') ?? 0,
      };
    };
    const { key } = await server.createKey({ organizationId: server.demo.organizationId });
    const before = await lookups();
    // The first request looks the new key up; the next ones, within the cache's lifetime,
    // find it cached (sent at once, so well within it).
    expect((await server.request('/api/v1/auth/verify', { key })).status).toBe(200);
    const afterFirst = await lookups();
    expect(afterFirst.miss - before.miss).toBe(1);
    await Promise.all([1, 2, 3].map(() => server.request('/api/v1/auth/verify', { key })));
    const after = await lookups();
    expect(after.hit + after.miss - (afterFirst.hit + afterFirst.miss)).toBe(3);
    expect(after.hit).toBeGreaterThan(afterFirst.hit);
  });

  it('counts rate-limit rejections by reason: the key’s limit, and the invalid-key throttle', async () => {
    const reasons = async () => {
      const { samples } = await scrape(url);
      return {
        key: samples.get('stockroom_rate_limit_rejections_total{reason="key"}') ?? 0,
        address: samples.get('stockroom_rate_limit_rejections_total{reason="auth_failures"}') ?? 0,
      };
    };
    const before = await reasons();
    const { key } = await server.createKey({
      organizationId: server.demo.organizationId,
      rateLimit: { max: 1, windowSeconds: 86_400 },
    });
    const limited = [];
    for (let i = 0; i < 3; i++) limited.push(await server.request('/api/v1/auth/verify', { key }));
    expect(limited.map((r) => r.body?.error?.code ?? r.status)).toEqual([
      200,
      'RATE_LIMITED',
      'RATE_LIMITED',
    ]);
    const headers = { 'x-forwarded-for': '203.0.113.99' };
    for (let i = 0; i < 2; i++) {
      await server.request('/api/v1/organization', {
        headers: { ...headers, 'x-api-key': generateKey('organization').key },
      });
    }
    // A key this server has not accepted yet: the throttle refuses it without a lookup.
    const throttled = await server.request('/api/v1/organization', {
      headers,
      key: generateKey('organization').key,
    });
    expect(throttled.body.error.code).toBe('RATE_LIMITED');
    const after = await reasons();
    expect(after.key - before.key).toBe(2);
    expect(after.address - before.address).toBe(1);
  });

  it('reports the PostgreSQL pool (not on SQLite) and the process default metrics', async () => {
    const { samples, text } = await scrape(url);
    if (server.engine === 'postgres') {
      const total = samples.get('stockroom_database_pool_connections{state="total"}');
      expect(total).toBeGreaterThanOrEqual(1);
      expect(samples.get('stockroom_database_pool_connections{state="idle"}')).toBeLessThanOrEqual(
        total as number,
      );
      expect(samples.has('stockroom_database_pool_connections{state="waiting"}')).toBe(true);
    } else {
      expect(text).not.toContain('stockroom_database_pool_connections');
    }
    expect(samples.get('process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(samples.get('nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
  });
});

describe('what an SRE watches', () => {
  it('says what runs (build info) and whether the database answers, with its ping time', async () => {
    const server = await startTestServer({ env: { METRICS_PORT: '0' } });
    try {
      const metrics = server.server.services.metrics as PrometheusMetrics;
      const samples = parse(await metrics.registry.metrics());
      expect(
        samples.get(
          `stockroom_build_info{version="${VERSION}",engine="${server.engine}",node="${process.versions.node}"}`,
        ),
      ).toBe(1);
      expect(samples.get('stockroom_dependency_up{dependency="database"}')).toBe(1);
      const ping = samples.get('stockroom_dependency_ping_seconds{dependency="database"}');
      expect(ping).toBeGreaterThan(0);
      expect(ping).toBeLessThan(1);
      expect(samples.has('stockroom_dependency_up{dependency="redis"}')).toBe(false);
    } finally {
      await server.close();
    }
  });

  it('counts 503s by cause: readyz while draining', async () => {
    const server = await startTestServer({ env: { METRICS_PORT: '0' } });
    try {
      const metrics = server.server.services.metrics as PrometheusMetrics;
      const draining = 'stockroom_unavailable_responses_total{cause="draining"}';
      expect(parse(await metrics.registry.metrics()).get(draining)).toBe(0);
      server.server.services.draining = true;
      expect((await server.request('/readyz')).status).toBe(503);
      expect((await server.request('/readyz')).status).toBe(503);
      const samples = parse(await metrics.registry.metrics());
      expect(samples.get(draining)).toBe(2);
      expect(samples.get('stockroom_unavailable_responses_total{cause="database"}')).toBe(0);
    } finally {
      server.server.services.draining = false;
      await server.close();
    }
  });

  it('reports Redis down when it does not answer, while readyz stays 200 (not not_ready)', async () => {
    const server = await startTestServer({
      // Nothing listens on port 1: every Redis call fails at once.
      env: { METRICS_PORT: '0', REDIS_URL: 'redis://127.0.0.1:1' },
    });
    try {
      expect((await server.request('/readyz')).status).toBe(200);
      const metrics = server.server.services.metrics as PrometheusMetrics;
      const samples = parse(await metrics.registry.metrics());
      expect(samples.get('stockroom_dependency_up{dependency="redis"}')).toBe(0);
      expect(samples.get('stockroom_dependency_up{dependency="database"}')).toBe(1);
      expect(samples.get('stockroom_unavailable_responses_total{cause="not_ready"}')).toBe(0);
    } finally {
      await server.close();
    }
  });
});

describe('the metrics reference', () => {
  it('documents every metric Stockroom registers, in both languages', async () => {
    const server = await startTestServer({ env: { METRICS_PORT: '0' } });
    try {
      const metrics = server.server.services.metrics as PrometheusMetrics;
      const names = (await metrics.registry.getMetricsAsJSON())
        .map((metric) => metric.name)
        .filter((name) => name.startsWith('stockroom_'));
      // Registered only on PostgreSQL and in a cluster's main process.
      names.push('stockroom_database_pool_connections', 'stockroom_cluster_workers');
      expect(names).toContain('stockroom_webhook_attempts_total');
      for (const locale of ['en', 'es']) {
        const page = readFileSync(
          new URL(`../../../../docs/${locale}/self-hosting.mdx`, import.meta.url),
          'utf8',
        );
        for (const name of names) expect(page, `${locale}: ${name}`).toContain(`| \`${name}\` |`);
      }
    } finally {
      await server.close();
    }
  });
});

const skipPostgres = announceSkip('the pool metrics on PostgreSQL', await postgresUnavailable());

describe.skipIf(skipPostgres)('METRICS_PORT on PostgreSQL', () => {
  it('reports the pool: total, idle and waiting connections', async () => {
    const server = await startTestServer({ engine: 'postgres', env: { METRICS_PORT: '0' } });
    try {
      await server.request('/api/v1/organization', { key: server.demo.key });
      const metrics = server.server.services.metrics as PrometheusMetrics;
      const samples = parse(await metrics.registry.metrics());
      const total = samples.get('stockroom_database_pool_connections{state="total"}');
      expect(total).toBeGreaterThanOrEqual(1);
      expect(samples.get('stockroom_database_pool_connections{state="idle"}')).toBeLessThanOrEqual(
        total as number,
      );
      expect(samples.has('stockroom_database_pool_connections{state="waiting"}')).toBe(true);
    } finally {
      await server.close();
    }
  });
});

describe('without METRICS_PORT', () => {
  it('serves no metrics at all', async () => {
    const server = await startTestServer();
    try {
      expect(server.server.metricsUrl).toBeNull();
      expect(server.server.services.metrics.enabled).toBe(false);
    } finally {
      await server.close();
    }
  });
});
