import path from 'node:path';

/** Every setting the service reads, validated once at boot. */
export interface Config {
  /** `postgres://…` selects PostgreSQL; anything else is a SQLite file path. */
  databaseUrl: string;
  /** PostgreSQL connections per process (DATABASE_POOL_SIZE). */
  databasePoolSize: number;
  /**
   * Server-side deadline of one database operation (DATABASE_TIMEOUT_MS): PostgreSQL
   * statement_timeout and connect timeout, SQLite busy_timeout. Past it the API answers 503.
   */
  databaseTimeoutMs: number;
  redisUrl: string | undefined;
  /**
   * Prefix of every key Stockroom writes to Redis (REDIS_PREFIX): several deployments (or test
   * runs) can share one Redis without counting each other's requests.
   */
  redisPrefix: string;
  port: number;
  docsPort: number;
  host: string;
  workers: number | 'auto';
  /** Public base URLs; when unset they are derived from the bound address at listen time. */
  publicApiUrl: string | undefined;
  publicDocsUrl: string | undefined;
  corsOrigins: '*' | string[];
  trustProxy: boolean | number | string;
  logLevel: string;
  nodeEnv: string;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export type Env = Record<string, string | undefined>;

export const DEFAULT_DATABASE_URL = './data/stockroom.db';
export const DEFAULT_REDIS_PREFIX = 'stockroom:';
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function port(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) > 65535) {
    throw new ConfigError(`${name} must be a port number from 0 to 65535, got "${raw}"`);
  }
  return Number(raw);
}

function url(name: string, raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  try {
    const parsed = new URL(raw);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error();
  } catch {
    throw new ConfigError(`${name} must be an absolute http(s) URL, got "${raw}"`);
  }
  return raw.replace(/\/+$/, '');
}

function workers(raw: string | undefined): number | 'auto' {
  if (raw === undefined || raw === '') return 1;
  if (raw === 'auto') return 'auto';
  if (!/^[1-9]\d*$/.test(raw) || Number(raw) > 256) {
    throw new ConfigError(`WORKERS must be a positive integer or "auto", got "${raw}"`);
  }
  return Number(raw);
}

function positiveInt(name: string, raw: string | undefined, fallback: number, max: number): number {
  if (raw === undefined || raw === '') return fallback;
  if (!/^[1-9]\d*$/.test(raw) || Number(raw) > max) {
    throw new ConfigError(`${name} must be a positive integer up to ${max}, got "${raw}"`);
  }
  return Number(raw);
}

function trustProxy(raw: string | undefined): boolean | number | string {
  if (raw === undefined || raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  return raw;
}

function corsOrigins(raw: string | undefined): '*' | string[] {
  if (raw === undefined || raw.trim() === '' || raw.trim() === '*') return '*';
  const origins = raw
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  // Browsers send the bare origin (scheme, host, port): "https://shop.example/" or one with a
  // path would otherwise never match, so each entry is reduced to its origin.
  return origins.map((origin) => {
    url('CORS_ORIGINS', origin);
    return new URL(origin).origin;
  });
}

/** A SQLite path relative to the working directory, or a PostgreSQL URL untouched. */
export function resolveDatabaseUrl(raw: string | undefined, cwd = process.cwd()): string {
  const value = raw === undefined || raw === '' ? DEFAULT_DATABASE_URL : raw;
  if (isPostgresUrl(value)) return value;
  if (value === ':memory:') return value;
  const file = value.startsWith('file:') ? value.slice('file:'.length) : value;
  return path.resolve(cwd, file);
}

export function isPostgresUrl(value: string): boolean {
  return /^postgres(ql)?:\/\//i.test(value);
}

/** Builds the typed configuration from the environment; flags are passed in as env-style overrides. */
export function loadConfig(env: Env = process.env, overrides: Env = {}): Config {
  const merged: Env = { ...env };
  for (const [key, value] of Object.entries(overrides))
    if (value !== undefined) merged[key] = value;
  const logLevel = merged.LOG_LEVEL || 'info';
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  }
  const redisUrl = merged.REDIS_URL || undefined;
  if (redisUrl !== undefined && !/^rediss?:\/\//.test(redisUrl)) {
    throw new ConfigError(`REDIS_URL must start with redis:// or rediss://, got "${redisUrl}"`);
  }
  const redisPrefix = merged.REDIS_PREFIX || DEFAULT_REDIS_PREFIX;
  // Keys are matched by prefix (SCAN MATCH) to clean up: glob characters would match others'.
  if (
    redisPrefix.length > 100 ||
    !/^[\x21-\x7e]+$/.test(redisPrefix) ||
    /[*?[\]\\]/.test(redisPrefix)
  ) {
    throw new ConfigError(
      `REDIS_PREFIX must be up to 100 printable ASCII characters without spaces or * ? [ ] \\, got "${redisPrefix}"`,
    );
  }
  const apiPort = port('PORT', merged.PORT, 3000);
  const docsPort = port('DOCS_PORT', merged.DOCS_PORT, 3001);
  // Both hosts bind HOST: one port for both would start the API and then fail on the docs.
  if (apiPort !== 0 && apiPort === docsPort) {
    throw new ConfigError(
      `PORT and DOCS_PORT must differ (the API and the docs are two hosts), both are ${apiPort}`,
    );
  }
  return {
    databaseUrl: resolveDatabaseUrl(merged.DATABASE_URL),
    databasePoolSize: positiveInt('DATABASE_POOL_SIZE', merged.DATABASE_POOL_SIZE, 10, 1000),
    databaseTimeoutMs: positiveInt(
      'DATABASE_TIMEOUT_MS',
      merged.DATABASE_TIMEOUT_MS,
      5000,
      600_000,
    ),
    redisUrl,
    redisPrefix,
    port: apiPort,
    docsPort,
    host: merged.HOST || '127.0.0.1',
    workers: workers(merged.WORKERS),
    publicApiUrl: url('PUBLIC_API_URL', merged.PUBLIC_API_URL),
    publicDocsUrl: url('PUBLIC_DOCS_URL', merged.PUBLIC_DOCS_URL),
    corsOrigins: corsOrigins(merged.CORS_ORIGINS),
    trustProxy: trustProxy(merged.TRUST_PROXY),
    logLevel,
    nodeEnv: merged.NODE_ENV || 'development',
  };
}
