import type { CliError } from './errors.js';
import type { CliIo } from './io.js';

/** Writes the one result of a command: a JSON object with --json, readable text without. */
export interface Output {
  readonly json: boolean;
  success(data: Record<string, unknown>, human: string): void;
}

export function createOutput(io: CliIo, json: boolean): Output {
  return {
    json,
    success(data, human) {
      io.stdout.write(json ? `${JSON.stringify(data)}\n` : `${human.replace(/\n+$/, '')}\n`);
    },
  };
}

/** One line on stderr always; with --json also the error object (plus any details) on stdout. */
export function printFailure(io: CliIo, json: boolean, error: CliError): void {
  const message = error.message.replace(/\s*\n\s*/g, ' ').trim();
  const { details, report } = error.extra;
  if (json) {
    io.stdout.write(`${JSON.stringify({ ...details, error: { code: error.code, message } })}\n`);
  } else if (report) {
    io.stdout.write(`${report.replace(/\n+$/, '')}\n`);
  }
  io.stderr.write(`stockroom: ${message}\n`);
}

/** Left-aligned columns separated by two spaces; the header row is upper case. */
export function table(headers: string[], rows: string[][]): string {
  const all = [headers.map((h) => h.toUpperCase()), ...rows];
  const widths = headers.map((_, i) => Math.max(...all.map((row) => [...(row[i] ?? '')].length)));
  return all
    .map((row) =>
      row
        .map((cell, i) =>
          i === row.length - 1 ? cell : cell + ' '.repeat((widths[i] ?? 0) - [...cell].length),
        )
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** `key: value` lines with the values aligned. */
export function fields(pairs: Array<[string, string]>): string {
  const width = Math.max(...pairs.map(([label]) => label.length)) + 1;
  return pairs.map(([label, value]) => `${`${label}:`.padEnd(width)} ${value}`).join('\n');
}
