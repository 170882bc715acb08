import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { postgresUnavailable, TEST_DATABASE_URL } from './postgres.js';

/**
 * The external services of the test suite. Each leg that needs one checks it once and, when
 * it cannot be reached, is skipped with the reason printed, so `npm test` still runs every
 * other leg on a machine without them. Under CI=true such a leg fails instead (`.ci/run`
 * starts both services and sets CI=true).
 */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';

export { postgresUnavailable, TEST_DATABASE_URL };

let redisAvailability: Promise<string | null> | undefined;

/** Why Redis cannot be used (null when it can); checked once per process. */
export function redisUnavailable(): Promise<string | null> {
  redisAvailability ??= (async () => {
    const client = new Redis(TEST_REDIS_URL, {
      lazyConnect: true,
      connectTimeout: 2000,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    client.on('error', () => {});
    try {
      await client.connect();
      await client.ping();
      return null;
    } catch (error) {
      return `Redis at ${TEST_REDIS_URL} is unreachable (${(error as Error).message}); set TEST_REDIS_URL or start it`;
    } finally {
      client.disconnect();
    }
  })();
  return redisAvailability;
}

/**
 * Under CI (`CI=true`, set by `.ci/run`) the legs that need PostgreSQL or Redis must run: a
 * leg skipped there would hide a regression behind a green build.
 */
export function servicesRequired(env: Record<string, string | undefined> = process.env): boolean {
  return env.CI === 'true' || env.CI === '1';
}

/**
 * Whether a leg is skipped: prints why, once, where `npm test` shows it. Under CI the leg
 * fails instead (the test file does not load, with the reason).
 */
export function announceSkip(
  leg: string,
  reason: string | null,
  env: Record<string, string | undefined> = process.env,
): boolean {
  if (reason === null) return false;
  if (servicesRequired(env)) {
    throw new Error(
      `${leg} cannot run: ${reason} (CI=true: the legs that need PostgreSQL or Redis fail instead of being skipped)`,
    );
  }
  console.warn(`[skipped] ${leg}: ${reason}`);
  return true;
}

/**
 * A REDIS_PREFIX of its own for one test run (or server), so tests never write under the
 * production prefix of a Redis that others share; `dropRedisPrefix` removes its keys after.
 */
export function testRedisPrefix(): string {
  return `stockroom-test:${process.pid}-${randomBytes(6).toString('hex')}:`;
}

/** Deletes the keys under `prefix` (SCAN + UNLINK on that prefix only, never a flush). */
export async function dropRedisPrefix(url: string, prefix: string): Promise<number> {
  if (!/^stockroom-test:[\w-]+:$/.test(prefix)) {
    throw new Error(`refusing to drop keys under "${prefix}": not a test prefix`);
  }
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0 });
  client.on('error', () => {});
  let dropped = 0;
  try {
    await client.connect();
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) dropped += await client.unlink(...keys);
    } while (cursor !== '0');
    return dropped;
  } finally {
    client.disconnect();
  }
}
