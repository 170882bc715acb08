import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, configWarnings, loadConfig, resolveDatabaseUrl } from './config.js';

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

  it('turns tracing on with an OTLP endpoint, unless the SDK or its exporter is turned off', () => {
    const tracing = (env: Record<string, string>) => loadConfig(env).tracing;
    expect(tracing({})).toBe(false);
    expect(tracing({ OTEL_SERVICE_NAME: 'inventory' })).toBe(false);
    expect(tracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(tracing({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318/v1/traces' })).toBe(true);
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };
    expect(tracing({ ...endpoint, OTEL_SDK_DISABLED: 'true' })).toBe(false);
    expect(tracing({ ...endpoint, OTEL_TRACES_EXPORTER: 'none' })).toBe(false);
    expect(tracing({ ...endpoint, OTEL_TRACES_EXPORTER: 'otlp' })).toBe(true);
  });

  it('reads TRUST_PROXY as true, false, a hop count, or addresses and networks', () => {
    const read = (value: string) => loadConfig({ TRUST_PROXY: value }).trustProxy;
    expect(read('')).toBe(false);
    expect(read('false')).toBe(false);
    expect(read('true')).toBe(true);
    expect(read('TRUE')).toBe(true);
    expect(read('1')).toBe(1);
    expect(read('2')).toBe(2);
    expect(read('100')).toBe(100);
    expect(read('10.0.0.5')).toEqual(['10.0.0.5']);
    expect(read(' 10.0.0.0/8 , fd00::/8,::1, loopback,linklocal,uniquelocal ')).toEqual([
      '10.0.0.0/8',
      'fd00::/8',
      '::1',
      'loopback',
      'linklocal',
      'uniquelocal',
    ]);
    expect(read('::ffff:10.0.0.1,0.0.0.0/0,2001:db8::/128')).toEqual([
      '::ffff:10.0.0.1',
      '0.0.0.0/0',
      '2001:db8::/128',
    ]);
  });

  it('refuses a TRUST_PROXY it cannot honour, naming the variable, the forms and the fault', () => {
    const refusals: Array<[string, RegExp]> = [
      ['0', /a hop count of 0 trusts nothing: use false/],
      ['101', /a hop count of 101 is more proxies/],
      ['-1', /"-1" is not an IP address or a CIDR network/],
      ['1.5', /"1.5" is not an IP address/],
      ['yes', /"yes" is not an IP address/],
      ['on', /"on" is not an IP address/],
      ['10.0.0.256', /"10.0.0.256" is not an IP address/],
      ['127.1', /"127.1" is not an IP address/],
      ['0x7f000001', /"0x7f000001" is not an IP address/],
      ['10.0.0.0/33', /"10.0.0.0\/33" has a prefix length that is not a whole number from 0 to 32/],
      ['fd00::/129', /"fd00::\/129" has a prefix length .* 0 to 128/],
      ['10.0.0.0/255.0.0.0', /"10.0.0.0\/255.0.0.0" has a prefix length/],
      ['10.0.0.0/', /"10.0.0.0\/" has a prefix length/],
      ['10.0.0.1,,10.0.0.2', /an empty entry/],
      ['10.0.0.1,', /an empty entry/],
      ['proxy.internal', /"proxy.internal" is not an IP address/],
      ['10.0.0.1:8080', /"10.0.0.1:8080" is not an IP address/],
      ['[::1]', /"\[::1\]" is not an IP address/],
      ['Loopback', /"Loopback" is not an IP address/],
    ];
    for (const [value, reason] of refusals) {
      let refused: unknown;
      try {
        loadConfig({ TRUST_PROXY: value });
      } catch (error) {
        refused = error;
      }
      expect(refused, value).toBeInstanceOf(ConfigError);
      const message = (refused as Error).message;
      expect(message, value).toMatch(
        /^TRUST_PROXY must be "false" .*"true" .*a hop count from 1 to 100 .*comma-separated proxy addresses and CIDR networks, IPv4 or IPv6 .*loopback, linklocal, uniquelocal name their ranges/,
      );
      expect(message, value).toContain(`got "${value}"`);
      expect(message, value).toMatch(reason);
    }
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
    // A key's rate-limit grammar (domain/rate-limit-spec.ts), with tighter bounds.
    expect(loadConfig({ AUTH_FAILURE_LIMIT: '999999999/1d' }).authFailureLimit).toEqual({
      max: 999_999_999,
      windowSeconds: 86_400,
    });
    for (const bad of ['1000000000/1m', '30/86401s', '30/01m', '30/1m/2', '30/250ms']) {
      expect(() => loadConfig({ AUTH_FAILURE_LIMIT: bad }), bad).toThrow(
        /^AUTH_FAILURE_LIMIT must be MAX\/DURATION/,
      );
    }
  });

  it('reads SYNC_RETENTION as a duration from 1m to 3650d', () => {
    expect(loadConfig({}).syncRetentionMs).toBe(30 * 86_400_000);
    expect(loadConfig({ SYNC_RETENTION: '12h' }).syncRetentionMs).toBe(12 * 3_600_000);
    expect(loadConfig({ SYNC_RETENTION: '1m' }).syncRetentionMs).toBe(60_000);
    // The one DURATION parser (domain/duration.ts): any number of digits within the bounds.
    expect(loadConfig({ SYNC_RETENTION: '10000000s' }).syncRetentionMs).toBe(10_000_000_000);
    for (const bad of ['30s', '3651d', '0d', '7 d', 'week']) {
      expect(() => loadConfig({ SYNC_RETENTION: bad })).toThrow(
        new RegExp(`^SYNC_RETENTION must be a duration from 1m to 3650d .* got "${bad}"$`),
      );
    }
  });

  it('reads the webhook settings, and names the one it cannot read', () => {
    const defaults = loadConfig({});
    expect(defaults.webhooksEnabled).toBe(true);
    expect(defaults.webhookPollMs).toBe(1000);
    expect(defaults.webhookRetryDelaysMs).toEqual([
      30_000, 120_000, 600_000, 3_600_000, 10_800_000, 21_600_000, 43_200_000, 86_400_000,
    ]);
    expect(defaults.webhookDestinations.allowed).toEqual([]);

    const set = loadConfig({
      WEBHOOKS: 'off',
      WEBHOOK_POLL_INTERVAL: '250ms',
      WEBHOOK_RETRY_DELAYS: '50ms, 2s,1m',
      WEBHOOK_ALLOWED_NETWORKS: '10.0.0.0/8,127.0.0.1',
    });
    expect(set.webhooksEnabled).toBe(false);
    expect(set.webhookPollMs).toBe(250);
    expect(set.webhookRetryDelaysMs).toEqual([50, 2000, 60_000]);
    expect(set.webhookDestinations.allowed.map(([address, bits]) => `${address}/${bits}`)).toEqual([
      '10.0.0.0/8',
      '127.0.0.1/32',
    ]);
    expect(loadConfig({ WEBHOOK_RETRY_DELAYS: 'none' }).webhookRetryDelaysMs).toEqual([]);

    expect(() => loadConfig({ WEBHOOKS: 'maybe' })).toThrow(
      /^WEBHOOKS must be "on" .* got "maybe"$/,
    );
    for (const bad of ['5ms', '2m', 'soon']) {
      expect(() => loadConfig({ WEBHOOK_POLL_INTERVAL: bad })).toThrow(
        new RegExp(`^WEBHOOK_POLL_INTERVAL must be a duration from 10ms to 1m .* got "${bad}"$`),
      );
    }
    for (const bad of ['30s,,1m', '8d', '1h,tomorrow', Array(21).fill('1s').join(',')]) {
      expect(() => loadConfig({ WEBHOOK_RETRY_DELAYS: bad })).toThrow(
        /^WEBHOOK_RETRY_DELAYS must be up to 20 comma-separated durations of at most 7d/,
      );
    }
    expect(() => loadConfig({ WEBHOOK_ALLOWED_NETWORKS: '10.0.0.0/8,intranet' })).toThrow(
      /^WEBHOOK_ALLOWED_NETWORKS must be .*"intranet" is not an IP address/,
    );
  });

  it('reads SHUTDOWN_TIMEOUT and SHUTDOWN_DELAY as durations, the delay shorter', () => {
    expect(loadConfig({})).toMatchObject({ shutdownTimeoutMs: 30_000, shutdownDelayMs: 0 });
    expect(loadConfig({ SHUTDOWN_TIMEOUT: '2m', SHUTDOWN_DELAY: '5s' })).toMatchObject({
      shutdownTimeoutMs: 120_000,
      shutdownDelayMs: 5000,
    });
    expect(loadConfig({ SHUTDOWN_TIMEOUT: '1500ms', SHUTDOWN_DELAY: '0' })).toMatchObject({
      shutdownTimeoutMs: 1500,
      shutdownDelayMs: 0,
    });
    for (const bad of ['30', '500ms', '2h', '-1s', 'soon', '1.5s']) {
      expect(() => loadConfig({ SHUTDOWN_TIMEOUT: bad })).toThrow(
        new RegExp(`^SHUTDOWN_TIMEOUT must be a duration from 1s to 1h .* got "${bad}"$`),
      );
    }
    for (const bad of ['30s', '1m', '5', 'later']) {
      expect(() => loadConfig({ SHUTDOWN_DELAY: bad })).toThrow(
        new RegExp(
          `^SHUTDOWN_DELAY must be a duration shorter than SHUTDOWN_TIMEOUT \\(30s\\) .* got "${bad}"$`,
        ),
      );
    }
    // The error is a ConfigError: `serve` refuses to start and names the variable.
    expect(() => loadConfig({ SHUTDOWN_TIMEOUT: '0s' })).toThrow(ConfigError);
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

describe('production safety', () => {
  // As `openssl rand -base64 32` prints one: a token production accepts.
  const TOKEN = 'q3N9vGx1R+7kLm2Zp8TwYb5Hc0JdUe4Fs6Aa/XiOnKE=';
  const production = { NODE_ENV: 'production' };

  it('refuses an ADMIN_TOKEN of fewer than 128 bits, saying how to make one, never quoting it', () => {
    const weak = 'a'.repeat(32);
    for (const token of [
      weak,
      'y'.repeat(40),
      'abc123'.repeat(8),
      'correct-horse-battery-staple!',
    ]) {
      let caught: unknown;
      try {
        loadConfig({ ...production, ADMIN_TOKEN: token.padEnd(32, '!') });
      } catch (error) {
        caught = error;
      }
      expect(caught, token).toBeInstanceOf(ConfigError);
      const message = (caught as Error).message;
      expect(message).toMatch(/ADMIN_TOKEN is too easy to guess for NODE_ENV=production/);
      expect(message).toMatch(/at least 128 are needed.*openssl rand -base64 32/);
      expect(message).not.toContain(token);
    }
    expect(() => loadConfig({ ...production, ADMIN_TOKEN: weak })).toThrow(/about 0 bits/);
    // Random 32-byte tokens pass, in base64 and in hex; outside production a weak one is allowed.
    for (const token of [
      TOKEN,
      randomBytes(32).toString('base64'),
      randomBytes(32).toString('hex'),
    ]) {
      expect(loadConfig({ ...production, ADMIN_TOKEN: token }).adminToken).toBe(token);
    }
    expect(loadConfig({ ADMIN_TOKEN: weak }).adminToken).toBe(weak);
  });

  it('refuses a public admin API unless ALLOW_PUBLIC_ADMIN=true, saying what to do', () => {
    const env = { ...production, ADMIN_TOKEN: TOKEN, ADMIN_HOST: '0.0.0.0' };
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(
      /ADMIN_HOST is 0\.0\.0\.0, which other machines can reach.*ALLOW_PUBLIC_ADMIN=true/,
    );
    expect(loadConfig({ ...env, ALLOW_PUBLIC_ADMIN: 'true' }).adminHost).toBe('0.0.0.0');
    // Off, the admin host is never bound: nothing to refuse.
    expect(loadConfig({ ...production, ADMIN_HOST: '0.0.0.0' }).adminToken).toBeNull();
    // Outside production the operator is trusted.
    expect(loadConfig({ ADMIN_TOKEN: TOKEN, ADMIN_HOST: '0.0.0.0' }).adminHost).toBe('0.0.0.0');
  });

  it('refuses public metrics unless ALLOW_PUBLIC_METRICS=true', () => {
    const env = { ...production, METRICS_PORT: '9464', METRICS_HOST: '::' };
    expect(() => loadConfig(env)).toThrow(/METRICS_HOST is ::.*ALLOW_PUBLIC_METRICS=true/);
    expect(loadConfig({ ...env, ALLOW_PUBLIC_METRICS: 'true' }).metricsHost).toBe('::');
    expect(loadConfig({ ...production, METRICS_HOST: '0.0.0.0' }).metricsPort).toBeNull();
  });

  it('accepts every loopback address', () => {
    for (const host of ['127.0.0.1', '127.0.1.7', 'localhost', '::1', '[::1]']) {
      const config = loadConfig({
        ...production,
        ADMIN_TOKEN: TOKEN,
        ADMIN_HOST: host,
        METRICS_PORT: '9464',
        METRICS_HOST: host,
      });
      expect(config.adminHost).toBe(host);
    }
  });

  it('reads the ALLOW_ flags strictly', () => {
    expect(() => loadConfig({ ALLOW_PUBLIC_ADMIN: 'sure' })).toThrow(
      'ALLOW_PUBLIC_ADMIN must be "true" or "false", got "sure"',
    );
  });

  it('warns about CORS_ORIGINS=* in production only', () => {
    expect(configWarnings(loadConfig(production))).toEqual([
      expect.stringContaining('CORS_ORIGINS allows every origin'),
    ]);
    expect(configWarnings(loadConfig({ ...production, CORS_ORIGINS: '*' }))).toHaveLength(1);
    expect(
      configWarnings(loadConfig({ ...production, CORS_ORIGINS: 'https://shop.example' })),
    ).toEqual([]);
    expect(configWarnings(loadConfig({}))).toEqual([]);
  });
});

describe('REDIS_URL errors', () => {
  it('never repeat the value, which may hold a password', () => {
    expect(() => loadConfig({ REDIS_URL: 'http://user:hunter2@cache:6379' })).toThrow(
      'REDIS_URL must start with redis:// or rediss:// (e.g. redis://127.0.0.1:6379), got a value starting with "http:"',
    );
  });
});
