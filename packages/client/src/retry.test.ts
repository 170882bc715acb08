import { describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  ConnectionError,
  InvalidRequestError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  ServerError,
  TimeoutError,
} from './errors.js';
import { backoffDelay, DEFAULT_RETRY_POLICY, parseRetryAfter, retryDelay } from './retry.js';

const policy = { initialDelayMs: 100, maxDelayMs: 1000, maxRetryWait: 5000 };
const noJitter = () => 0;
const fullJitter = () => 1;

describe('backoffDelay', () => {
  it('doubles from the initial delay up to the ceiling', () => {
    expect([0, 1, 2, 3, 4, 5].map((n) => backoffDelay(n, policy, noJitter))).toEqual([
      100, 200, 400, 800, 1000, 1000,
    ]);
  });

  it('takes up to a quarter off at random', () => {
    expect(backoffDelay(2, policy, fullJitter)).toBe(300);
    expect(backoffDelay(2, policy, () => 0.5)).toBe(350);
    for (let i = 0; i < 100; i++) {
      const delay = backoffDelay(3, policy);
      expect(delay).toBeGreaterThanOrEqual(600);
      expect(delay).toBeLessThanOrEqual(800);
    }
  });

  it('defaults to 500 ms doubling up to 8 s', () => {
    expect(backoffDelay(0, DEFAULT_RETRY_POLICY, noJitter)).toBe(500);
    expect(backoffDelay(10, DEFAULT_RETRY_POLICY, noJitter)).toBe(8000);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-11-22T10:00:00.000Z');

  it('reads delay-seconds', () => {
    expect(parseRetryAfter('0', now)).toBe(0);
    expect(parseRetryAfter('17', now)).toBe(17);
    expect(parseRetryAfter(' 3 ', now)).toBe(3);
  });

  it('reads an HTTP date as the seconds until it, rounding up', () => {
    expect(parseRetryAfter('Sun, 22 Nov 2026 10:00:30 GMT', now)).toBe(30);
    expect(parseRetryAfter('Sun, 22 Nov 2026 10:00:30 GMT', now + 500)).toBe(30);
    expect(parseRetryAfter('Sun, 22 Nov 2026 09:59:00 GMT', now)).toBe(0);
  });

  it('ignores absent or unreadable values', () => {
    for (const value of [null, '', '-1', '1.5', 'soon', 'Mon, 99 Foo 2026 GMT']) {
      expect(parseRetryAfter(value, now)).toBeNull();
    }
  });
});

describe('retryDelay', () => {
  const base = { message: 'x', status: 401 };

  function rateLimited(retryAfter: number | null) {
    return new RateLimitError({ ...base, code: 'RATE_LIMITED', retryAfter });
  }

  it('retries connection failures and timeouts with backoff', () => {
    const refused = new ConnectionError({ code: 'CONNECTION_ERROR', message: 'x' });
    const timeout = new TimeoutError({ code: 'TIMEOUT', message: 'x' });
    expect(retryDelay(refused, 0, policy, noJitter)).toBe(100);
    expect(retryDelay(timeout, 2, policy, noJitter)).toBe(400);
  });

  it('retries 5xx with backoff, or after Retry-After when the server gives one', () => {
    const internal = new ServerError({ message: 'x', code: 'INTERNAL_ERROR', status: 500 });
    expect(retryDelay(internal, 1, policy, noJitter)).toBe(200);
    const unavailable = new ServerError({
      message: 'x',
      code: 'SERVICE_UNAVAILABLE',
      status: 503,
      headers: new Headers({ 'retry-after': '2' }),
    });
    expect(retryDelay(unavailable, 0, policy, noJitter)).toBe(2000);
  });

  it('waits out RATE_LIMITED for exactly Retry-After, up to the cap', () => {
    expect(retryDelay(rateLimited(3), 0, policy, noJitter)).toBe(3000);
    expect(retryDelay(rateLimited(0), 4, policy, noJitter)).toBe(0);
    expect(retryDelay(rateLimited(5), 0, policy, noJitter)).toBe(5000);
    // Waiting less than asked would only be refused again: give the error back instead.
    expect(retryDelay(rateLimited(6), 0, policy, noJitter)).toBeNull();
    expect(retryDelay(rateLimited(null), 1, policy, noJitter)).toBe(200);
  });

  it('gives back at once any failure whose wait would exceed maxRetryWait, backoff included', () => {
    const tight = { ...policy, maxRetryWait: 250 };
    const refused = new ConnectionError({ code: 'CONNECTION_ERROR', message: 'x' });
    expect(retryDelay(refused, 1, tight, noJitter)).toBe(200);
    expect(retryDelay(refused, 2, tight, noJitter)).toBeNull();
    expect(retryDelay(rateLimited(1), 0, { ...policy, maxRetryWait: 999 }, noJitter)).toBeNull();
    expect(retryDelay(rateLimited(1), 0, { ...policy, maxRetryWait: 1000 }, noJitter)).toBe(1000);
    expect(retryDelay(rateLimited(0), 0, { ...policy, maxRetryWait: 0 }, noJitter)).toBe(0);
  });

  it('waits at most 10 s by default', () => {
    expect(DEFAULT_RETRY_POLICY.maxRetryWait).toBe(10_000);
    expect(retryDelay(rateLimited(10), 0, DEFAULT_RETRY_POLICY, noJitter)).toBe(10_000);
    expect(retryDelay(rateLimited(11), 0, DEFAULT_RETRY_POLICY, noJitter)).toBeNull();
  });

  it('never retries other client errors, KEY_EXHAUSTED above all', () => {
    const errors = [
      new AuthenticationError({ ...base, code: 'KEY_EXHAUSTED' }),
      new AuthenticationError({ ...base, code: 'INVALID_API_KEY' }),
      new PermissionError({ message: 'x', code: 'ORGANIZATION_FORBIDDEN', status: 403 }),
      new NotFoundError({ message: 'x', code: 'ITEM_NOT_FOUND', status: 404 }),
      new InvalidRequestError({ message: 'x', code: 'INVALID_PARAMETER', status: 400 }),
    ];
    for (const error of errors) expect(retryDelay(error, 0, policy, noJitter)).toBeNull();
  });
});
