import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { isPostgresUrl } from '../config.js';
import { BackupTargetError } from '../store/sqlite/backup.js';
import { SqliteStore } from '../store/sqlite/sqlite-store.js';
import { contextOf, resolvePath } from './context.js';
import { CliError } from './errors.js';
import { fields } from './output.js';

/** The PostgreSQL recipe (docs/en/self-hosting.mdx, "Backups"), in one line. */
export const POSTGRES_BACKUP_HINT =
  'backup copies the embedded SQLite database; on PostgreSQL use pg_dump: pg_dump --format=custom --file=stockroom.dump "$DATABASE_URL", and restore into an empty database with pg_restore --no-owner --dbname=URL stockroom.dump (see "Backups" in the self-hosting docs)';

export function registerBackup(program: Command): void {
  program
    .command('backup')
    .description(
      'copy the embedded SQLite database to FILE: a consistent snapshot, even while a server is serving and writing it',
    )
    .summary('back up the embedded database')
    .argument('<FILE>', 'the copy to write (its directory must exist)')
    .option('--force', 'replace FILE if it exists')
    .addHelpText(
      'after',
      `
The copy is written to a temporary file beside FILE and renamed into place, so FILE is never
half-written; it is then opened read-only to count its rows. It is a complete database: to
restore it, stop the server, move the database file and its -wal and -shm files away, and copy
FILE to the database's path (or point DATABASE_URL at it).

PostgreSQL: use pg_dump and pg_restore (see "Backups" in the self-hosting docs):
  pg_dump --format=custom --file=stockroom.dump "$DATABASE_URL"
  pg_restore --no-owner --dbname=URL stockroom.dump`,
    )
    .action(async (file: string, opts: { force?: boolean }, command: Command) => {
      const context = contextOf(command);
      if (isPostgresUrl(context.databaseUrl))
        throw new CliError('NOT_SUPPORTED', POSTGRES_BACKUP_HINT);
      if (!existsSync(context.databaseUrl)) {
        throw new CliError('DATABASE_ERROR', `no SQLite database at ${context.databaseUrl}`);
      }
      // Not through withStore: a backup must not migrate the database it copies (one taken
      // before an upgrade is the one an operator wants to keep).
      const store = new SqliteStore(context.databaseUrl);
      let summary: Awaited<ReturnType<SqliteStore['backupTo']>>;
      try {
        summary = await store.backupTo(resolvePath(context, file), {
          overwrite: opts.force === true,
        });
      } catch (error) {
        if (error instanceof BackupTargetError) {
          throw new CliError(
            error.reason === 'exists' ? 'FILE_EXISTS' : 'INVALID_FILE',
            error.message,
          );
        }
        throw error;
      } finally {
        await store.close();
      }
      context.out.success(
        { ...summary },
        `Backed up ${context.databaseUrl} to ${summary.file}\n${fields([
          ['bytes', String(summary.bytes)],
          ['organizations', String(summary.organizations)],
          ['items', String(summary.items)],
          ['API keys', String(summary.apiKeys)],
        ])}`,
      );
    });
}
