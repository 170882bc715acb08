import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import Database from '../store/sqlite/driver.js';
import { SqliteStore } from '../store/sqlite/sqlite-store.js';

/** The real `stockroom` binary, which runs the compiled CLI (`npm run build` first). */
export const BIN = fileURLToPath(new URL('../../bin/stockroom.js', import.meta.url));

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
  /** stdout parsed as one JSON object (undefined when it is not JSON). */
  // biome-ignore lint/suspicious/noExplicitAny: tests inspect arbitrary JSON
  json: any;
}

export interface CliRunOptions {
  /** Added to (or, with '', blanking) the environment the test process runs with. */
  env?: Record<string, string | undefined>;
  cwd?: string;
  /**
   * The command's stdin (in-process runs only): `isTTY` says whether it is a terminal, `lines`
   * are what the person types, one per question; past them, the end of the input. Without
   * it the command has no stdin, as under a pipe or in CI.
   */
  stdin?: { isTTY?: boolean; lines?: string[] };
}

/**
 * A temp directory with its own SQLite file. `run` runs a command against it in this process
 * (through DATABASE_URL, so `--database` stays free to test), `runBinary` in a `stockroom`
 * process of its own; `store` gives a store to arrange data and to check what the CLI changed.
 */
export interface CliSandbox {
  dir: string;
  dbPath: string;
  run(args: string[], options?: CliRunOptions): Promise<CliRun>;
  /** The same through the real binary: for what only a process shows (and `npm run build` first). */
  runBinary(args: string[], options?: CliRunOptions): Promise<CliRun>;
  /** Writes a file in the sandbox and returns its path. */
  file(name: string, content: string | Buffer): string;
  /** A store on the sandbox database; closed by `cleanup`. */
  store(): SqliteStore;
  /**
   * Every row of every table, as text (null while the file does not exist): equal dumps
   * before and after a command prove it changed nothing.
   */
  dump(): string | null;
  cleanup(): void;
}

function parsed(stdout: string): unknown {
  try {
    return JSON.parse(stdout);
  } catch {
    return undefined;
  }
}

/**
 * Runs one command in this process through the CLI's entry (cli/run.ts), capturing what it
 * prints. Its environment is a copy, so nothing it is given reaches `process.env`, and runs
 * may overlap.
 */
export async function runCli(args: string[], options: CliRunOptions = {}): Promise<CliRun> {
  // Loaded on first use: files that only spawn the binary do not load the CLI.
  const { run } = await import('../cli/run.js');
  let stdout = '';
  let stderr = '';
  const lines = [...(options.stdin?.lines ?? [])];
  const status = await run(args, {
    ...(options.stdin && {
      stdin: {
        isTTY: options.stdin.isTTY === true,
        readLine: async () => lines.shift() ?? null,
      },
    }),
    stdout: {
      write: (text: string) => {
        stdout += text;
        return true;
      },
    },
    stderr: {
      write: (text: string) => {
        stderr += text;
        return true;
      },
    },
    env: { ...process.env, ...options.env },
    cwd: options.cwd ?? process.cwd(),
  });
  return { status, stdout, stderr, json: parsed(stdout) };
}

/** Runs one command in a `stockroom` process of its own (the compiled binary). */
export function runBinary(args: string[], options: CliRunOptions = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr, json: parsed(stdout) }));
  });
}

export function createCliSandbox(): CliSandbox {
  const dir = mkdtempSync(path.join(tmpdir(), 'stockroom-cli-'));
  const dbPath = path.join(dir, 'stockroom.db');
  const stores: SqliteStore[] = [];
  return {
    dir,
    dbPath,
    run: (args, options = {}) =>
      runCli(args, {
        ...options,
        cwd: options.cwd ?? dir,
        env: { DATABASE_URL: dbPath, ...options.env },
      }),
    runBinary: (args, options = {}) =>
      runBinary(args, { cwd: options.cwd ?? dir, env: { DATABASE_URL: dbPath, ...options.env } }),
    file(name, content) {
      const target = path.join(dir, name);
      writeFileSync(target, content);
      return target;
    },
    store() {
      const store = new SqliteStore(dbPath);
      stores.push(store);
      return store;
    },
    dump() {
      if (!existsSync(dbPath)) return null;
      const db = new Database(dbPath, { readonly: true });
      try {
        const tables = db
          .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
          .all() as Array<{ name: string }>;
        const out: Record<string, unknown[]> = {};
        for (const { name } of tables) out[name] = db.prepare(`SELECT * FROM "${name}"`).all();
        return JSON.stringify(out);
      } finally {
        db.close();
      }
    },
    cleanup() {
      for (const store of stores) void store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The failure contract: the exit status, exactly one `stockroom: …` line on stderr, and on
 * stdout either nothing or (with --json) exactly one `{ error: { code, message } }` object.
 */
export function expectFailure(
  run: CliRun,
  expected: { status: 1 | 2; code?: string; message?: RegExp | string; json?: boolean },
): void {
  expect({ status: run.status, stderr: run.stderr }).toMatchObject({ status: expected.status });
  const lines = run.stderr.split('\n');
  expect(lines, run.stderr).toHaveLength(2);
  expect(lines[1]).toBe('');
  expect(lines[0]).toMatch(/^stockroom: \S/);
  if (expected.message !== undefined) expect(lines[0]).toMatch(expected.message);
  if (expected.json) {
    expect(run.stdout.trim().split('\n')).toHaveLength(1);
    expect(run.json?.error).toEqual({
      code: expected.code ?? (expected.status === 2 ? 'USAGE_ERROR' : expect.any(String)),
      message: lines[0]?.slice('stockroom: '.length),
    });
  } else if (expected.code === undefined || expected.code !== 'IMPORT_ROWS_FAILED') {
    expect(run.stdout).toBe('');
  }
}

/** Success: exit 0, nothing on stderr, and with --json exactly one JSON object on stdout. */
export function expectSuccess(run: CliRun, options: { json?: boolean } = {}): void {
  expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
  if (options.json) {
    expect(run.stdout.trim().split('\n')).toHaveLength(1);
    expect(run.json).toBeTypeOf('object');
  }
}
