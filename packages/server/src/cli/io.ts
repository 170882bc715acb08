/**
 * What a command may touch of the world it runs in: two output streams, the environment and
 * the working directory. The binary hands in its process's; a test hands in strings it
 * captures, so many commands can run in one process without sharing anything global.
 */

/** The part of a writable stream the CLI uses; `isTTY` and `columns` only a terminal has. */
export interface CliOutputStream {
  write(text: string): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
  hasColors?(): boolean;
}

export interface CliIo {
  stdout: CliOutputStream;
  stderr: CliOutputStream;
  env: Record<string, string | undefined>;
  /** Relative paths (`--database`, files) are resolved against it. */
  cwd: string;
}

/** A stream a person is watching: progress bars and terminal-width help are for it only. */
export function isTerminal(stream: CliOutputStream): boolean {
  return stream.isTTY === true;
}

/**
 * Whether help may carry colours on `stream`: commander's own rule (NO_COLOR, FORCE_COLOR,
 * CLICOLOR_FORCE, then the terminal), read from the CLI's environment instead of the process's.
 */
export function hasColors(stream: CliOutputStream, env: CliIo['env']): boolean {
  if (env.NO_COLOR || env.FORCE_COLOR === '0' || env.FORCE_COLOR === 'false') return false;
  if (env.FORCE_COLOR || env.CLICOLOR_FORCE !== undefined) return true;
  return isTerminal(stream) && stream.hasColors?.() === true;
}
