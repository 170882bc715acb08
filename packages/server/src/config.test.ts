import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, resolveDatabaseUrl } from './config.js';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      docsPort: 3001,
      host: '127.0.0.1',
      workers: 1,
      corsOrigins: '*',
      trustProxy: false,
      logLevel: 'info',
      nodeEnv: 'development',
      redisUrl: undefined,
      redisPrefix: 'stockroom:',
      authFailureLimit: { max: 30, windowSeconds: 60 },
      metricsPort: null,
      metricsHost: '127.0.0.1',
    });
    expect(config.databaseUrl).toBe(path.resolve('data/stockroom.db'));
  });

  it('reads REDIS_PREFIX', () => {
    expect(loadConfig({ REDIS_PREFIX: 'shop-a:' }).redisPrefix).toBe('shop-a:');
  });

  it('reads AUTH_FAILURE_LIMIT as MAX/DURATION or none', () => {
    expect(loadConfig({ AUTH_FAILURE_LIMIT: '5/10s' }).authFailureLimit).toEqual({
      max: 5,
      windowSeconds: 10,
    });
    expect(loadConfig({ AUTH_FAILURE_LIMIT: '100/1h' }).authFailureLimit).toEqual({
      max: 100,
      windowSeconds: 3600,
    });
    expect(loadConfig({ AUTH_FAILURE_LIMIT: 'none' }).authFailureLimit).toBeNull();
  });

  it('reads METRICS_PORT and METRICS_HOST, apart from the two hosts', () => {
    expect(loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0' })).toMatchObject({
      metricsPort: 9464,
      metricsHost: '0.0.0.0',
    });
    expect(loadConfig({ METRICS_PORT: '0', PORT: '0', DOCS_PORT: '0' }).metricsPort).toBe(0);
    expect(() => loadConfig({ METRICS_PORT: '3000' })).toThrow(
      /^METRICS_PORT must differ from PORT and DOCS_PORT/,
    );
  });

  it('lets flags (overrides) beat the environment', () => {
    expect(loadConfig({ PORT: '4000' }, { PORT: '5000' }).port).toBe(5000);
    expect(loadConfig({ PORT: '4000' }, { PORT: undefined }).port).toBe(4000);
  });

  it('refuses one port for both hosts, naming both variables', () => {
    expect(() => loadConfig({ PORT: '4000', DOCS_PORT: '4000' })).toThrow(
      /^PORT and DOCS_PORT must differ .* both are 4000$/,
    );
    expect(() => loadConfig({ DOCS_PORT: '3000' })).toThrow(ConfigError);
    // 0 means "any free port": two of them never collide.
    expect(loadConfig({ PORT: '0', DOCS_PORT: '0' })).toMatchObject({ port: 0, docsPort: 0 });
  });

  it('reduces CORS_ORIGINS entries to the origin a browser sends', () => {
    expect(
      loadConfig({ CORS_ORIGINS: 'https://shop.example/, http://localhost:5173/app' }).corsOrigins,
    ).toEqual(['https://shop.example', 'http://localhost:5173']);
    expect(() => loadConfig({ CORS_ORIGINS: 'shop.example' })).toThrow(/^CORS_ORIGINS must/);
  });

  it.each([
    [{ PORT: '65536' }, /^PORT must be a port number/],
    [{ DOCS_PORT: 'x' }, /^DOCS_PORT must be a port number/],
    [{ WORKERS: '0' }, /^WORKERS must be/],
    [{ LOG_LEVEL: 'loud' }, /^LOG_LEVEL must be one of/],
    [{ REDIS_URL: 'localhost:6379' }, /^REDIS_URL must start with/],
    [{ REDIS_PREFIX: 'my app:' }, /^REDIS_PREFIX must be up to 100 printable ASCII characters/],
    [{ REDIS_PREFIX: 'app*' }, /^REDIS_PREFIX must be/],
    [{ PUBLIC_DOCS_URL: 'docs.example' }, /^PUBLIC_DOCS_URL must be an absolute/],
    [{ AUTH_FAILURE_LIMIT: '30' }, /^AUTH_FAILURE_LIMIT must be MAX\/DURATION/],
    [{ AUTH_FAILURE_LIMIT: '0/1m' }, /^AUTH_FAILURE_LIMIT must be/],
    [{ AUTH_FAILURE_LIMIT: '30/2d' }, /^AUTH_FAILURE_LIMIT must be .* at most 1d/],
    [{ METRICS_PORT: 'metrics' }, /^METRICS_PORT must be a port number/],
  ])('names the variable of a bad setting: %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});

describe('resolveDatabaseUrl', () => {
  it('resolves SQLite paths against the working directory and keeps PostgreSQL URLs', () => {
    expect(resolveDatabaseUrl(undefined, '/srv/app')).toBe('/srv/app/data/stockroom.db');
    expect(resolveDatabaseUrl('file:db/x.db', '/srv/app')).toBe('/srv/app/db/x.db');
    expect(resolveDatabaseUrl('postgres://u@h/db', '/srv/app')).toBe('postgres://u@h/db');
  });
});
