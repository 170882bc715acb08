import { afterAll, describe, expect, it } from 'vitest';
import { createCliSandbox, expectFailure } from '../testing/cli-harness.js';

// What `serve` refuses before it starts anything; the running server (its output, its signals,
// its workers) is a process of its own, tested in serve.e2e.test.ts.
const sandbox = createCliSandbox();
afterAll(() => sandbox.cleanup());

describe('stockroom serve', () => {
  it.each([
    [['--port', 'abc'], /option '--port <PORT>' argument 'abc' is invalid. must be a port number/],
    [['--docs-port', '70000'], /option '--docs-port <PORT>' argument '70000' is invalid/],
    [['--workers', '0'], /option '--workers <N\|auto>' argument '0' is invalid/],
    [['--workers', 'many'], /must be a number of processes from 1 to 256, or "auto"/],
    [['--demo'], /unknown option '--demo'/],
  ])('serve %j is a usage error (exit 2) and starts nothing', async (args, message) => {
    expectFailure(await sandbox.run(['serve', ...args]), { status: 2, message });
    expect(sandbox.dump()).toBeNull();
  });

  it('a bad setting in the environment is exit 1 naming the variable', async () => {
    expectFailure(await sandbox.run(['serve', '--json'], { env: { PORT: '99999' } }), {
      status: 1,
      code: 'INVALID_CONFIG',
      json: true,
      message: /^stockroom: PORT must be a port number from 0 to 65535, got "99999"$/,
    });
  });
});
