import { existsSync } from 'node:fs';
import { type Command, InvalidArgumentError } from 'commander';
import { isPostgresUrl, loadConfig } from '../config.js';
import {
  type CopyCounts,
  CopyError,
  type CopyResult,
  copySqliteToPostgres,
} from '../store/postgres/copy.js';
import { contextOf } from './context.js';
import { CliError, usageError } from './errors.js';
import { isTerminal } from './io.js';

function parsePostgresUrl(raw: string): string {
  if (!isPostgresUrl(raw)) {
    throw new InvalidArgumentError('must be a postgres:// (or postgresql://) URL');
  }
  return raw;
}

function parseBatchSize(raw: string): number {
  if (!/^[1-9]\d*$/.test(raw) || Number(raw) > 10_000) {
    throw new InvalidArgumentError('must be a number of rows from 1 to 10000');
  }
  return Number(raw);
}

/** A URL fit to print: the password, if any, masked. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
  }
}

function summary(counts: CopyCounts): string {
  return `${counts.organizations} organizations, ${counts.users} users, ${counts.memberships} memberships, ${counts.apiKeys} API keys, ${counts.items} items, ${counts.locations} locations, ${counts.stock} stock rows, ${counts.tombstones} tombstones, ${counts.changes} change before-images, ${counts.secrets} installation secrets, ${counts.auditEvents} audit events, ${counts.webhooks} webhooks, ${counts.webhookDeliveries} webhook deliveries`;
}

export function registerDb(program: Command): void {
  const db = program
    .command('db')
    .description('move the database between engines')
    .summary('database tools');

  db.command('copy')
    .description(
      'copy the embedded SQLite database (DATABASE_URL or --database) into an empty PostgreSQL database, then verify the row counts',
    )
    .requiredOption('--to <URL>', 'the PostgreSQL database (postgres://…)', parsePostgresUrl)
    .option('--batch-size <N>', 'rows per statement (default 1000)', parseBatchSize)
    .addHelpText(
      'after',
      `
Copies organizations, users, memberships and API keys (hashes, quotas left, state), items
(ids, timestamps, customFields as stored) and the change feed (change numbers, the
tombstones of deleted items and the before-images of changes, so sync positions stay valid),
with the key that signs sync tokens (so the tokens clients hold stay valid). The target is migrated first and must be empty, or
hold an earlier copy of the same source: every batch is an upsert, so a copy that failed is
simply run again, and a rerun brings the target up to date, deleting from it the rows the source
no longer has (and any made directly in the target since: do not rerun once PostgreSQL serves).
Stop the server (or accept that writes made during the copy are not copied), then point
DATABASE_URL at PostgreSQL. Rate-limit counters are not copied.`,
    )
    .action(async (opts: { to: string; batchSize?: number }, command: Command) => {
      const context = contextOf(command);
      if (isPostgresUrl(context.databaseUrl)) {
        throw usageError(
          'db copy reads the embedded SQLite database: set DATABASE_URL (or --database) to its file',
        );
      }
      if (!existsSync(context.databaseUrl)) {
        throw new CliError('DATABASE_ERROR', `no SQLite database at ${context.databaseUrl}`);
      }
      const { databaseTimeoutMs } = loadConfig(context.io.env);
      const progress = isTerminal(context.io.stderr) && !context.out.json;
      let result: CopyResult;
      try {
        result = await copySqliteToPostgres(context.databaseUrl, opts.to, {
          timeoutMs: databaseTimeoutMs,
          ...(opts.batchSize === undefined ? {} : { batchSize: opts.batchSize }),
          ...(progress
            ? {
                onProgress: (table, done, total) =>
                  context.io.stderr.write(
                    `\rcopying ${table}: ${done}/${total}${done === total ? '\n' : ''}`,
                  ),
              }
            : {}),
        });
      } catch (error) {
        if (error instanceof CopyError) throw new CliError('DATABASE_ERROR', error.message);
        throw error;
      }
      const target = redactUrl(opts.to);
      const { copied, deleted } = result;
      const removed = Object.values(deleted).some((n) => n > 0)
        ? ` Deleted from the target what the source no longer has: ${summary(deleted)}.`
        : '';
      context.out.success(
        { source: context.databaseUrl, target, copied, deleted, verified: true },
        `Copied ${context.databaseUrl} into ${target}: ${summary(copied)} (counts verified).${removed}\nNext: set DATABASE_URL to that URL and run \`npx stockroom serve\`.`,
      );
    });
}
