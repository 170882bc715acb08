import { execFile, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * A PostgreSQL cluster of the test's own (initdb into a temporary directory, on a free port of
 * 127.0.0.1, trust authentication, fsync off), that the test may stop, restart and remove. The
 * shared server on 5432 is never touched. Run as the `postgres` user when the tests run as root
 * (PostgreSQL refuses to run as root). Skipped where initdb is missing: see
 * `privatePostgresMissing` with `announceSkip` (testing/services.ts), which fails under CI=true.
 */

/** The newest installed PostgreSQL's bin directory (Debian layout), or PG_BIN_DIR. */
export function postgresBinDir(): string | null {
  const explicit = process.env.PG_BIN_DIR;
  if (explicit) return existsSync(path.join(explicit, 'initdb')) ? explicit : null;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((entry) => /^\d+(\.\d+)?$/.test(entry))
    .sort((a, b) => Number(b) - Number(a));
  for (const version of versions) {
    const bin = path.join(root, version, 'bin');
    if (existsSync(path.join(bin, 'initdb')) && existsSync(path.join(bin, 'pg_ctl'))) return bin;
  }
  return null;
}

const asRoot = (): boolean => process.getuid?.() === 0;

function postgresUser(): { uid: number; gid: number } | null {
  const uid = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  if (uid.status !== 0 || gid.status !== 0) return null;
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/** Why a private cluster cannot be made here (null when it can). */
export function privatePostgresMissing(): string | null {
  const bin = postgresBinDir();
  if (!bin) {
    return 'initdb is not installed (no /usr/lib/postgresql/*/bin/initdb; install postgresql or set PG_BIN_DIR): needed to stop and restart a PostgreSQL of the test';
  }
  if (asRoot() && !postgresUser()) {
    return 'running as root and there is no `postgres` user to run initdb/pg_ctl as (PostgreSQL refuses root)';
  }
  if (asRoot() && spawnSync('runuser', ['--help']).error) {
    return 'running as root and `runuser` is missing (needed to run pg_ctl as postgres)';
  }
  return null;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

export interface PrivatePostgres {
  /** postgres://postgres@127.0.0.1:PORT/postgres (trust: no password). */
  url: string;
  host: string;
  port: number;
  dataDir: string;
  /** Starts the cluster (again, on the same port); resolves once it accepts connections. */
  start(): Promise<void>;
  /**
   * Stops it: `fast` (the default) ends every session and shuts down cleanly, as
   * `pg_ctl -m fast stop`; `immediate` stops at once, as a crash (recovery at the next start).
   */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  /** Stops (`mode`) and starts it again. */
  restart(mode?: 'fast' | 'immediate'): Promise<void>;
  /** Whether the postmaster is running. */
  running(): boolean;
  /** The server's log so far (for a failing test's message). */
  log(): string;
  /** Stops it (immediate) if running and removes its directory. */
  cleanup(): Promise<void>;
}

/** Runs a PostgreSQL program (as `postgres` when root); throws with its output on failure. */
function runProgram(program: string, args: string[], timeoutMs = 60_000): string {
  const command = asRoot() ? 'runuser' : program;
  const argv = asRoot() ? ['-u', 'postgres', '--', program, ...args] : args;
  const result = spawnSync(command, argv, {
    encoding: 'utf8',
    timeout: timeoutMs,
    // Run from a directory postgres may read (root's cwd may be closed to it).
    cwd: tmpdir(),
    env: { ...process.env, LC_ALL: 'C.UTF-8', LANG: 'C.UTF-8' },
  });
  if (result.error) throw result.error;
  if (result.status !== 0) {
    throw new Error(
      `${path.basename(program)} ${args.join(' ')} failed (${result.status}): ${result.stderr}${result.stdout}`,
    );
  }
  return result.stdout;
}

/**
 * `runProgram` without blocking the event loop: a test's load keeps running while pg_ctl
 * waits for the server to stop or start.
 */
function runProgramAsync(program: string, args: string[], timeoutMs = 60_000): Promise<string> {
  const command = asRoot() ? 'runuser' : program;
  const argv = asRoot() ? ['-u', 'postgres', '--', program, ...args] : args;
  return new Promise((resolve, reject) => {
    execFile(
      command,
      argv,
      {
        encoding: 'utf8',
        timeout: timeoutMs,
        cwd: tmpdir(),
        env: { ...process.env, LC_ALL: 'C.UTF-8', LANG: 'C.UTF-8' },
      },
      (error, stdout, stderr) => {
        if (error) {
          reject(
            new Error(`${path.basename(program)} ${args.join(' ')} failed: ${stderr}${stdout}`),
          );
        } else resolve(stdout);
      },
    );
  });
}

/**
 * Makes a fresh cluster (initdb) and starts it. Call `cleanup()` after the tests (afterAll),
 * also when a test failed.
 */
export async function privatePostgres(): Promise<PrivatePostgres> {
  const missing = privatePostgresMissing();
  if (missing) throw new Error(missing);
  const bin = postgresBinDir() as string;
  const root = mkdtempSync(path.join(tmpdir(), 'stockroom-pg-'));
  const dataDir = path.join(root, 'data');
  const logFile = path.join(root, 'postgres.log');
  // The socket directory too, so nothing is written to /var/run/postgresql.
  const socketDir = root;
  if (asRoot()) {
    const user = postgresUser() as { uid: number; gid: number };
    chownSync(root, user.uid, user.gid);
  }
  chmodSync(root, 0o700);
  const port = await freePort();
  runProgram(path.join(bin, 'initdb'), [
    '-D',
    dataDir,
    '-U',
    'postgres',
    '--auth=trust',
    '--encoding=UTF8',
    '--locale=C.UTF-8',
    '--no-sync',
  ]);
  const serverOptions = [
    `-p ${port}`,
    "-c listen_addresses='127.0.0.1'",
    `-c unix_socket_directories='${socketDir}'`,
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    '-c max_connections=100',
    '-c shared_buffers=32MB',
  ].join(' ');
  const pgCtl = path.join(bin, 'pg_ctl');
  const pidFile = path.join(dataDir, 'postmaster.pid');
  const cluster: PrivatePostgres = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    host: '127.0.0.1',
    port,
    dataDir,
    async start() {
      await runProgramAsync(pgCtl, [
        '-D',
        dataDir,
        '-l',
        logFile,
        '-o',
        serverOptions,
        '-w',
        '-t',
        '60',
        'start',
      ]);
    },
    async stop(mode = 'fast') {
      if (!cluster.running()) return;
      await runProgramAsync(pgCtl, ['-D', dataDir, '-m', mode, '-w', '-t', '60', 'stop']);
    },
    async restart(mode = 'fast') {
      await cluster.stop(mode);
      await cluster.start();
    },
    running() {
      return existsSync(pidFile);
    },
    log() {
      const result = spawnSync('cat', [logFile], { encoding: 'utf8' });
      return result.stdout ?? '';
    },
    async cleanup() {
      try {
        if (cluster.running()) await cluster.stop('immediate');
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    },
  };
  try {
    await cluster.start();
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    throw error;
  }
  return cluster;
}
