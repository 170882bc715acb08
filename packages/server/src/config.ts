import path from 'node:path';
import { parseDuration, parseDurationMs } from './domain/duration.js';
import { DomainError } from './domain/errors.js';
import { parseRateLimit } from './domain/rate-limit-spec.js';
import { NAMED_RANGES, parseTrustedEntry, type TrustProxy } from './http/client-address.js';
import { SecretFileError, withSecretFiles } from './secrets.js';
import { estimateEntropyBits } from './token-entropy.js';
import { type DestinationPolicy, parseAllowedNetworks } from './webhooks/destination.js';

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
  /**
   * Whom to believe about the client address (TRUST_PROXY): no one (false), every hop (true),
   * the N nearest hops (a number), or hops whose address is in a list (http/client-address.ts).
   */
  trustProxy: TrustProxy;
  /**
   * Invalid-key outcomes one client address may have per fixed window before every keyed
   * request from it is refused with RATE_LIMITED until the window ends (AUTH_FAILURE_LIMIT);
   * null: no throttling. Counted per process.
   */
  authFailureLimit: { max: number; windowSeconds: number } | null;
  /**
   * How long deleted items are remembered for incremental sync (SYNC_RETENTION, default 30d):
   * their tombstones are dropped after it, and a sync with includeDeleted=true from an older
   * point answers 410 SYNC_EXPIRED.
   */
  syncRetentionMs: number;
  /** Whether this process delivers webhooks (WEBHOOKS=on|off, default on). */
  webhooksEnabled: boolean;
  /** Non-public networks webhooks may reach (WEBHOOK_ALLOWED_NETWORKS; none by default). */
  webhookDestinations: DestinationPolicy;
  /** Delay before each retry of a failed delivery, ms (WEBHOOK_RETRY_DELAYS). */
  webhookRetryDelaysMs: number[];
  /**
   * How often a process looks for changes to deliver, and how long an organization's changes
   * must have settled before they are (WEBHOOK_POLL_INTERVAL, default 1s).
   */
  webhookPollMs: number;
  /** Port of the Prometheus metrics endpoint (METRICS_PORT); null: no metrics (the default). */
  metricsPort: number | null;
  /** Interface the metrics endpoint binds (METRICS_HOST, default 127.0.0.1). */
  metricsHost: string;
  /**
   * Bearer token of the admin API (ADMIN_TOKEN, at least 32 characters); null: the admin API
   * is off (the default) and its port is not opened.
   */
  adminToken: string | null;
  /** Port of the admin API (ADMIN_PORT, default 3002); used only with ADMIN_TOKEN. */
  adminPort: number;
  /** Interface the admin API binds (ADMIN_HOST, default 127.0.0.1). */
  adminHost: string;
  /**
   * How long a SIGTERM/SIGINT shutdown may take, from the signal (SHUTDOWN_TIMEOUT, default
   * 30s): past it the process logs what it cut and exits 1.
   */
  shutdownTimeoutMs: number;
  /**
   * How long readyz answers 503 before the listeners close (SHUTDOWN_DELAY, default 0s), so a
   * load balancer polling it stops sending first. Counted within SHUTDOWN_TIMEOUT.
   */
  shutdownDelayMs: number;
  logLevel: string;
  nodeEnv: string;
  /** ALLOW_PUBLIC_ADMIN: lets a production admin API bind a non-loopback ADMIN_HOST. */
  allowPublicAdmin: boolean;
  /** ALLOW_PUBLIC_METRICS: lets production metrics bind a non-loopback METRICS_HOST. */
  allowPublicMetrics: boolean;
  /**
   * OpenTelemetry tracing (tracing/tracing.ts): on when OTEL_EXPORTER_OTLP_ENDPOINT or
   * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is set, unless OTEL_SDK_DISABLED=true or
   * OTEL_TRACES_EXPORTER=none. The SDK reads every other OTEL_* variable itself.
   */
  tracing: boolean;
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

export const MAX_TRUSTED_HOPS = 100;
const TRUST_PROXY_FORMS = `TRUST_PROXY must be "false" (the default: the client is the connection's peer), "true" (trust every hop: the client is the leftmost X-Forwarded-For entry), a hop count from 1 to ${MAX_TRUSTED_HOPS} (the proxies in front of the server, e.g. 1 for one nginx), or comma-separated proxy addresses and CIDR networks, IPv4 or IPv6 (e.g. 10.0.0.5,fd00::/8; ${Object.keys(NAMED_RANGES).join(', ')} name their ranges)`;

