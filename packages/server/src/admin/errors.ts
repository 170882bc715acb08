import { CodedError, type CodedErrorOptions, errorEnvelope } from '../http/coded-error.js';

/**
 * The closed set of admin API error codes and the status each answers with. The envelope is
 * the public API's (api/errors.ts); `docUrl` points at the code's section of the admin API page.
 */
export const ADMIN_ERROR_STATUS = {
  /** The body, a path segment or a query parameter is malformed; `param` names it. */
  INVALID_REQUEST: 400,
  /** No `Authorization: Bearer <ADMIN_TOKEN>`, a malformed one, or the wrong token. */
  ADMIN_UNAUTHORIZED: 401,
  /** Too many wrong tokens from this client address (AUTH_FAILURE_LIMIT); `Retry-After`. */
  ADMIN_RATE_LIMITED: 429,
  ORGANIZATION_NOT_FOUND: 404,
  KEY_NOT_FOUND: 404,
  /** The organization has no location with that code. */
  LOCATION_NOT_FOUND: 404,
  ROUTE_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  /** Another organization has the slug. */
  SLUG_TAKEN: 409,
  /** The key is revoked: it cannot be disabled, enabled or rotated. */
  KEY_REVOKED: 409,
  /** Something changed meanwhile (e.g. the organization was deleted during the request). */
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  /** A user key was asked for a user who does not exist. */
  USER_NOT_FOUND: 422,
  /** A user key was asked for a user who is not a member of the organization. */
  NOT_A_MEMBER: 422,
  /** All-or-nothing bulk upsert with rejected rows: nothing was written; `result` lists them. */
  ITEMS_REJECTED: 422,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type AdminErrorCode = keyof typeof ADMIN_ERROR_STATUS;
export const ADMIN_ERROR_CODES = Object.keys(ADMIN_ERROR_STATUS) as AdminErrorCode[];

/** The admin API's realm: a 401 here is about the admin token, never an API key. */
export const ADMIN_WWW_AUTHENTICATE = 'Bearer realm="stockroom-admin"';

export interface AdminErrorOptions extends CodedErrorOptions {
  /** Top-level members of the answer besides `error` (the bulk upsert's `result`). */
  extra?: Record<string, unknown>;
}

export class AdminError extends CodedError<AdminErrorCode> {
  override name = 'AdminError';
  readonly extra: Record<string, unknown>;

  constructor(code: AdminErrorCode, message: string, options: AdminErrorOptions = {}) {
    super(ADMIN_ERROR_STATUS, code, message, options);
    this.extra = options.extra ?? {};
  }
}

/** The admin API page holds one section per code, headed by the code (`#admin_unauthorized`). */
export function adminErrorDocUrl(publicDocsUrl: string, code: AdminErrorCode): string {
  return `${publicDocsUrl}/en/docs/admin-api#${code.toLowerCase()}`;
}

export function adminErrorBody(
  error: AdminError,
  requestId: string,
  publicDocsUrl: string,
): Record<string, unknown> {
  return {
    ...errorEnvelope(error, requestId, adminErrorDocUrl(publicDocsUrl, error.code)),
    ...error.extra,
  };
}

export function invalid(param: string, message: string): AdminError {
  return new AdminError('INVALID_REQUEST', message, { param });
}
