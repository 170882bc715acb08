import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { maskUrl, startupSummary } from './startup-summary.js';
import { VERSION } from './version.js';

const urls = {
  apiUrl: 'http://127.0.0.1:3000',
  docsUrl: 'http://127.0.0.1:3001',
  metricsUrl: null,
  adminUrl: null,
};

describe('startupSummary', () => {
  it('says what runs, with every optional part on or off', () => {
    const summary = startupSummary(loadConfig({ DATABASE_URL: ':memory:' }), urls, 1);
    expect(summary).toEqual({
      version: VERSION,
      node: process.versions.node,
      nodeEnv: 'development',
      engine: 'sqlite',
      database: ':memory:',
      workers: 1,
      api: urls.apiUrl,
      docs: urls.docsUrl,
      admin: 'off',
      metrics: 'off',
      redis: 'off',
      webhooks: 'on',
      tracing: 'off',
      trustProxy: false,
      corsOrigins: '*',
    });
  });

  it('never shows a password or the admin token', () => {
    const token = 'z'.repeat(40);
    const config = loadConfig({
      DATABASE_URL: 'postgres://app:db-secret@db.internal:5432/stockroom?sslpassword=ssl-secret',
      REDIS_URL: 'redis://default:redis-secret@cache:6379/0',
      ADMIN_TOKEN: token,
      WEBHOOKS: 'off',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
    });
    const summary = startupSummary(
      config,
      { ...urls, adminUrl: 'http://127.0.0.1:3002', metricsUrl: 'http://127.0.0.1:9464/metrics' },
      2,
    );
    const text = JSON.stringify(summary);
    for (const secret of ['db-secret', 'ssl-secret', 'redis-secret', token]) {
      expect(text).not.toContain(secret);
    }
    expect(summary).toMatchObject({
      engine: 'postgres',
      database: 'postgres://app:***@db.internal:5432/stockroom?sslpassword=***',
      redis: 'redis://default:***@cache:6379/0',
      admin: 'http://127.0.0.1:3002',
      metrics: 'http://127.0.0.1:9464/metrics',
      webhooks: 'off',
      tracing: 'on',
      workers: 2,
    });
  });

  it('maskUrl leaves a URL without credentials alone', () => {
    expect(maskUrl('redis://cache:6379')).toBe('redis://cache:6379');
    expect(maskUrl('not a url')).toBe('not a url');
  });
});
