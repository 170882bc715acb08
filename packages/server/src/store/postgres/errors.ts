import { StoreConflictError, StoreUnavailableError } from '../types.js';

/**
 * SQLSTATE classes and codes that mean "the database cannot serve this now": connection
 * exceptions (08), insufficient resources (53), operator intervention (57: statement_timeout
 * is 57014, shutdown 57P01-57P03), lock_not_available (55P03), and the transient
 * serialization failures (40001, 40P01). The API answers them with 503 and Retry-After.
 */
const UNAVAILABLE_CLASSES = ['08', '53', '57'];
const UNAVAILABLE_CODES = new Set(['55P03', '40001', '40P01', '3D000', '28000', '28P01']);
/** Socket-level failures from Node, before PostgreSQL could answer. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'EAI_AGAIN',
]);
/** node-postgres reports these without a code. */
const POOL_MESSAGES =
  /timeout exceeded when trying to connect|Query read timeout|Connection terminated|connection error and is not queryable|Cannot use a pool after calling end|Client was closed and is not queryable/i;

export function isUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code) || UNAVAILABLE_CODES.has(code)) return true;
    if (/^[0-9A-Z]{5}$/.test(code) && UNAVAILABLE_CLASSES.includes(code.slice(0, 2))) return true;
  }
  return error instanceof Error && POOL_MESSAGES.test(error.message);
}

/** Server-side codes meaning the connection is gone or refused: shutdown, starting up. */
const LOSS_CODES = new Set(['57P01', '57P02', '57P03']);
/** node-postgres' messages for a connection that broke (no code). */
const LOSS_MESSAGES =
  /Connection terminated|connection error and is not queryable|Client was closed and is not queryable/i;

/**
 * A short reason when `error` means the database cannot be reached at all (refused, reset,
 * shut down, starting up, the connection broke), null otherwise: a statement past its deadline,
 * a lock not granted or a serialization failure are not an outage. Looks through a
 * StoreUnavailableError at the driver error it wraps (`cause`).
 */
export function connectionLossCode(error: unknown): string | null {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current && typeof current === 'object' && !seen.has(current)) {
    seen.add(current);
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') {
      if (NETWORK_CODES.has(code) || LOSS_CODES.has(code) || code.startsWith('08')) return code;
    }
    const message = (current as { message?: unknown }).message;
    if (typeof message === 'string' && LOSS_MESSAGES.test(message)) return 'connection lost';
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}

/** Turns a driver error into the store's error types; anything else passes through unchanged. */
export function toStoreError(error: unknown): unknown {
  if (error instanceof StoreUnavailableError || error instanceof StoreConflictError) return error;
  if (isUnavailable(error)) {
    const code = (error as { code?: string }).code;
    if (code === '57014' || (error as Error | null)?.message === 'Query read timeout') {
      return new StoreUnavailableError('the database did not answer within its deadline', {
        cause: error,
      });
    }
    return new StoreUnavailableError(`the database is unavailable: ${(error as Error).message}`, {
      cause: error,
    });
  }
  return error;
}

export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const e = error as { code?: string; constraint?: string } | null;
  return e?.code === '23505' && (constraint === undefined || e.constraint === constraint);
}
