import { defineConfig } from 'vitest/config';
import { postgresUnavailable, servicesRequired } from './packages/server/src/testing/services.js';

/**
 * The e2e tier (`npm run test:e2e`): files named `*.e2e.test.ts`, which start real processes
 * and services of their own (a private PostgreSQL cluster, a private redis-server, nginx,
 * `stockroom serve`) and measure latency under faults. One file at a time: their timings
 * compare ratios within one run, and two such files side by side on two cores would measure
 * each other.
 */
export default defineConfig(async () => {
  const postgres = await postgresUnavailable();
  if (servicesRequired() && postgres) {
    throw new Error(`CI=true, and the e2e tier needs PostgreSQL: ${postgres}`);
  }
  return {
    test: {
      include: [
        'packages/*/src/**/*.e2e.test.ts',
        'test/**/*.e2e.test.ts',
        'deploy/**/*.e2e.test.ts',
      ],
      exclude: ['**/node_modules/**', '**/dist/**'],
      testTimeout: 120_000,
      hookTimeout: 120_000,
      pool: 'forks',
      fileParallelism: false,
    },
  };
});
