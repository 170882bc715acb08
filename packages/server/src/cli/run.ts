import { CommanderError } from 'commander';
import { toCliError, usageError } from './errors.js';
import type { CliIo } from './io.js';
import { printFailure } from './output.js';
import { buildProgram, commandPath } from './program.js';

/** `--json` is needed before parsing succeeds, to shape even a usage error. */
function wantsJson(argv: string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).includes('--json');
}

/**
 * Runs one command (argv without `node` and the script) against `io` and resolves with its
 * exit code once the command is done and every store it opened is closed. Nothing here exits
 * the process or writes to it: the binary (main.ts) decides what the code means. `serve`
 * resolves once its server listens, which keeps running in this process; `cwd` defaults to
 * the process's.
 */
export async function run(
  argv: string[],
  io: Omit<CliIo, 'cwd'> & { cwd?: string },
): Promise<number> {
  const cliIo: CliIo = { ...io, cwd: io.cwd ?? process.cwd() };
  const program = buildProgram(cliIo);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    // Help or version asked for (`--help`, `help key`, `--version`): commander's exit code 0.
    if (error instanceof CommanderError && error.exitCode === 0) return 0;
    let failure = toCliError(error);
    // commander's help on stderr with exit 1 when a command group is given no subcommand.
    if (error instanceof CommanderError && error.code === 'commander.help') {
      const path = ['stockroom', ...commandPath(program, argv)].join(' ');
      failure = usageError(`missing command after \`${path}\`; see \`${path} --help\``);
    }
    printFailure(cliIo, wantsJson(argv), failure);
    return failure.exitCode;
  }
}
