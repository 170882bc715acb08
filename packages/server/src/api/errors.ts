import {
  CodedError,
  type CodedErrorOptions,
  type ErrorEnvelope,
  errorEnvelope,
} from '../http/coded-error.js';

/** The closed set of API error codes and the status each one answers with (docs/architecture.md#errors). */
export const ERROR_STATUS = {
  MISSING_PARAMETER: 400,
  INVALID_PARAMETER: 400,
  UNKNOWN_PARAMETER: 400,
  MISSING_API_KEY: 401,
  INVALID_API_KEY: 401,
  CONFLICTING_API_KEYS: 401,
  KEY_DISABLED: 401,
  KEY_EXPIRED: 401,
  KEY_EXHAUSTED: 401,
  RATE_LIMITED: 401,
  ORGANIZATION_FORBIDDEN: 403,
  INSUFFICIENT_PERMISSIONS: 403,
  FEATURE_DISABLED: 403,
  ORGANIZATION_NOT_FOUND: 404,
  ITEM_NOT_FOUND: 404,
  ROUTE_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  SYNC_EXPIRED: 410,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

export type ApiErrorOptions = CodedErrorOptions;

export class ApiError extends CodedError<ErrorCode> {
  override name = 'ApiError';

  constructor(code: ErrorCode, message: string, options: ApiErrorOptions = {}) {
    super(ERROR_STATUS, code, message, options);
  }
}

export type ErrorBody = ErrorEnvelope<ErrorCode>;

export function errorDocUrl(publicDocsUrl: string, code: ErrorCode): string {
  return `${publicDocsUrl}/en/docs/errors#${code.toLowerCase()}`;
}

export function errorBody(error: ApiError, requestId: string, publicDocsUrl: string): ErrorBody {
  return errorEnvelope(error, requestId, errorDocUrl(publicDocsUrl, error.code));
}
