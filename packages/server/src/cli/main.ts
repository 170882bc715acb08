import { CommanderError } from 'commander';
import { toCliError, usageError } from './errors.js';
import { printFailure } from './output.js';
import { buildProgram, commandPath } from './program.js';

/** `--json` is needed before parsing succeeds, to shape even a usage error. */
function wantsJson(argv: string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).includes('--json');
}

/**
 * Runs one command. The exit code is set, not forced with process.exit, so stdout is flushed
 * and `serve` keeps running after its action returns.
 */
export async function main(argv: string[]): Promise<void> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    // Help or version asked for (`--help`, `help key`, `--version`): commander's exit code 0.
    if (error instanceof CommanderError && error.exitCode === 0) return;
    let failure = toCliError(error);
    // commander's help on stderr with exit 1 when a command group is given no subcommand.
    if (error instanceof CommanderError && error.code === 'commander.help') {
      const path = ['stockroom', ...commandPath(program, argv)].join(' ');
      failure = usageError(`missing command after \`${path}\`; see \`${path} --help\``);
    }
    printFailure(wantsJson(argv), failure);
    process.exitCode = failure.exitCode;
  }
}

// A reader that stops early (`stockroom key list | head -1`) is not a failure of the command.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

await main(process.argv.slice(2));
