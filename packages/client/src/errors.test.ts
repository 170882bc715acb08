import { describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  ConnectionError,
  errorFromResponse,
  InvalidRequestError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  ServerError,
  StockroomError,
  SyncExpiredError,
} from './errors.js';
import type { ErrorCode } from './types.js';

type ErrorClass = abstract new (...args: never[]) => StockroomError;

/**
 * Every code of the server's OpenAPI document and the class it maps to. Typed as a full
 * Record, so a code added to the server fails type checking here until it is classified.
 */
const EXPECTED: Record<ErrorCode, [number, ErrorClass]> = {
  MISSING_PARAMETER: [400, InvalidRequestError],
  INVALID_PARAMETER: [400, InvalidRequestError],
  UNKNOWN_PARAMETER: [400, InvalidRequestError],
  MISSING_API_KEY: [401, AuthenticationError],
  INVALID_API_KEY: [401, AuthenticationError],
  CONFLICTING_API_KEYS: [401, AuthenticationError],
  KEY_DISABLED: [401, AuthenticationError],
  KEY_EXPIRED: [401, AuthenticationError],
  KEY_EXHAUSTED: [401, AuthenticationError],
  RATE_LIMITED: [401, RateLimitError],
  ORGANIZATION_FORBIDDEN: [403, PermissionError],
  INSUFFICIENT_PERMISSIONS: [403, PermissionError],
  FEATURE_DISABLED: [403, PermissionError],
  ORGANIZATION_NOT_FOUND: [404, NotFoundError],
  ITEM_NOT_FOUND: [404, NotFoundError],
  ROUTE_NOT_FOUND: [404, NotFoundError],
  METHOD_NOT_ALLOWED: [405, InvalidRequestError],
  SYNC_EXPIRED: [410, SyncExpiredError],
  INTERNAL_ERROR: [500, ServerError],
  SERVICE_UNAVAILABLE: [503, ServerError],
};

function envelope(code: string, status: number, extra: Record<string, unknown> = {}) {
  return {
    error: {
      code,
      message: `${code} message`,
      status,
      requestId: 'req-1',
      docUrl: `https://docs.example/en/docs/errors#${code.toLowerCase()}`,
      ...extra,
    },
  };
}

describe('errorFromResponse', () => {
  it.each(Object.entries(EXPECTED))('classifies %s', (code, [status, Class]) => {
    const error = errorFromResponse({
      status,
      headers: new Headers(),
      body: envelope(code, status),
      retryAfter: null,
    });
    expect(error).toBeInstanceOf(Class);
    expect(error).toBeInstanceOf(StockroomError);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      code,
      status,
      message: `${code} message`,
      requestId: 'req-1',
      docUrl: `https://docs.example/en/docs/errors#${code.toLowerCase()}`,
    });
    expect(error.name).toBe(Class.name);
  });

  it('reads the code before the status: RATE_LIMITED arrives as a 401', () => {
    const error = errorFromResponse({
      status: 401,
      headers: new Headers({ 'retry-after': '12' }),
      body: envelope('RATE_LIMITED', 401),
      retryAfter: 12,
    });
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).not.toBeInstanceOf(AuthenticationError);
    expect((error as RateLimitError).retryAfter).toBe(12);
  });

  it('keeps param and the response headers', () => {
    const headers = new Headers({ 'x-request-id': 'req-1' });
    const error = errorFromResponse({
      status: 400,
      headers,
      body: envelope('INVALID_PARAMETER', 400, { param: 'limit' }),
      retryAfter: null,
    });
    expect(error.param).toBe('limit');
    expect(error.headers).toBe(headers);
  });

  it('gives SyncExpiredError only to the SYNC_EXPIRED code, not to any 410', () => {
    const expired = errorFromResponse({
      status: 410,
      headers: new Headers(),
      body: envelope('SYNC_EXPIRED', 410, { param: 'updatedSince' }),
      retryAfter: null,
    });
    expect(expired).toBeInstanceOf(SyncExpiredError);
    expect(expired).toMatchObject({ name: 'SyncExpiredError', param: 'updatedSince' });
    // A proxy's 410 Gone says nothing about sync points.
    const gone = errorFromResponse({
      status: 410,
      headers: new Headers(),
      body: undefined,
      retryAfter: null,
    });
    expect(gone).not.toBeInstanceOf(SyncExpiredError);
    expect(gone).toMatchObject({ name: 'StockroomError', code: 'HTTP_ERROR', status: 410 });
  });

  it('falls back on the status for codes newer than this client', () => {
    const cases: Array<[number, ErrorClass]> = [
      [400, InvalidRequestError],
      [401, AuthenticationError],
      [403, PermissionError],
      [404, NotFoundError],
      [500, ServerError],
      [418, StockroomError],
    ];
    for (const [status, Class] of cases) {
      const error = errorFromResponse({
        status,
        headers: new Headers(),
        body: envelope('SOMETHING_NEW', status),
        retryAfter: null,
      });
      expect(error).toBeInstanceOf(Class);
      expect(error.code).toBe('SOMETHING_NEW');
    }
  });

  it('describes answers without an envelope (a proxy page) by their status', () => {
    const headers = new Headers({ 'x-request-id': 'edge-7' });
    const bad = errorFromResponse({ status: 502, headers, body: undefined, retryAfter: null });
    expect(bad).toBeInstanceOf(ServerError);
    expect(bad).toMatchObject({ code: 'HTTP_ERROR', status: 502, requestId: 'edge-7' });
    expect(bad.message).toContain('502');

    const throttled = errorFromResponse({
      status: 429,
      headers: new Headers(),
      body: { message: 'slow down' },
      retryAfter: 4,
    });
    expect(throttled).toBeInstanceOf(RateLimitError);
    expect((throttled as RateLimitError).retryAfter).toBe(4);
  });
});

describe('toJSON', () => {
  const headers = new Headers({ 'x-request-id': 'req-1', 'retry-after': '7' });

  it('keeps what identifies the failure, message included, and drops headers and cause', () => {
    const error = new NotFoundError({
      code: 'ITEM_NOT_FOUND',
      message: 'No item 0000 in this organization.',
      status: 404,
      requestId: 'req-1',
      docUrl: 'http://docs.test/en/docs/errors#item_not_found',
      param: 'itemId',
      headers,
      cause: new Error('underlying'),
    });
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      name: 'NotFoundError',
      message: 'No item 0000 in this organization.',
      status: 404,
      code: 'ITEM_NOT_FOUND',
      requestId: 'req-1',
      docUrl: 'http://docs.test/en/docs/errors#item_not_found',
      param: 'itemId',
    });
  });

  it('adds retryAfter for rate limits', () => {
    const error = errorFromResponse({
      status: 401,
      headers,
      body: { error: { code: 'RATE_LIMITED', message: 'Slow down.', requestId: 'req-1' } },
      retryAfter: 7,
    });
    expect(JSON.parse(JSON.stringify({ error }))).toEqual({
      error: {
        name: 'RateLimitError',
        message: 'Slow down.',
        status: 401,
        code: 'RATE_LIMITED',
        requestId: 'req-1',
        docUrl: null,
        param: null,
        retryAfter: 7,
      },
    });
  });

  it('gives nulls where no response arrived', () => {
    const error = new ConnectionError({ code: 'CONNECTION_ERROR', message: 'refused' });
    expect(error.toJSON()).toEqual({
      name: 'ConnectionError',
      message: 'refused',
      status: null,
      code: 'CONNECTION_ERROR',
      requestId: null,
      docUrl: null,
      param: null,
    });
  });
});
