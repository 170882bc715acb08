import { describe } from 'vitest';
import {
  KEYED_ROUTES,
  keyedRouteSecuritySuite,
} from '../packages/server/src/testing/security-suite.js';
import {
  announceSkip,
  postgresUnavailable,
  redisUnavailable,
} from '../packages/server/src/testing/services.js';

/**
 * The security suite of every keyed route on PostgreSQL with Redis-backed rate limits: the
 * route files run it on the everyday tier's SQLite; key checks, views, quotas and request ids
 * must hold on both engines.
 */
const skip = (await postgresUnavailable()) ?? (await redisUnavailable());

describe.skipIf(announceSkip('the security suite on PostgreSQL', skip))(
  'the security suite on PostgreSQL and Redis',
  () => {
    for (const route of Object.values(KEYED_ROUTES)) {
      keyedRouteSecuritySuite({ ...route, engine: 'postgres' });
    }
  },
);
