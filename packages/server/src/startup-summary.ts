import type { Config } from './config.js';
import { isPostgresUrl } from './config.js';
import { VERSION } from './version.js';

/** Where the hosts of a started server answer (null: that host is off). */
export interface StartedUrls {
  apiUrl: string;
  docsUrl: string;
  metricsUrl: string | null;
  adminUrl?: string | null;
}

/** A connection URL with its password (and any secret query parameter) replaced by ***. */
export function maskUrl(raw: string): string {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    return raw;
  }
  if (parsed.password) parsed.password = '***';
  for (const name of [...parsed.searchParams.keys()]) {
    if (/pass|secret|token|key/i.test(name)) parsed.searchParams.set(name, '***');
  }
  return parsed.toString();
}

/**
 * The one log line that says what runs: version, engine, where each host listens and which
 * optional parts are on. No secret appears: database and Redis URLs are masked, the admin
 * token is only "on".
 */
export function startupSummary(
  config: Config,
  urls: StartedUrls,
  workers: number,
): Record<string, unknown> {
  const postgres = isPostgresUrl(config.databaseUrl);
  return {
    version: VERSION,
    node: process.versions.node,
    nodeEnv: config.nodeEnv,
    engine: postgres ? 'postgres' : 'sqlite',
    database: postgres ? maskUrl(config.databaseUrl) : config.databaseUrl,
    workers,
    api: urls.apiUrl,
    docs: urls.docsUrl,
    admin: urls.adminUrl ?? 'off',
    metrics: urls.metricsUrl ?? 'off',
    redis: config.redisUrl === undefined ? 'off' : maskUrl(config.redisUrl),
    webhooks: config.webhooksEnabled ? 'on' : 'off',
    tracing: config.tracing ? 'on' : 'off',
    trustProxy: config.trustProxy,
    corsOrigins: config.corsOrigins,
  };
}
