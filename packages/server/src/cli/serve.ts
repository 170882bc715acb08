import type { Command } from 'commander';
import { loadConfig } from '../config.js';
import { contextOf } from './context.js';
import { parsePort, parseWorkers } from './values.js';

interface ServeOptions {
  port?: string;
  docsPort?: string;
  host?: string;
  workers?: string;
  demo: boolean;
}

/**
 * Only turns flags into configuration overrides; the server itself lives in server.ts. It is
 * imported when `serve` runs, so the other commands never load the HTTP stack.
 */
export function registerServe(program: Command): void {
  program
    .command('serve')
    .description(
      'run the API and documentation hosts (migrates the database first); with --json, print one JSON object with the URLs (and the demo key) once listening, and log to stderr',
    )
    .option('--port <PORT>', 'API port (env PORT, default 3000)', parsePort)
    .option('--docs-port <PORT>', 'documentation port (env DOCS_PORT, default 3001)', parsePort)
    .option('--host <HOST>', 'interface to bind (env HOST, default 127.0.0.1)')
    .option(
      '--workers <N|auto>',
      'API processes sharing the ports (env WORKERS, default 1; auto: one per core)',
      parseWorkers,
    )
    .option('--no-demo', 'never seed the demo organization')
    .addHelpText(
      'after',
      `
With --workers N, one primary process forks N workers (a worker that dies is replaced) and
SIGTERM lets every worker finish its in-flight requests (within SHUTDOWN_TIMEOUT, default 30s);
SIGHUP to the primary replaces the workers one at a time, loading the build on disk (a
zero-downtime upgrade). Without --workers, SIGHUP is logged and ignored. Rate limits stay exact:
through Redis with REDIS_URL, the database's counters on PostgreSQL, and on SQLite the primary's
counters (also while Redis is down).

On SQLite one \`stockroom serve\` serves a database file: it holds a lock on it
(<file>-serve.lock) while it runs, and a second serve on the same file exits 1. To use more
cores, run one server with --workers N. CLI commands keep working beside a running server.

With ADMIN_TOKEN set (at least 32 characters), the admin API (writes for your own systems:
organizations, keys, items in bulk) also listens, on ADMIN_PORT (default 3002) of ADMIN_HOST
(default 127.0.0.1); every worker serves it. Without it, that port is never opened.`,
    )
    .action(async (opts: ServeOptions, command: Command) => {
      const { databaseUrl, out, io } = contextOf(command);
      const config = loadConfig(io.env, {
        PORT: opts.port,
        DOCS_PORT: opts.docsPort,
        HOST: opts.host,
        WORKERS: opts.workers,
        DATABASE_URL: databaseUrl,
      });
      const { serve } = await import('../server.js');
      await serve(config, { demo: opts.demo, json: out.json });
    });
}
