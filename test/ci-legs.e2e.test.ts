import { spawn } from 'node:child_process';
import { once } from 'node:events';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

/**
 * `npm test` without PostgreSQL: locally the PostgreSQL legs are skipped and the run says so;
 * under CI=true (what `.ci/run` sets) the same run fails loudly. Runs vitest itself, on one
 * small test file, with TEST_DATABASE_URL pointing at a port nothing listens on.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const VITEST = fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url));

async function closedPort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function runVitest(
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST')),
  );
  const child = spawn(
    process.execPath,
    [VITEST, 'run', '--project', 'sqlite', 'packages/server/src/testing/services.test.ts'],
    { cwd: ROOT, env: { ...inherited, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, output };
}

it('skips the PostgreSQL legs without PostgreSQL locally, and fails the run under CI=true', async () => {
  const url = `postgres://postgres@127.0.0.1:${await closedPort()}/test`;
  const local = await runVitest({ CI: '', TEST_DATABASE_URL: url });
  expect(local.output).toContain('[skipped] the suites on PostgreSQL');
  expect(local.code).toBe(0);

  const ci = await runVitest({ CI: 'true', TEST_DATABASE_URL: url });
  expect(ci.output).toContain('CI=true, and the legs that need PostgreSQL and Redis must run');
  expect(ci.code).not.toBe(0);
}, 60_000);
