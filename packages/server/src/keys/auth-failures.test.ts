import { describe, expect, it } from 'vitest';
import { AuthFailureThrottle } from './auth-failures.js';

describe('AuthFailureThrottle', () => {
  const t0 = Date.UTC(2030, 0, 1, 12, 0, 0);

  it('throttles an address once it reached the limit, until its fixed window ends', () => {
    const throttle = new AuthFailureThrottle(3, 60);
    expect(throttle.idle).toBe(true);
    for (let i = 0; i < 2; i++) throttle.fail('a', t0 + i);
    expect(throttle.retryAfter('a', t0 + 10)).toBe(0);
    throttle.fail('a', t0 + 20);
    expect(throttle.idle).toBe(false);
    // The window is the minute starting at t0: 60 s left at t0, 1 s left just before its end.
    expect(throttle.retryAfter('a', t0 + 30)).toBe(60);
    expect(throttle.retryAfter('a', t0 + 59_500)).toBe(1);
    expect(throttle.retryAfter('b', t0 + 30)).toBe(0);
    // A new window starts afresh, and forgets every address.
    expect(throttle.retryAfter('a', t0 + 60_000)).toBe(0);
    expect(throttle.idle).toBe(true);
  });

  it('keeps at most maxAddresses addresses however many spray it, forgetting the longest quiet', () => {
    const throttle = new AuthFailureThrottle(2, 3600, 1000);
    throttle.fail('persistent', t0);
    for (let i = 0; i < 100_000; i++) {
      throttle.fail(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, t0 + 1);
      // The attacker who keeps failing stays among the most recent, so stays tracked.
      if (i % 500 === 0) throttle.fail('persistent', t0 + 1);
    }
    expect(throttle.size).toBeLessThanOrEqual(1000);
    expect(throttle.retryAfter('persistent', t0 + 2)).toBeGreaterThan(0);
  });
});
