import type { Command } from 'commander';
import type { Context } from './context.js';
import { CliError, usageError } from './errors.js';

/**
 * Confirmation of destructive commands, the same for all of them: on a terminal the command
 * asks `… [y/N]` on stderr and goes on only on `y` or `yes`; `--yes` skips the question; with
 * stdin not a terminal (a script, a pipe, CI) and no `--yes`, nothing is asked and nothing is
 * changed: a usage error (exit 2) says what would have happened and to pass `--yes`.
 *
 * A command uses it in two steps: `confirmable(command)` where it is declared (adds `-y, --yes`),
 * and `await confirm(context, opts, {...})` once it has looked up what it is about to destroy
 * (so the question names it) and before it changes anything.
 */

export interface ConfirmOptions {
  yes?: boolean;
}

export interface Confirmation {
  /** The command as typed, for messages: `key revoke`. */
  command: string;
  /**
   * What it is about to do, as a verb phrase naming the thing: `revoke key 6740… (sr_org_AbC1,
   * "Web shop")`. The question is this phrase with a capital and a question mark.
   */
  action: string;
  /** What follows from it, one sentence: `Revocation is permanent.` */
  consequence?: string;
}

const YES = /^\s*(?:y|yes)\s*$/i;

/** Declares `-y, --yes` on a destructive command (before its action). */
export function confirmable(command: Command): Command {
  return command.option(
    '-y, --yes',
    'do not ask for confirmation (needed when stdin is not a terminal)',
  );
}

/**
 * Resolves when the change may go ahead: `--yes` was passed, or a person answered yes on the
 * terminal. Throws a usage error (exit 2) when nobody can be asked, and CANCELLED (exit 1) when
 * the answer is anything but yes (end of input included).
 */
export async function confirm(
  context: Context,
  opts: ConfirmOptions,
  confirmation: Confirmation,
): Promise<void> {
  if (opts.yes === true) return;
  const { command, action, consequence } = confirmation;
  const stdin = context.io.stdin;
  if (stdin?.isTTY !== true) {
    throw usageError(
      `${command} would ${action}${consequence ? ` (${lowerFirst(consequence).replace(/\.$/, '')})` : ''}; stdin is not a terminal, so nothing was asked and nothing changed: pass --yes to confirm`,
    );
  }
  const question = `${upperFirst(action)}?${consequence ? ` ${consequence}` : ''} [y/N] `;
  context.io.stderr.write(question);
  const answer = await stdin.readLine();
  if (answer === null) context.io.stderr.write('\n');
  if (answer === null || !YES.test(answer)) {
    throw new CliError('CANCELLED', `${command} cancelled; nothing was changed`);
  }
}

function upperFirst(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}
