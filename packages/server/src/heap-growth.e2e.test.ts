import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { SERVER_HEAP_GROWING_PERCENT } from './heap-growth.js';
import { BIN, createCliSandbox } from './testing/cli-harness.js';

/**
 * The heap growth bound in running processes: the flags V8 runs with after boundHeapGrowth
 * are those of a process started with the flag, unless the operator chose one. How much lower
 * the old generation peaks with it is a measurement, not a rule: `npm run bench:heap`.
 */
const BUILT = fileURLToPath(new URL('../dist/heap-growth.js', import.meta.url));

/** V8's tag of its flags (it changes with any flag): how a process shows which it runs with. */
const FLAGS_TAG = 'process.stdout.write(String(require("node:v8").cachedDataVersionTag()))';

async function flagsTagOf(nodeArgs: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [...nodeArgs, '-e', FLAGS_TAG]);
  return stdout;
}

/** The flags tag of a process that calls boundHeapGrowth first, with its own execArgv. */
async function boundFlagsTagOf(nodeArgs: string[]): Promise<string> {
  if (!existsSync(BUILT)) throw new Error('packages/server is not built: run `npm run build`');
  const script = `const { boundHeapGrowth } = await import(${JSON.stringify(pathToFileURL(BUILT).href)});
boundHeapGrowth();
process.stdout.write(String((await import('node:v8')).default.cachedDataVersionTag()));`;
  const { stdout } = await promisify(execFile)(process.execPath, [
    ...nodeArgs,
    '--input-type=module',
    '-e',
    script,
  ]);
  return stdout;
}

describe('boundHeapGrowth', () => {
  it('takes effect in a running process, as if Node had been started with the flag', async () => {
    const [plain, flagged, bound] = await Promise.all([
      flagsTagOf([]),
      flagsTagOf([`--heap-growing-percent=${SERVER_HEAP_GROWING_PERCENT}`]),
      boundFlagsTagOf([]),
    ]);
    expect(flagged).not.toBe(plain);
    expect(bound).toBe(flagged);
  });

  it("leaves the operator's own choice alone", async () => {
    const choice = ['--heap-growing-percent=300'];
    const [chosen, bound] = await Promise.all([flagsTagOf(choice), boundFlagsTagOf(choice)]);
    expect(bound).toBe(chosen);
  });
});

describe('stockroom serve', () => {
  const sandbox = createCliSandbox();
  afterAll(() => sandbox.cleanup());

  it('runs with the bound set, as if Node had been started with the flag', async () => {
    // Preloaded into the server: answers SIGUSR2 with the flags tag of the running process.
    const probe = sandbox.file(
      'flags-probe.mjs',
      `import v8 from 'node:v8';\nprocess.on('SIGUSR2', () => process.stderr.write('flags-tag ' + v8.cachedDataVersionTag() + '\\n'));\n`,
    );
    const [plain, flagged] = await Promise.all([
      flagsTagOf([]),
      flagsTagOf([`--heap-growing-percent=${SERVER_HEAP_GROWING_PERCENT}`]),
    ]);
    expect(flagged).not.toBe(plain);
    const child = spawn(
      process.execPath,
      ['--import', pathToFileURL(probe).href, BIN, 'serve', '--port', '0', '--docs-port', '0'],
      {
        cwd: sandbox.dir,
        env: {
          ...process.env,
          DATABASE_URL: sandbox.dbPath,
          LOG_LEVEL: 'silent',
          NODE_ENV: 'production',
        },
      },
    );
    try {
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk) => {
        stdout += chunk;
      });
      child.stderr.on('data', (chunk) => {
        stderr += chunk;
      });
      const exited = once(child, 'exit').then(() => {
        throw new Error(`serve exited early: ${stderr}`);
      });
      const until = (done: () => boolean) =>
        Promise.race([
          exited,
          new Promise<void>((resolve) => {
            const check = () => (done() ? resolve() : setImmediate(check));
            child.stdout.on('data', check);
            child.stderr.on('data', check);
            check();
          }),
        ]);
      await until(() => stdout.includes('http://'));
      child.kill('SIGUSR2');
      await until(() => /flags-tag \d+\n/.test(stderr));
      expect(/flags-tag (\d+)/.exec(stderr)?.[1]).toBe(flagged);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
