import { DomainError } from './errors.js';

/**
 * Durations: a whole number and a unit, `30s`, `90m`, `12h`, `90d`. The one grammar read by the
 * CLI's flags, the admin API's fields and the settings. Flags and fields take a DURATION (a
 * positive number of s, m, h or d, in seconds); settings also take milliseconds (`250ms`) and
 * zero (`0s`), for timers shorter than a second.
 */

const GRAMMAR = /^(\d+)(ms|s|m|h|d)$/;
const SECONDS_PER_UNIT = { s: 1, m: 60, h: 3600, d: 86_400 } as const;
const MS_PER_UNIT = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

type Unit = keyof typeof MS_PER_UNIT;

function read(raw: string): { amount: string; unit: Unit } | null {
  const match = GRAMMAR.exec(raw);
  return match ? { amount: match[1] as string, unit: match[2] as Unit } : null;
}

function tooLong(): never {
  throw new DomainError('duration', 'the duration is too long');
}

/** Whether `raw` is a DURATION: a positive integer (no leading zero) followed by s, m, h or d. */
export function isDuration(raw: string): boolean {
  const parts = read(raw);
  return parts !== null && parts.unit !== 'ms' && !parts.amount.startsWith('0');
}

/** A DURATION in seconds (`90d` → 7776000). */
export function parseDuration(raw: string): number {
  if (!isDuration(raw)) {
    throw new DomainError(
      'duration',
      'DURATION must be a positive integer followed by s, m, h or d, e.g. 90d',
    );
  }
  const { amount, unit } = read(raw) as { amount: string; unit: keyof typeof SECONDS_PER_UNIT };
  const seconds = Number(amount) * SECONDS_PER_UNIT[unit];
  if (!Number.isSafeInteger(seconds)) tooLong();
  return seconds;
}

/** A duration of a setting in milliseconds: also `ms` and zero (`250ms`, `0s`, `30s`). */
export function parseDurationMs(raw: string): number {
  const parts = read(raw);
  if (!parts) {
    throw new DomainError(
      'duration',
      'a duration must be a whole number followed by ms, s, m, h or d, e.g. 30s or 250ms',
    );
  }
  const ms = Number(parts.amount) * MS_PER_UNIT[parts.unit];
  if (!Number.isSafeInteger(ms)) tooLong();
  return ms;
}

/** Seconds back in DURATION form, with the largest unit that divides it (60 → 1m). */
export function formatDuration(seconds: number): string {
  for (const unit of ['d', 'h', 'm'] as const) {
    if (seconds % SECONDS_PER_UNIT[unit] === 0) return `${seconds / SECONDS_PER_UNIT[unit]}${unit}`;
  }
  return `${seconds}s`;
}
