/** The closed set of API error codes and the status each one answers with (DECISIONS.md). */
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

export interface ApiErrorOptions {
  param?: string;
  headers?: Record<string, string>;
}

export class ApiError extends Error {
  override name = 'ApiError';
  readonly code: ErrorCode;
  readonly status: number;
  readonly param: string | undefined;
  readonly headers: Record<string, string>;
  /** Fastify reads (and its validation step writes) this to pick the reply status. */
  statusCode: number;

  constructor(code: ErrorCode, message: string, options: ApiErrorOptions = {}) {
    super(message);
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.param = options.param;
    this.headers = options.headers ?? {};
    this.statusCode = this.status;
  }
}

export interface ErrorBody {
  error: {
    code: ErrorCode;
    message: string;
    status: number;
    requestId: string;
    param?: string;
    docUrl: string;
  };
}

export function errorDocUrl(publicDocsUrl: string, code: ErrorCode): string {
  return `${publicDocsUrl}/en/docs/errors#${code.toLowerCase()}`;
}

export function errorBody(error: ApiError, requestId: string, publicDocsUrl: string): ErrorBody {
  return {
    error: {
      code: error.code,
      message: error.message,
      status: error.status,
      requestId,
      ...(error.param === undefined ? {} : { param: error.param }),
      docUrl: errorDocUrl(publicDocsUrl, error.code),
    },
  };
}