/** TRUST_PROXY: refused at start unless it is one of the forms above, each read whole. */
function trustProxy(raw: string | undefined): TrustProxy {
  const value = raw?.trim() ?? '';
  const lower = value.toLowerCase();
  if (lower === '' || lower === 'false') return false;
  if (lower === 'true') return true;
  if (/^\d+$/.test(value)) {
    if (Number(value) < 1 || Number(value) > MAX_TRUSTED_HOPS) {
      throw new ConfigError(
        `${TRUST_PROXY_FORMS}, got "${raw}" (a hop count of ${value}${Number(value) < 1 ? ' trusts nothing: use false' : ' is more proxies than any chain has'})`,
      );
    }
    return Number(value);
  }
  const entries = value.split(',').map((entry) => entry.trim());
  if (entries.some((entry) => entry === '')) {
    throw new ConfigError(`${TRUST_PROXY_FORMS}, got "${raw}" (an empty entry)`);
  }
  for (const entry of entries) {
    try {
      parseTrustedEntry(entry);
    } catch (error) {
      throw new ConfigError(`${TRUST_PROXY_FORMS}, got "${raw}" (${(error as Error).message})`);
    }
  }
  return entries;
}

export const DEFAULT_AUTH_FAILURE_LIMIT = '30/1m';

/**
 * `MAX/DURATION` (`30/1m`) or `none`: how many invalid keys an address may send per window.
 * Tighter than a key's rate limit: a window of at most a day, a MAX below a billion.
 */
function authFailureLimit(raw: string | undefined): { max: number; windowSeconds: number } | null {
  const value = raw === undefined || raw === '' ? DEFAULT_AUTH_FAILURE_LIMIT : raw;
  if (value === 'none') return null;
  const limit = readSetting(() => parseRateLimit(value));
  if (
    limit === null ||
    limit === 'none' ||
    limit.max > 999_999_999 ||
    limit.windowSeconds > 86_400
  ) {
    throw new ConfigError(
      `AUTH_FAILURE_LIMIT must be MAX/DURATION (invalid keys per client address and window, a window of at most 1d, e.g. ${DEFAULT_AUTH_FAILURE_LIMIT}) or "none", got "${value}"`,
    );
  }
  return limit;
}

/** A value read by one of the domain's parsers, or null where it breaks the rule. */
function readSetting<T>(parse: () => T): T | null {
  try {
    return parse();
  } catch (error) {
    if (error instanceof DomainError) return null;
    throw error;
  }
}

export const DEFAULT_SYNC_RETENTION = '30d';
const MAX_SYNC_RETENTION_DAYS = 3650;

/** SYNC_RETENTION: a DURATION (`30d`, `12h`) from 1 minute to 10 years; returns ms. */
function syncRetention(raw: string | undefined): number {
  const value = raw === undefined || raw === '' ? DEFAULT_SYNC_RETENTION : raw;
  const seconds = readSetting(() => parseDuration(value));
  if (seconds === null || seconds < 60 || seconds > MAX_SYNC_RETENTION_DAYS * 86_400) {
    throw new ConfigError(
      `SYNC_RETENTION must be a duration from 1m to ${MAX_SYNC_RETENTION_DAYS}d such as ${DEFAULT_SYNC_RETENTION} or 12h (how long deleted items are remembered for sync), got "${value}"`,
    );
  }
  return seconds * 1000;
}

export const DEFAULT_WEBHOOK_RETRY_DELAYS = '30s,2m,10m,1h,3h,6h,12h,24h';

/** A duration with a unit (`250ms`, `30s`, `2m`, `1h`, `1d`) in ms, or null when unreadable. */
function durationMs(value: string): number | null {
  return readSetting(() => parseDurationMs(value));
}

