import path from 'node:path';
import type { Command } from 'commander';
import { isPostgresUrl, resolveDatabaseUrl, secretsFromFiles } from '../config.js';
import { openStore } from '../store/open.js';
import type { Store } from '../store/types.js';
import { CliError } from './errors.js';
import type { CliIo } from './io.js';
import { createOutput, type Output } from './output.js';

/**
 * SQLite's page cache of a command, in MiB: twice a server's. An import of 1,000,000 items
 * inserts into the (organization_id, sku) index at random places, and the bench's import time
 * (≤ 60 s target) was measured with this cache; a command's process is short-lived, so its
 * memory is not the server's RSS.
 */
const CLI_SQLITE_CACHE_MIB = 32;

export interface GlobalOptions {
  json?: boolean;
  database?: string;
}

export interface Context {
  out: Output;
  /** `--database` wins over DATABASE_URL; SQLite paths are resolved against the working directory. */
  databaseUrl: string;
  /** The streams, environment and working directory the command runs against. */
  io: CliIo;
}

/** The database URL fit to print: a PostgreSQL password never reaches a terminal or a log. */
export function displayDatabase(databaseUrl: string): string {
  if (!isPostgresUrl(databaseUrl)) return databaseUrl;
  try {
    const url = new URL(databaseUrl);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return 'the PostgreSQL database';
  }
}

/** The io of each running program, found from any of its commands through the root. */
const ioOfProgram = new WeakMap<Command, CliIo>();

export function bindIo(program: Command, io: CliIo): void {
  ioOfProgram.set(program, io);
}

function ioOf(command: Command): CliIo {
  let root = command;
  while (root.parent) root = root.parent;
  const io = ioOfProgram.get(root);
  if (!io) throw new Error('a command ran in a program built without io (see buildProgram)');
  return io;
}

export function contextOf(command: Command): Context {
  const globals = command.optsWithGlobals<GlobalOptions>();
  const io = ioOf(command);
  return {
    out: createOutput(io, globals.json === true),
    databaseUrl: resolveDatabaseUrl(
      globals.database ?? secretsFromFiles(io.env).DATABASE_URL,
      io.cwd,
    ),
    io,
  };
}

/** A path the user gave, resolved against the command's working directory. */
export function resolvePath(context: Context, file: string): string {
  return path.resolve(context.io.cwd, file);
}

/**
 * Opens the store, brings its schema up to date (idempotent, so `org create` works on a fresh
 * file), runs the work and always closes the store so the process can exit on its own.
 */
export async function withStore<T>(
  context: Context,
  /** `applied`: the migrations this call applied (what `migrate` reports). */
  work: (store: Store, applied: string[]) => Promise<T>,
): Promise<T> {
  let store: Store;
  try {
    store = await openStore(context.databaseUrl, { sqliteCacheMiB: CLI_SQLITE_CACHE_MIB });
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError('DATABASE_ERROR', (error as Error).message);
  }
  try {
    let applied: string[];
    try {
      applied = await store.migrate();
    } catch (error) {
      throw new CliError(
        'DATABASE_ERROR',
        `cannot migrate ${displayDatabase(context.databaseUrl)}: ${(error as Error).message}`,
      );
    }
    return await work(store, applied);
  } finally {
    await store.close();
  }
}
