import { isatty } from 'node:tty';

/**
 * What a command may touch of the world it runs in: its input, two output streams, the
 * environment and the working directory. The binary hands in its process's; a test hands in strings it
 * captures, so many commands can run in one process without sharing anything global.
 */

/** The part of a writable stream the CLI uses; `isTTY` and `columns` only a terminal has. */
export interface CliOutputStream {
  write(text: string): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
  hasColors?(): boolean;
}

/** What the CLI reads of its input: whether a person types into it, and one line at a time. */
export interface CliInputStream {
  readonly isTTY?: boolean;
  /** The next line typed, without its line break; null at the end of the input. */
  readLine(): Promise<string | null>;
}

/**
 * Where a command hears SIGINT and SIGTERM: the process in the binary, an emitter in a test,
 * which stops a command by emitting the signal's name, as the operating system would.
 */
export interface CliSignals {
  on(signal: 'SIGINT' | 'SIGTERM', listener: () => void): unknown;
  off(signal: 'SIGINT' | 'SIGTERM', listener: () => void): unknown;
}

export interface CliIo {
  /** Absent: no input (as a pipe or /dev/null would be), so nothing can be asked. */
  stdin?: CliInputStream;
  stdout: CliOutputStream;
  stderr: CliOutputStream;
  env: Record<string, string | undefined>;
  /** Relative paths (`--database`, files) are resolved against it. */
  cwd: string;
  /** Absent: nothing listens (a command in a test that does not stop it). */
  signals?: CliSignals;
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

/**
 * The process's stdin as the CLI reads it: whether it is a terminal (asked of file descriptor
 * 0, without creating the stream), and one line at a time. The stream is created only when a
 * line is read and paused again after it, so the process can still exit on its own.
 */
export function processInput(): CliInputStream {
  return {
    isTTY: isatty(0),
    readLine: () =>
      new Promise((resolve) => {
        const stream = process.stdin;
        let buffered = '';
        const done = (line: string | null) => {
          stream.off('data', onData);
          stream.off('end', onEnd);
          stream.pause();
          resolve(line);
        };
        const onData = (chunk: Buffer | string) => {
          buffered += chunk.toString();
          const end = buffered.indexOf('\n');
          if (end !== -1) done(buffered.slice(0, end).replace(/\r$/, ''));
        };
        const onEnd = () => done(buffered === '' ? null : buffered);
        stream.on('data', onData);
        stream.on('end', onEnd);
        stream.resume();
      }),
  };
}
