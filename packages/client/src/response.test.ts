import { describe, expect, it } from 'vitest';
import { parseRateLimit, responseInfo } from './response.js';

describe('response metadata', () => {
  it('reads the rate-limit headers', () => {
    const headers = new Headers({
      'x-ratelimit-limit': '600',
      'x-ratelimit-remaining': '599',
      'x-ratelimit-reset': '1795000020',
    });
    expect(parseRateLimit(headers)).toEqual({ limit: 600, remaining: 599, reset: 1795000020 });
  });

  it('has no rate limit unless all three headers are readable', () => {
    expect(parseRateLimit(new Headers())).toBeNull();
    expect(
      parseRateLimit(
        new Headers({
          'x-ratelimit-limit': '10',
          'x-ratelimit-remaining': 'x',
          'x-ratelimit-reset': '1',
        }),
      ),
    ).toBeNull();
  });

  it('reads the etag, and marks a 304 as not modified', () => {
    expect(responseInfo(200, new Headers({ etag: '"abc-br"' }), 1)).toMatchObject({
      etag: '"abc-br"',
      notModified: false,
    });
    expect(responseInfo(304, new Headers({ etag: 'W/"abc"' }), 1)).toMatchObject({
      etag: 'W/"abc"',
      notModified: true,
    });
    expect(responseInfo(200, new Headers(), 1).etag).toBeNull();
  });

  it('collects request id, deprecation and attempts', () => {
    const info = responseInfo(200, new Headers({ 'x-request-id': 'abc', deprecation: 'true' }), 3);
    expect(info).toMatchObject({ status: 200, requestId: 'abc', deprecated: true, attempts: 3 });
    expect(responseInfo(200, new Headers(), 1)).toMatchObject({
      requestId: null,
      deprecated: false,
    });
  });
});
