import type { Config } from './config.js';
import type { RateLimiter } from './keys/rate-limit.js';
import type { Store } from './store/types.js';

/** How long one dependency check waits: a hung dependency must not hang a probe or a scrape. */
export const DEPENDENCY_CHECK_TIMEOUT_MS = 1000;

export type CheckState = 'ok' | 'down' | 'timeout';

export interface CheckResult {
  state: CheckState;
  /** How long the check took (the timeout when it did not answer). */
  seconds: number;
}

/** `database`, and `redis` when REDIS_URL is set. */
export type DependencyReport = Record<string, CheckResult>;

/** Settles with the check's outcome and duration, or `timeout` once the deadline passes. */
function timed(check: () => Promise<boolean>, ms: number): Promise<CheckResult> {
  const started = process.hrtime.bigint();
  const seconds = () => Number(process.hrtime.bigint() - started) / 1e9;
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ state: 'timeout', seconds: ms / 1000 }), ms);
    let pending: Promise<boolean>;
    try {
      pending = check();
    } catch {
      pending = Promise.resolve(false);
    }
    pending.then(
      (ok) => {
        clearTimeout(timer);
        resolve({ state: ok ? 'ok' : 'down', seconds: seconds() });
      },
      () => {
        clearTimeout(timer);
        resolve({ state: 'down', seconds: seconds() });
      },
    );
  });
}

/**
 * One check of the dependencies a request needs: a database ping, and Redis's health when it
 * is configured. Callers that arrive while a check runs share it, so a burst of probes and a
 * metrics scrape together cost one ping.
 */
export function dependencyChecks(services: {
  config: Pick<Config, 'redisUrl'>;
  store: Pick<Store, 'ping'>;
  rateLimiter: RateLimiter;
}): () => Promise<DependencyReport> {
  let running: Promise<DependencyReport> | null = null;
  return () => {
    running ??= (async () => {
      const database = timed(
        () => services.store.ping().then(() => true),
        DEPENDENCY_CHECK_TIMEOUT_MS,
      );
      const health = services.rateLimiter.health;
      const redis =
        services.config.redisUrl && health
          ? timed(
              () =>
                health
                  .call(services.rateLimiter)
                  .then((report) => Object.values(report).every((check) => check === 'ok')),
              DEPENDENCY_CHECK_TIMEOUT_MS,
            )
          : null;
      const [db, cache] = await Promise.all([database, redis]);
      return { database: db, ...(cache === null ? {} : { redis: cache }) };
    })().finally(() => {
      running = null;
    });
    return running;
  };
}
