import { Command } from 'commander';
import { VERSION } from '../version.js';
import { registerAudit } from './audit.js';
import { registerBackup } from './backup.js';
import { registerDb } from './db.js';
import { registerItems } from './items.js';
import { registerKey } from './key.js';
import { registerMigrate } from './migrate.js';
import { registerOrg } from './org.js';
import { registerServe } from './serve.js';
import { registerUser } from './user.js';
import { registerWebhook } from './webhook.js';

/**
 * The `stockroom` command tree. Settings made here before the subcommands are added are
 * inherited by all of them: commander throws instead of exiting (main.ts decides the exit
 * code and prints the one stderr line) and prints no errors of its own.
 */
export function buildProgram(): Command {
  const program = new Command('stockroom')
    .description(
      'Stockroom operator CLI: run the server and manage organizations, users, keys and items',
    )
    .version(VERSION, '-V, --version', 'print the version')
    .option('--json', 'print exactly one JSON object on stdout')
    .option('--database <URL>', 'SQLite file path or postgres:// URL (overrides DATABASE_URL)')
    .helpOption('-h, --help', 'show help for the command')
    .exitOverride()
    .configureOutput({ writeErr: () => {}, outputError: () => {} })
    .configureHelp({ showGlobalOptions: true })
    .showSuggestionAfterError(true);
  registerServe(program);
  registerMigrate(program);
  registerOrg(program);
  registerUser(program);
  registerKey(program);
  registerItems(program);
  registerDb(program);
  registerBackup(program);
  registerAudit(program);
  registerWebhook(program);
  return program;
}

/** The deepest command group named by argv, for "missing command" messages. */
export function commandPath(program: Command, argv: string[]): string[] {
  const path: string[] = [];
  let current = program;
  for (const arg of argv) {
    if (arg.startsWith('-')) continue;
    const next = current.commands.find((c) => c.name() === arg);
    if (!next) break;
    path.push(arg);
    current = next;
  }
  return path;
}
