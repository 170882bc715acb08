import { defineConfig } from 'vitest/config';
import {
  postgresUnavailable,
  redisUnavailable,
  servicesRequired,
} from './packages/server/src/testing/services.js';

/**
 * `npm test`, the everyday tier: every test file but the e2e tier's. The HTTP suites run on
 * SQLite through `inject` (one set of services per file); engine parity is the store contract
 * suite's job, which runs with the other cross-engine suites (rate limiters, db copy) on each
 * engine that is reachable, PostgreSQL with Redis included. A few HTTP suites test
 * PostgreSQL-only behaviour and ask for that engine themselves.
 * Without PostgreSQL or Redis those legs are left out, and said so here; under CI=true
 * (`.ci/run`) a missing PostgreSQL or Redis fails the run instead.
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
    if (postgres) console.warn(`[skipped] the suites on PostgreSQL: ${postgres}`);
    else if (redis) console.warn(`[skipped] the suites on Redis: ${redis}`);
  }
  return {
    test: {
      // `*.e2e.test.ts` files form the e2e tier (vitest.e2e.config.ts, `npm run test:e2e`).
      exclude: ['**/node_modules/**', '**/dist/**', '**/*.e2e.test.ts'],
      testTimeout: 30_000,
      hookTimeout: 60_000,
      // Two cores: files run in parallel processes, each with its own services and database.
      // Vitest's default is one worker fewer than the cores, which here is one: the files ran
      // one after another, each mostly waiting on SQLite, PostgreSQL and sockets.
      pool: 'forks',
      maxWorkers: 2,
      // One project, named after the engine of its HTTP suites.
      projects: [
        {
          extends: true,
          test: {
            name: 'sqlite',
            include: [
              'packages/*/src/**/*.test.ts',
              'packages/*/test/**/*.test.ts',
              'test/**/*.test.ts',
              'deploy/**/*.test.ts',
            ],
            env: { STOCKROOM_TEST_ENGINE: 'sqlite' },
          },
        },
      ],
    },
  };
});
