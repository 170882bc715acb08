import { defineConfig } from 'vitest/config';
import {
  postgresUnavailable,
  redisUnavailable,
  servicesRequired,
  TEST_REDIS_URL,
} from './packages/server/src/testing/services.js';

/**
 * Two projects, one `npm test`:
 * - `sqlite` runs every test file; the API suite on SQLite, and the cross-engine suites (store
 *   contract, rate limiters, scale-out, db copy) on whichever engines are reachable.
 * - `postgres` runs the API, admin API and webhook suites again on PostgreSQL (a schema per server),
 *   with Redis rate limits when Redis is reachable. Without PostgreSQL it is left out, and said
 *   so here.
 * Under CI=true (`.ci/run`) a missing PostgreSQL or Redis fails the run instead.
 */
export default defineConfig(async () => {
  const [postgres, redis] = await Promise.all([postgresUnavailable(), redisUnavailable()]);
  if (servicesRequired() && (postgres || redis)) {
    throw new Error(
      `CI=true, and the legs that need PostgreSQL and Redis must run: ${[postgres, redis].filter(Boolean).join('; ')}`,
    );
  }
  // The config is evaluated more than once per run: say it once.
  const announced = globalThis as { stockroomLegsAnnounced?: boolean };
  if (!announced.stockroomLegsAnnounced) {
    announced.stockroomLegsAnnounced = true;
    if (postgres) console.warn(`[skipped] the API suite on PostgreSQL: ${postgres}`);
    else if (redis) console.warn(`[note] the API suite on PostgreSQL runs without Redis: ${redis}`);
  }
  return {
    test: {
      // `*.e2e.test.ts` files form the e2e tier (vitest.e2e.config.ts, `npm run test:e2e`).
      exclude: ['**/node_modules/**', '**/dist/**', '**/*.e2e.test.ts'],
      testTimeout: 30_000,
      hookTimeout: 60_000,
      // Two cores: files run in parallel processes, each with its own server and database.
      pool: 'forks',
      projects: [
        {
          extends: true,
          test: {
            name: 'sqlite',
            include: [
              'packages/*/src/**/*.test.ts',
              'packages/*/test/**/*.test.ts',
              'test/**/*.test.ts',
            ],
            env: { STOCKROOM_TEST_ENGINE: 'sqlite' },
          },
        },
        ...(postgres
          ? []
          : [
              {
                extends: true as const,
                test: {
                  name: 'postgres',
                  include: [
                    'packages/server/src/api/**/*.test.ts',
                    'packages/server/src/admin/**/*.test.ts',
                    'packages/server/src/webhooks/**/*.test.ts',
                  ],
                  env: {
                    STOCKROOM_TEST_ENGINE: 'postgres',
                    ...(redis ? {} : { STOCKROOM_TEST_REDIS_URL: TEST_REDIS_URL }),
                  },
                },
              },
            ]),
      ],
    },
  };
});
