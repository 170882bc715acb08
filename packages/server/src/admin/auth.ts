import { createHash, timingSafeEqual } from 'node:crypto';
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
