import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { BIN } from './cli-harness.js';

/**
 * `stockroom serve` as a real process of the built binary (`npm test` builds it first), for
 * tests that need several processes. Output lines are kept so a test can wait for one.
 */
export interface ServeProcess {
  apiUrl: string;
  pid: number;
  child: ChildProcess;
  /** stdout and stderr lines so far. */
  lines: string[];
  /** Resolves with the first line (past or future) that matches. */
  waitForLine(pattern: RegExp, count?: number): Promise<string>;
  /** Sends the signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export async function startServeProcess(
  env: Record<string, string | undefined>,
  args: string[] = [],
): Promise<ServeProcess> {
  const child = spawn(
    process.execPath,
    [BIN, 'serve', '--port', '0', '--docs-port', '0', '--no-demo', ...args],
    {
      env: { ...process.env, LOG_LEVEL: 'warn', NODE_ENV: 'test', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const lines: string[] = [];
  const waiters: Array<{ pattern: RegExp; count: number; resolve(line: string): void }> = [];
  const onLine = (line: string) => {
    lines.push(line);
    for (const waiter of [...waiters]) {
      const matches = lines.filter((l) => waiter.pattern.test(l));
      if (matches.length >= waiter.count) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(matches[waiter.count - 1] as string);
      }
    }
  };
  for (const stream of [child.stdout, child.stderr]) {
    let buffered = '';
    stream.setEncoding('utf8').on('data', (chunk: string) => {
      buffered += chunk;
      const parts = buffered.split('\n');
      buffered = parts.pop() ?? '';
      for (const part of parts) onLine(part);
    });
  }
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;

  function waitForLine(pattern: RegExp, count = 1): Promise<string> {
    const matches = lines.filter((line) => pattern.test(line));
    if (matches.length >= count) return Promise.resolve(matches[count - 1] as string);
    return new Promise((resolve) => waiters.push({ pattern, count, resolve }));
  }

  const ready = waitForLine(/API:\s+http/);
  const outcome = await Promise.race([
    ready.then((line) => ({ line })),
    exited.then(([code]) => ({ code })),
  ]);
  if (!('line' in outcome)) {
    throw new Error(
      `stockroom serve exited (${outcome.code}) before it was ready:\n${lines.join('\n')}`,
    );
  }
  const apiUrl = /API:\s+(http\S+)\/api\/v1/.exec(outcome.line)?.[1];
  if (!apiUrl) throw new Error(`no API URL in: ${outcome.line}`);
  return {
    apiUrl,
    pid: child.pid as number,
    child,
    lines,
    waitForLine,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      const [code] = await exited;
      return code;
    },
  };
}

/** The child processes of `pid` (Linux /proc), e.g. the workers of a cluster primary. */
export async function childPids(pid: number): Promise<number[]> {
  const { readdir, readFile } = await import('node:fs/promises');
  const children: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    // Field 4 is the parent pid; the command name (field 2) may hold spaces, so split after ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[1]) === pid) children.push(Number(entry));
  }
  return children.sort((a, b) => a - b);
}
