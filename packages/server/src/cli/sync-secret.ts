import type { Command } from 'commander';
import { newSyncSecret, SYNC_TOKEN_SECRET } from '../api/sync-signing.js';
import { iso } from '../time.js';
import { contextOf, withStore } from './context.js';

export function registerSyncSecret(program: Command): void {
  const command = program
    .command('sync-secret')
    .description('the key that signs the sync tokens (nextSince) the API hands out')
    .summary('manage the sync token key');

  command
    .command('rotate')
    .description(
      'replace the key with a new random one: every sync token issued so far is refused (400), and its client starts a fresh sync',
    )
    .addHelpText(
      'after',
      `
Every server process reads the key once: restart them all after rotating (until then, a process
still signs and checks with the old key). Rotate when the key may have leaked, for instance
with a copy of the database.`,
    )
    .action(async (_opts: unknown, cmd: Command) => {
      const context = contextOf(cmd);
      const rotatedAt = await withStore(context, (store) =>
        store.replaceInstallationSecret(SYNC_TOKEN_SECRET, newSyncSecret()),
      );
      context.out.success(
        { rotatedAt: iso(rotatedAt) },
        'Rotated the sync token key: tokens issued before now are refused. Restart every server process so that it signs and checks with the new key.',
      );
    });
}
