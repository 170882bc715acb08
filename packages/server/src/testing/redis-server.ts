import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import net from 'node:net';

/**
 * A Redis server of the test's own, on a free port, that the test may kill and restart (the
 * shared one on 6379 is never touched). Skipped where redis-server is not installed.
 */
export function redisServerMissing(): string | null {
  const probe = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  return probe.error ? 'redis-server is not installed (needed to stop and restart a Redis)' : null;
}

async function freePort(): Promise<number> {
  const probe = net.createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as net.AddressInfo;
  probe.close();
  await once(probe, 'close');
  return port;
}

export interface PrivateRedis {
  url: string;
  /** Starts it (again, on the same port); resolves once it accepts connections. */
  start(): Promise<void>;
  /** Kills it outright, as a crash would. */
  kill(): Promise<void>;
  /** Stops it (SIGSTOP): connections stay open and nothing answers, as in a hang. */
  pause(): void;
  /** Lets a paused server run again (SIGCONT). */
  resume(): void;
}

export async function privateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  let child: ChildProcess | null = null;
  return {
    url: `redis://127.0.0.1:${port}`,
    async start() {
      const started = spawn(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      child = started;
      // Redis prints this line once it listens: wait for it, not for a while.
      await new Promise<void>((resolve, reject) => {
        let output = '';
        const onData = (chunk: string) => {
          output += chunk;
          if (!output.includes('Ready to accept connections')) return;
          started.stdout?.off('data', onData).resume();
          started.off('exit', onExit);
          resolve();
        };
        const onExit = (code: number | null) =>
          reject(new Error(`redis-server exited (${code}): ${output}`));
        started.stdout?.setEncoding('utf8').on('data', onData);
        started.once('exit', onExit);
      });
    },
    pause() {
      child?.kill('SIGSTOP');
    },
    resume() {
      child?.kill('SIGCONT');
    },
    async kill() {
      const running = child;
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      child = null;
      // SIGKILL ends a stopped process too; SIGCONT first is not needed.
      running.kill('SIGKILL');
      await once(running, 'exit');
    },
  };
}
