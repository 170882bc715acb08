import { Command, Help } from 'commander';
import { VERSION } from '../version.js';
import { registerAudit } from './audit.js';
import { registerBackup } from './backup.js';
import { registerCompletion } from './completion.js';
import { bindIo } from './context.js';
import { registerDb } from './db.js';
import { type CliIo, hasColors } from './io.js';
import { registerItems } from './items.js';
import { registerKey } from './key.js';
import { registerLocation } from './location.js';
import { registerMigrate } from './migrate.js';
import { registerOrg } from './org.js';
import { registerServe } from './serve.js';
import { registerSyncSecret } from './sync-secret.js';
import { registerUser } from './user.js';
import { registerWebhook } from './webhook.js';

/** commander's help width when the output is not a terminal. */
const HELP_WIDTH = 80;

/**
 * The `stockroom` command tree, its commands running against `io`. Settings made here before
 * the subcommands are added are inherited by all of them: commander throws instead of exiting
 * (run.ts decides the exit code and prints the one stderr line), prints no errors of its own,
 * and writes help and the version to `io.stdout`, never to the process. Without `io` the tree
 * is only to be walked: it prints nothing and its commands cannot run.
 */
export function buildProgram(io?: CliIo): Command {
  const program = new Command('stockroom')
    .description(
      'Stockroom operator CLI: run the server and manage organizations, users, keys and items',
    )
    .version(VERSION, '-V, --version', 'print the version')
    .option('--json', 'print exactly one JSON object on stdout')
    .option('--database <URL>', 'SQLite file path or postgres:// URL (overrides DATABASE_URL)')
    .helpOption('-h, --help', 'show help for the command')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io?.stdout.write(text),
      writeErr: () => {},
      outputError: () => {},
      getOutHelpWidth: () => (io?.stdout.isTTY ? io.stdout.columns : undefined) ?? HELP_WIDTH,
      getErrHelpWidth: () => (io?.stderr.isTTY ? io.stderr.columns : undefined) ?? HELP_WIDTH,
      getOutHasColors: () => (io ? hasColors(io.stdout, io.env) : false),
      getErrHasColors: () => (io ? hasColors(io.stderr, io.env) : false),
    })
    .configureHelp({
      showGlobalOptions: true,
      // commander enforces requiredOption but does not say so in help.
      optionDescription(option) {
        const text = Help.prototype.optionDescription.call(this, option);
        return option.mandatory ? `${text} (required)` : text;
      },
    })
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
  registerLocation(program);
  registerSyncSecret(program);
  // Last: its script is generated from every command registered before it, itself included.
  registerCompletion(program);
  if (io) bindIo(program, io);
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
