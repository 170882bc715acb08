import type { ImportColumn } from './fields.js';

/**
 * One record as read from the file, before its values are checked. `line` is the 1-based line
 * of the file where the record starts, which is what every error report points at.
 */
export type RawRecord =
  | {
      line: number;
      kind: 'csv';
      /** Per header column: the field (or location's stock) it fills, or null for an ignored column. */
      columns: readonly ImportColumn[];
      cells: string[];
    }
  | { line: number; kind: 'json'; value: unknown };

/** Called as the reader gets through the file, in bytes. */
export type OnBytes = (bytesRead: number) => void;

/** Makes JSON.parse messages read the same on every Node version, without positions or excerpts. */
export function jsonReason(error: unknown): { reason: string; position: number | undefined } {
  const message = error instanceof Error ? error.message : String(error);
  const at = / in JSON at position (\d+)/.exec(message);
  const reason = message
    .replace(/ in JSON at position \d+(?: \(line \d+ column \d+\))?/, '')
    .replace(/, (?:"|\.\.\.).*" is not valid JSON$/s, '');
  return { reason, position: at ? Number(at[1]) : undefined };
}
