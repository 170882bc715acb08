/**
 * Stored times are epoch milliseconds; every answer shows them as ISO 8601 UTC with a four-digit
 * year (`2026-11-22T05:01:04.123Z`). The CLI refuses to write a time outside that range, but a
 * row can still hold one (a key created before expiries were bounded, a database edited by
 * hand), and `toISOString` throws on values past ±8.64e15 and writes six-digit years before
 * that: such a value is shown clamped to the nearest end of years 0000–9999 rather than turning
 * a listing or an API answer into an error.
 */
export const MIN_TIME = Date.parse('0000-01-01T00:00:00.000Z');
export const MAX_TIME = Date.parse('9999-12-31T23:59:59.999Z');

export function isoTime(ms: number): string {
  // Not a number at all (a text value in a SQLite column) reads as the far end: for an expiry,
  // that is what the API's `expiresAt <= now` check makes of it too (never expired).
  const value = Number(ms);
  const clamped = Number.isNaN(value)
    ? MAX_TIME
    : Math.min(Math.max(Math.trunc(value), MIN_TIME), MAX_TIME);
  return new Date(clamped).toISOString();
}