/** WEBHOOK_RETRY_DELAYS: up to 20 durations of at most 7d each, or `none` (one attempt only). */
function webhookRetryDelays(raw: string | undefined): number[] {
  const value = raw === undefined || raw === '' ? DEFAULT_WEBHOOK_RETRY_DELAYS : raw.trim();
  if (value === 'none') return [];
  const delays = value.split(',').map((part) => durationMs(part.trim()));
  if (delays.length > 20 || delays.some((delay) => delay === null || delay > 7 * 86_400_000)) {
    throw new ConfigError(
      `WEBHOOK_RETRY_DELAYS must be up to 20 comma-separated durations of at most 7d (the wait before each retry, e.g. ${DEFAULT_WEBHOOK_RETRY_DELAYS}) or "none", got "${value}"`,
    );
  }
  return delays as number[];
}

/** WEBHOOK_POLL_INTERVAL: from 10ms to 1m, default 1s. */
function webhookPoll(raw: string | undefined): number {
  const value = raw === undefined || raw === '' ? '1s' : raw.trim();
  const ms = durationMs(value);
  if (ms === null || ms < 10 || ms > 60_000) {
    throw new ConfigError(
      `WEBHOOK_POLL_INTERVAL must be a duration from 10ms to 1m such as 1s or 500ms, got "${value}"`,
    );
  }
  return ms;
}

export const DEFAULT_SHUTDOWN_TIMEOUT = '30s';
const MAX_SHUTDOWN_MS = 3_600_000;

/** SHUTDOWN_TIMEOUT and SHUTDOWN_DELAY: durations; the delay must leave time for the drain. */
function shutdown(env: Env): Pick<Config, 'shutdownTimeoutMs' | 'shutdownDelayMs'> {
  const timeoutValue =
    env.SHUTDOWN_TIMEOUT === undefined || env.SHUTDOWN_TIMEOUT === ''
      ? DEFAULT_SHUTDOWN_TIMEOUT
      : env.SHUTDOWN_TIMEOUT.trim();
  const timeout = durationMs(timeoutValue);
  if (timeout === null || timeout < 1000 || timeout > MAX_SHUTDOWN_MS) {
    throw new ConfigError(
      `SHUTDOWN_TIMEOUT must be a duration from 1s to 1h such as ${DEFAULT_SHUTDOWN_TIMEOUT} or 2m (how long a shutdown may take before in-flight requests are cut), got "${timeoutValue}"`,
    );
  }
  const delayValue =
    env.SHUTDOWN_DELAY === undefined || env.SHUTDOWN_DELAY === ''
      ? '0s'
      : env.SHUTDOWN_DELAY.trim();
  const delay = delayValue === '0' ? 0 : durationMs(delayValue);
  if (delay === null || delay >= timeout) {
    throw new ConfigError(
      `SHUTDOWN_DELAY must be a duration shorter than SHUTDOWN_TIMEOUT (${timeoutValue}) such as 0s or 5s (how long readyz answers 503 before the listeners close), got "${delayValue}"`,
    );
  }
  return { shutdownTimeoutMs: timeout, shutdownDelayMs: delay };
}

function webhooksEnabled(raw: string | undefined): boolean {
  const value = raw === undefined || raw === '' ? 'on' : raw.trim().toLowerCase();
  if (value === 'on' || value === 'true') return true;
  if (value === 'off' || value === 'false') return false;
  throw new ConfigError(
    `WEBHOOKS must be "on" (this process delivers webhooks) or "off", got "${raw}"`,
  );
}

