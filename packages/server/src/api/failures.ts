import type { FastifyRequest } from 'fastify';
import type { Services } from '../context.js';
import { logUnavailable } from '../http/unavailable.js';
import { RateLimiterUnavailableError } from '../keys/rate-limit.js';
import { StoreUnavailableError } from '../store/types.js';
import { ApiError } from './errors.js';

/**
 * The API's own failures as the errors it answers with: an ApiError as is; the database or the
 * rate limiter unavailable as SERVICE_UNAVAILABLE (logged and counted); undefined for anything
 * else. The host's error handler (app.ts) and the MCP tools (../mcp/tool.ts) share it.
 */
export function knownFailure(
  services: Services,
  error: Error,
  request: FastifyRequest,
): ApiError | undefined {
  if (error instanceof ApiError) return error;
  if (error instanceof StoreUnavailableError || error instanceof RateLimiterUnavailableError) {
    logUnavailable(
      request,
      error,
      services.store.availability,
      error instanceof StoreUnavailableError ? 'database unavailable' : 'rate limiter unavailable',
    );
    services.metrics.unavailable(
      error instanceof StoreUnavailableError ? 'database' : 'rate_limiter',
    );
    return new ApiError(
      'SERVICE_UNAVAILABLE',
      'The service is temporarily unavailable. Retry after the number of seconds in Retry-After.',
      { headers: { 'retry-after': '1' } },
    );
  }
  return undefined;
}

/** INTERNAL_ERROR for anything unexpected: no stack, no SQL, the request id to report. */
export function internalError(request: FastifyRequest): ApiError {
  return new ApiError(
    'INTERNAL_ERROR',
    `Something went wrong on our side. It has been logged with request id ${request.id}; retry later or report that id.`,
  );
}
