import { createHash, timingSafeEqual } from 'node:crypto';
import type { AuthFailureThrottle } from '../keys/auth-failures.js';
import { AdminError } from './errors.js';

/** `Bearer <token>`: the scheme in any case, one or more spaces, a token without spaces. */
const BEARER = /^bearer +(\S+) *$/i;

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/**
 * Checks the `Authorization` header of an admin request against ADMIN_TOKEN. Both sides are
 * hashed to 32 bytes and compared with timingSafeEqual: the time taken depends neither on how
 * much of the token was right nor on its length. Throws ADMIN_UNAUTHORIZED; the token is
 * never quoted back, nor is what was sent.
 */
export function adminTokenCheck(token: string): (authorization: string | undefined) => void {
  const expected = digest(token);
  return (authorization) => {
    if (authorization === undefined || authorization === '') {
      throw new AdminError(
        'ADMIN_UNAUTHORIZED',
        'The admin API needs the admin token: send it as `Authorization: Bearer <ADMIN_TOKEN>`.',
      );
    }
    const match = BEARER.exec(authorization);
    if (!match) {
      throw new AdminError(
        'ADMIN_UNAUTHORIZED',
        'The Authorization header must be `Bearer <ADMIN_TOKEN>` (the Bearer scheme, a space, then the token).',
      );
    }
    if (!timingSafeEqual(digest(match[1] as string), expected)) {
      throw new AdminError(
        'ADMIN_UNAUTHORIZED',
        'The admin token is not valid: send the ADMIN_TOKEN this server was started with.',
      );
    }
  };
}

/**
 * The admin token check of every request, throttled per client address like invalid API keys
 * (AUTH_FAILURE_LIMIT, the same rule and setting, counted apart): an address that sent the
 * wrong token, or a malformed Authorization header, `max` times in the current window is
 * refused every request until the window ends, before its token is looked at, so that
 * guessing cannot go on however right a guess is. No header at all is not a guess and is
 * not counted. `throttle` null: no throttle (AUTH_FAILURE_LIMIT=none).
 */
export function adminGate(
  token: string,
  throttle: AuthFailureThrottle | null,
): (authorization: string | undefined, clientAddress: () => string) => AdminError | undefined {
  const check = adminTokenCheck(token);
  return (authorization, clientAddress) => {
    const sent = authorization !== undefined && authorization !== '';
    if (sent && throttle !== null && !throttle.idle) {
      const retryAfter = throttle.retryAfter(clientAddress());
      if (retryAfter > 0) {
        return new AdminError(
          'ADMIN_RATE_LIMITED',
          `Too many requests with a wrong admin token came from this address (${throttle.max} per ${throttle.windowSeconds} s): every request from it is refused for the next ${retryAfter} s. Check the ADMIN_TOKEN your client sends, then retry after Retry-After.`,
          { headers: { 'retry-after': String(retryAfter) } },
        );
      }
    }
    try {
      check(authorization);
      return undefined;
    } catch (refused) {
      if (sent) throttle?.fail(clientAddress());
      return refused as AdminError;
    }
  };
}
