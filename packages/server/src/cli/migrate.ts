import type { Command } from 'commander';
import { contextOf, displayDatabase, withStore } from './context.js';

export function registerMigrate(program: Command): void {
  program
    .command('migrate')
    .description('apply pending database migrations (other commands and serve do this too)')
    .action(async (_opts: unknown, command: Command) => {
      const context = contextOf(command);
      const database = displayDatabase(context.databaseUrl);
      const applied = await withStore(context, async (_store, applied) => applied);
      context.out.success(
        { database, applied },
        applied.length === 0
          ? `${database} is up to date`
          : `Applied ${applied.length} migration${applied.length === 1 ? '' : 's'} to ${database}: ${applied.join(', ')}`,
      );
    });
}
