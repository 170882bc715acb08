import type { FastifyRequest } from 'fastify';
import { type StoreAvailability, StoreUnavailableError } from '../store/types.js';

/**
 * Logs a request that failed because the database (or the rate limiter) is unavailable. While
 * an outage is known, it has its own two lines (went away, is back, with a count of the
 * requests that failed meanwhile): such a request is counted and logged at debug only.
 */
export function logUnavailable(
  request: FastifyRequest,
  error: Error,
  availability: StoreAvailability | undefined,
  message: string,
): void {
  if (error instanceof StoreUnavailableError && availability?.down) {
    availability.requestFailed();
    request.log.debug({ err: error }, 'database unavailable');
  } else request.log.warn({ err: error }, message);
}
