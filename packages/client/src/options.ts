import type { RequestOptions } from './types.js';

/**
 * Validation of the numeric options, shared by the constructor and the per-call options: a
 * NaN timeout would fire at once, a negative one too, and `Infinity` retries would never stop.
 */

/** `fallback` when absent; otherwise a finite number ≥ `min`, or a RangeError naming the option. */
export function numberOption(
  name: string,
  value: number | undefined,
  fallback: number,
  min: number,
): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min) {
    throw new RangeError(
      `Stockroom: ${name} must be a finite number ≥ ${min}, got ${String(value)}.`,
    );
  }
  return value;
}

export interface CallLimits {
  /** Time allowed for each attempt. */
  timeoutMs: number;
  /** Retries after the first attempt. */
  maxRetries: number;
}

/** The limits of one call: its own options where given, the client's otherwise. */
export function callLimits(options: RequestOptions, defaults: CallLimits): CallLimits {
  return {
    timeoutMs: numberOption('timeoutMs', options.timeoutMs, defaults.timeoutMs, 1),
    // A fractional count of retries means its whole part.
    maxRetries: Math.floor(numberOption('maxRetries', options.maxRetries, defaults.maxRetries, 0)),
  };
}
