import { connectionLossCode } from './postgres/errors.js';
import type { Store } from './types.js';

/** How often a process started while PostgreSQL is unreachable tries again. */
export const START_RETRY_MS = 2000;

export interface StartRetryOptions {
  log?: {
    warn(object: Record<string, unknown>, message: string): void;
  } | null;
  /** Delay between attempts (START_RETRY_MS). */
  retryMs?: number;
  /** Stops waiting: the last error is thrown. */
  signal?: AbortSignal;
  /** Called after each failed attempt (tests count them). */
  onAttempt?: (attempt: number, code: string) => void;
}

/**
 * Migrates the database at start. On PostgreSQL, while the database cannot be reached
 * (refused, reset, shutting down, starting up), the process waits and tries again every
 * `retryMs` instead of exiting: one line when it starts waiting ("database unreachable at
 * host:port (ECONNREFUSED), retrying every 2 s"), another if the reason changes, and one when it
 * is reachable. Any other failure (a newer schema, a failed migration) is thrown at once, as on
 * SQLite, where nothing is retried.
 */
export async function migrateWhenReachable(
  store: Store,
  options: StartRetryOptions = {},
): Promise<string[]> {
  const retryMs = options.retryMs ?? START_RETRY_MS;
  const target = store.availability?.target ?? 'the database';
  let lastCode: string | null = null;
  let waitedSince = 0;
  for (let attempt = 1; ; attempt++) {
    try {
      const applied = await store.migrate();
      if (lastCode !== null) {
        options.log?.warn(
          { database: target, waitedMs: Date.now() - waitedSince, attempts: attempt },
          `database reachable at ${target} after ${attempt - 1} failed attempt(s); starting`,
        );
      }
      return applied;
    } catch (error) {
      const code = store.engine === 'postgres' ? connectionLossCode(error) : null;
      if (code === null || options.signal?.aborted) throw error;
      if (code !== lastCode) {
        if (lastCode === null) waitedSince = Date.now();
        options.log?.warn(
          { database: target, code, retryMs },
          `database unreachable at ${target} (${code}), retrying every ${formatSeconds(retryMs)}`,
        );
        lastCode = code;
      }
      options.onAttempt?.(attempt, code);
      await delay(retryMs, options.signal);
      if (options.signal?.aborted) throw error;
    }
  }
}

function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}

function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