/** WEBHOOK_ALLOWED_NETWORKS, read into a destination policy (webhooks/destination.ts). */
export function webhookDestinations(raw: string | undefined): DestinationPolicy {
  try {
    return parseAllowedNetworks(raw ?? '');
  } catch (error) {
    throw new ConfigError(
      `WEBHOOK_ALLOWED_NETWORKS must be comma-separated IP addresses or CIDR networks (e.g. 10.0.0.0/8,127.0.0.1): ${(error as Error).message}`,
    );
  }
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

/** METRICS_PORT: unset or empty means no metrics endpoint. */
function metricsPort(raw: string | undefined, apiPort: number, docsPort: number): number | null {
  if (raw === undefined || raw === '') return null;
  const value = port('METRICS_PORT', raw, 0);
  if (value !== 0 && (value === apiPort || value === docsPort)) {
    throw new ConfigError(
      `METRICS_PORT must differ from PORT and DOCS_PORT (metrics are served apart), got ${value}`,
    );
  }
  return value;
}

export const MIN_ADMIN_TOKEN_LENGTH = 32;
/** What a production ADMIN_TOKEN must hold, by estimateEntropyBits: beyond any guessing. */
export const MIN_ADMIN_TOKEN_BITS = 128;
const MAX_ADMIN_TOKEN_LENGTH = 512;

/**
 * ADMIN_TOKEN: unset or empty turns the admin API off. A set token must be long enough not to
 * be guessed, and header-safe. Messages never quote it: a config error may end up in a log.
 */
function adminToken(raw: string | undefined): string | null {
  if (raw === undefined || raw === '') return null;
  const hint = `ADMIN_TOKEN must be ${MIN_ADMIN_TOKEN_LENGTH} to ${MAX_ADMIN_TOKEN_LENGTH} visible ASCII characters without spaces (e.g. the output of \`openssl rand -hex 32\`), or unset to turn the admin API off`;
  if (!/^[\x21-\x7e]+$/.test(raw)) {
    throw new ConfigError(
      `${hint}; the value set contains a space or another character that cannot be sent in an HTTP header`,
    );
  }
  if (raw.length < MIN_ADMIN_TOKEN_LENGTH || raw.length > MAX_ADMIN_TOKEN_LENGTH) {
    throw new ConfigError(`${hint}; the value set is ${raw.length} characters long`);
  }
  return raw;
}

/** ADMIN_PORT: checked against the other ports only when the admin API is on. */
function adminPort(
  raw: string | undefined,
  on: boolean,
  others: { PORT: number; DOCS_PORT: number; METRICS_PORT: number | null },
): number {
  const value = port('ADMIN_PORT', raw, 3002);
  if (!on || value === 0) return value;
  const clash = Object.entries(others).find(([, other]) => other === value);
  if (clash) {
    throw new ConfigError(
      `ADMIN_PORT must differ from PORT, DOCS_PORT and METRICS_PORT (the admin API is served apart), but it equals ${clash[0]} (${value})`,
    );
  }
  return value;
}

function adminSettings(
  env: Env,
  apiPort: number,
  docsPort: number,
): Pick<Config, 'adminToken' | 'adminPort' | 'adminHost'> {
  const token = adminToken(env.ADMIN_TOKEN);
  const metrics = metricsPort(env.METRICS_PORT, apiPort, docsPort);
  return {
    adminToken: token,
    adminPort: adminPort(env.ADMIN_PORT, token !== null, {
      PORT: apiPort,
      DOCS_PORT: docsPort,
      METRICS_PORT: metrics,
    }),
    adminHost: env.ADMIN_HOST || '127.0.0.1',
  };
}

/** Whether the OTEL_* variables ask for traces (Config `tracing`). */
export function tracingRequested(env: Env): boolean {
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT && !env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return false;
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  return env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() !== 'none';
}

/** Builds the typed configuration from the environment; flags are passed in as env-style overrides. */
export function loadConfig(env: Env = process.env, overrides: Env = {}): Config {
  // Files first, flags after: `--database` still wins over DATABASE_URL_FILE.
  const merged: Env = { ...secretsFromFiles(env) };
  for (const [key, value] of Object.entries(overrides))
    if (value !== undefined) merged[key] = value;
  const logLevel = merged.LOG_LEVEL || 'info';
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  }
  const redisUrl = merged.REDIS_URL || undefined;
  if (redisUrl !== undefined && !/^rediss?:\/\//.test(redisUrl)) {
    // Never the value itself: a URL of another scheme can still carry a password.
    throw new ConfigError(
      `REDIS_URL must start with redis:// or rediss:// (e.g. redis://127.0.0.1:6379), got a value starting with "${redisUrl.split(':')[0]}:"`,
    );
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
  const config: Config = {
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
    authFailureLimit: authFailureLimit(merged.AUTH_FAILURE_LIMIT),
    syncRetentionMs: syncRetention(merged.SYNC_RETENTION),
    webhooksEnabled: webhooksEnabled(merged.WEBHOOKS),
    webhookDestinations: webhookDestinations(merged.WEBHOOK_ALLOWED_NETWORKS),
    webhookRetryDelaysMs: webhookRetryDelays(merged.WEBHOOK_RETRY_DELAYS),
    webhookPollMs: webhookPoll(merged.WEBHOOK_POLL_INTERVAL),
    metricsPort: metricsPort(merged.METRICS_PORT, apiPort, docsPort),
    metricsHost: merged.METRICS_HOST || '127.0.0.1',
    ...adminSettings(merged, apiPort, docsPort),
    ...shutdown(merged),
    logLevel,
    nodeEnv: merged.NODE_ENV || 'development',
    allowPublicAdmin: flag('ALLOW_PUBLIC_ADMIN', merged.ALLOW_PUBLIC_ADMIN),
    allowPublicMetrics: flag('ALLOW_PUBLIC_METRICS', merged.ALLOW_PUBLIC_METRICS),
    tracing: tracingRequested(merged),
  };
  refuseUnsafeProduction(config);
  return config;
}

/** `<NAME>_FILE` secrets read into the environment, their problems as configuration errors. */
export function secretsFromFiles(env: Env): Env {
  try {
    return withSecretFiles(env);
  } catch (error) {
    if (error instanceof SecretFileError) throw new ConfigError(error.message);
    throw error;
  }
}

function flag(name: string, raw: string | undefined): boolean {
  const value = raw === undefined || raw === '' ? 'false' : raw.trim().toLowerCase();
  if (value === 'true' || value === '1' || value === 'yes') return true;
  if (value === 'false' || value === '0' || value === 'no') return false;
  throw new ConfigError(`${name} must be "true" or "false", got "${raw}"`);
}

/** Whether binding `host` keeps a port on this machine (127.0.0.0/8, ::1, localhost). */
export function isLoopbackHost(host: string): boolean {
  const bare = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');
  return (
    bare === 'localhost' ||
    bare === '::1' ||
    bare === '::ffff:127.0.0.1' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare)
  );
}

