import { maskKeys } from '../keys/format.js';
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
  // A key pasted where it does not belong (a mistyped KEY argument) is not echoed whole.
  const message = maskKeys(error.message.replace(/\s*\n\s*/g, ' ').trim());
  const { details, report } = error.extra;
  if (json) {
    io.stdout.write(`${JSON.stringify({ ...details, error: { code: error.code, message } })}\n`);
  } else if (report) {
    io.stdout.write(`${report.replace(/\n+$/, '')}\n`);
  }
  io.stderr.write(`stockroom: ${message}\n`);
}

/** Text cut to `width` characters (code points), ending in `…` when cut. */
export function truncate(text: string, width: number): string {
  const chars = [...text];
  return chars.length <= width ? text : `${chars.slice(0, Math.max(0, width - 1)).join('')}…`;
}

/**
 * Left-aligned columns separated by two spaces; the header row is upper case. With `fit`, the
 * column `fit.shrink` is cut (never below its header, nor 8 characters) so that every line
 * stays within `fit.width` characters, when the other columns leave room for that.
 */
export function table(
  headers: string[],
  rows: string[][],
  fit?: { width: number; shrink: number },
): string {
  let body = rows;
  if (fit) {
    const natural = headers.map((header, i) =>
      Math.max(header.length, ...rows.map((row) => [...(row[i] ?? '')].length)),
    );
    const total = natural.reduce((sum, w) => sum + w, 0) + 2 * (headers.length - 1);
    if (total > fit.width) {
      const floor = Math.max(8, headers[fit.shrink]?.length ?? 0);
      const room = Math.max(floor, (natural[fit.shrink] ?? 0) - (total - fit.width));
      body = rows.map((row) =>
        row.map((cell, i) => (i === fit.shrink ? truncate(cell, room) : cell)),
      );
    }
  }
  const all = [headers.map((h) => h.toUpperCase()), ...body];
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
