import type { ErrorCode } from './types.js';

/**
 * Error classes. Every failure the client reports is a `StockroomError`; the subclass says what
 * kind of failure it is, `code` says exactly which. Classification goes by `code` first because
 * the API answers several unrelated conditions with one status (a rate limit is a 401).
 */

/** Codes the client itself produces, for failures that never got a Stockroom error body. */
export type ClientErrorCode =
  | 'CONNECTION_ERROR'
  | 'TIMEOUT'
  | 'INVALID_RESPONSE'
  | 'HTTP_ERROR'
  | 'MISSING_API_KEY'
  | 'MISSING_ADMIN_TOKEN';

export interface StockroomErrorInit {
  message: string;
  code: ErrorCode | ClientErrorCode | (string & {});
  status?: number | null;
  requestId?: string | null;
  docUrl?: string | null;
  param?: string | null;
  headers?: Headers | null;
  cause?: unknown;
}

export class StockroomError extends Error {
  override readonly name: string = 'StockroomError';
  /** HTTP status, or null when no response arrived. */
  readonly status: number | null;
  /** The API's error code (`INVALID_API_KEY`, …) or one of the client's own (`TIMEOUT`, …). */
  readonly code: ErrorCode | ClientErrorCode | (string & {});
  /** The `x-request-id` of the failed response: quote it when reporting a problem. */
  readonly requestId: string | null;
  /** The documentation of this error code. */
  readonly docUrl: string | null;
  /** The query parameter at fault, for invalid requests. */
  readonly param: string | null;
  /** Headers of the failed response, when there was one. */
  readonly headers: Headers | null;

  constructor(init: StockroomErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.code = init.code;
    this.status = init.status ?? null;
    this.requestId = init.requestId ?? null;
    this.docUrl = init.docUrl ?? null;
    this.param = init.param ?? null;
    this.headers = init.headers ?? null;
  }

  /**
   * What `JSON.stringify` (and so most structured loggers) shows: the fields that identify
   * the failure. An Error's `message` is not enumerable and would otherwise be lost; `headers`
   * and `cause` are left out, as a logged object should not carry a whole response.
   */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      message: this.message,
      status: this.status,
      code: this.code,
      requestId: this.requestId,
      docUrl: this.docUrl,
      param: this.param,
    };
  }
}

/** The key is missing, invalid, disabled, expired or out of quota (401). */
export class AuthenticationError extends StockroomError {
  override readonly name: string = 'AuthenticationError';
}

/** The key is valid but may not do this: another organization, a missing permission or feature (403). */
export class PermissionError extends StockroomError {
  override readonly name: string = 'PermissionError';
}

/** The organization, item or route does not exist (404). */
export class NotFoundError extends StockroomError {
  override readonly name: string = 'NotFoundError';
}

/** A parameter is missing, malformed or unknown (400), or the method is not allowed (405). */
export class InvalidRequestError extends StockroomError {
  override readonly name: string = 'InvalidRequestError';
}

/** The key's rate limit is used up for this window (`RATE_LIMITED`, sent with status 401). */
export class RateLimitError extends StockroomError {
  override readonly name: string = 'RateLimitError';
  /** Seconds to wait before the next request, from `Retry-After`; null when not given. */
  readonly retryAfter: number | null;

  constructor(init: StockroomErrorInit & { retryAfter: number | null }) {
    super(init);
    this.retryAfter = init.retryAfter;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), retryAfter: this.retryAfter };
  }
}

/**
 * An incremental sync with `includeDeleted` started from a point older than the period for
 * which the server remembers deleted items (`SYNC_EXPIRED`, 410): deletions since then may be
 * missing. Start over with a full sync (`since: new Date(0)`, without `includeDeleted`) and
 * continue from its `nextSince`. Not retried.
 */
export class SyncExpiredError extends StockroomError {
  override readonly name: string = 'SyncExpiredError';
}

/** The server failed (500) or is temporarily unavailable (503). Retried automatically. */
export class ServerError extends StockroomError {
  override readonly name: string = 'ServerError';
}

/** No response: DNS, refused or reset connection, CORS rejection in a browser. Retried. */
export class ConnectionError extends StockroomError {
  override readonly name: string = 'ConnectionError';
}

/** No response within `timeoutMs`. Retried like other connection failures. */
export class TimeoutError extends ConnectionError {
  override readonly name: string = 'TimeoutError';
}