/**
 * Under NODE_ENV=production, an admin API or metrics endpoint reachable from other machines
 * must be asked for: the admin token is the only thing between the network and every
 * organization's data, and metrics show key ids and traffic.
 */
function refuseUnsafeProduction(config: Config): void {
  if (config.nodeEnv !== 'production') return;
  if (config.adminToken !== null && !isLoopbackHost(config.adminHost) && !config.allowPublicAdmin) {
    throw new ConfigError(
      `ADMIN_HOST is ${config.adminHost}, which other machines can reach, and NODE_ENV is production: bind the admin API to 127.0.0.1 (the default) and reach it through a private network or tunnel, or set ALLOW_PUBLIC_ADMIN=true if it is already firewalled`,
    );
  }
  if (
    config.metricsPort !== null &&
    !isLoopbackHost(config.metricsHost) &&
    !config.allowPublicMetrics
  ) {
    throw new ConfigError(
      `METRICS_HOST is ${config.metricsHost}, which other machines can reach, and NODE_ENV is production: bind metrics to 127.0.0.1 (the default), or set ALLOW_PUBLIC_METRICS=true if only your Prometheus can reach that address (a container or pod network)`,
    );
  }
  // The admin token opens every organization: in production it must be random, not typed.
  if (config.adminToken !== null) {
    const bits = Math.floor(estimateEntropyBits(config.adminToken));
    if (bits < MIN_ADMIN_TOKEN_BITS) {
      throw new ConfigError(
        `ADMIN_TOKEN is too easy to guess for NODE_ENV=production: it holds about ${bits} bits of entropy by Stockroom's estimate (its length times log2 of the alphabet of the character classes it uses, less for repeated characters), and at least ${MIN_ADMIN_TOKEN_BITS} are needed. Set a random one, e.g. the output of \`openssl rand -base64 32\` (or \`openssl rand -hex 32\`)`,
      );
    }
  }
}

/** Settings that are allowed but that an operator should hear about once, at start. */
export function configWarnings(config: Config): string[] {
  const warnings: string[] = [];
  if (config.nodeEnv === 'production' && config.corsOrigins === '*') {
    warnings.push(
      'CORS_ORIGINS allows every origin (*, also what an unset CORS_ORIGINS means): any web page may call the API from a browser with a key it holds. Set CORS_ORIGINS to the origins of your own pages, e.g. https://shop.example.com',
    );
  }
  return warnings;
}