/**
 * The client was created without something it needs (`MISSING_API_KEY`: no `apiKey` and no
 * `STOCKROOM_API_KEY`; `MISSING_ADMIN_TOKEN`: no admin `token`). Thrown by the constructor,
 * before any request: `status` is null.
 */
export class ConfigurationError extends StockroomError {
  override readonly name: string = 'ConfigurationError';
}

const AUTHENTICATION_CODES = new Set([
  'MISSING_API_KEY',
  'INVALID_API_KEY',
  'CONFLICTING_API_KEYS',
  'KEY_DISABLED',
  'KEY_EXPIRED',
  'KEY_EXHAUSTED',
]);
const PERMISSION_CODES = new Set([
  'ORGANIZATION_FORBIDDEN',
  'INSUFFICIENT_PERMISSIONS',
  'FEATURE_DISABLED',
]);
const NOT_FOUND_CODES = new Set(['ORGANIZATION_NOT_FOUND', 'ITEM_NOT_FOUND', 'ROUTE_NOT_FOUND']);
const INVALID_REQUEST_CODES = new Set([
  'MISSING_PARAMETER',
  'INVALID_PARAMETER',
  'UNKNOWN_PARAMETER',
  'METHOD_NOT_ALLOWED',
]);
const SYNC_EXPIRED_CODES = new Set(['SYNC_EXPIRED']);
const SERVER_CODES = new Set(['INTERNAL_ERROR', 'SERVICE_UNAVAILABLE']);

type ErrorClass = new (init: StockroomErrorInit) => StockroomError;

function classByCode(code: string): ErrorClass | undefined {
  if (AUTHENTICATION_CODES.has(code)) return AuthenticationError;
  if (PERMISSION_CODES.has(code)) return PermissionError;
  if (NOT_FOUND_CODES.has(code)) return NotFoundError;
  if (INVALID_REQUEST_CODES.has(code)) return InvalidRequestError;
  if (SYNC_EXPIRED_CODES.has(code)) return SyncExpiredError;
  if (SERVER_CODES.has(code)) return ServerError;
  return undefined;
}

/** For codes this client does not know yet (a newer server), the status is the best guide. */
function classByStatus(status: number): ErrorClass {
  if (status === 401) return AuthenticationError;
  if (status === 403) return PermissionError;
  if (status === 404) return NotFoundError;
  if (status === 400 || status === 405 || status === 422) return InvalidRequestError;
  if (status >= 500) return ServerError;
  return StockroomError;
}

export interface ErrorResponseParts {
  status: number;
  headers: Headers;
  /** The parsed JSON body, or undefined when the body was not JSON. */
  body: unknown;
  /** Seconds from `Retry-After`, already parsed. */
  retryAfter: number | null;
  /** Added to the message of an answer without a Stockroom error body (wrong-host.ts). */
  hint?: string | null;
}

function str(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/** Builds the error for a non-success response, from its Stockroom envelope when it has one. */
export function errorFromResponse(parts: ErrorResponseParts): StockroomError {
  const { status, headers, retryAfter } = parts;
  const envelope =
    typeof parts.body === 'object' && parts.body !== null
      ? (parts.body as { error?: unknown }).error
      : undefined;
  const fields =
    typeof envelope === 'object' && envelope !== null ? (envelope as Record<string, unknown>) : {};
  const code = str(fields.code);
  const requestId = str(fields.requestId) ?? headers.get('x-request-id');
  const base = {
    status,
    headers,
    requestId,
    docUrl: str(fields.docUrl),
    param: str(fields.param),
  };
  if (code === null) {
    // Not our envelope: a proxy, a load balancer or a server from another product answered.
    const init = {
      ...base,
      code: 'HTTP_ERROR',
      message: `The API answered HTTP ${status} without a Stockroom error body${requestId ? ` (request id ${requestId})` : ''}.${parts.hint ? ` ${parts.hint}` : ''}`,
    };
    if (status === 429) return new RateLimitError({ ...init, retryAfter });
    return new (classByStatus(status))(init);
  }
  const message = str(fields.message) ?? `The API answered HTTP ${status} with ${code}.`;
  if (code === 'RATE_LIMITED') return new RateLimitError({ ...base, code, message, retryAfter });
  const Class = classByCode(code) ?? classByStatus(status);
  return new Class({ ...base, code, message });
}
