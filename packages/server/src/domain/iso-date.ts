import { DomainError } from './errors.js';

const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?$/;

/**
 * An ISO 8601 date (`2027-01-31`, midnight UTC) or date-time with an explicit zone
 * (`2027-01-31T18:00:00Z`, `…+02:00`), in epoch milliseconds. A zone-less time would silently
 * mean this machine's local time, so it is refused; impossible dates (Feb 30) are refused
 * rather than rolled over.
 */
export function parseIsoDate(raw: string): number {
  const match = ISO.exec(raw);
  const hint = 'use an ISO 8601 date such as 2027-01-31 or 2027-01-31T18:00:00Z';
  if (!match) throw new DomainError('date', hint);
  const [, y, mo, d, h = '0', mi = '0', s = '0'] = match;
  const wall = new Date(
    Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)),
  );
  const sameWall =
    wall.getUTCFullYear() === Number(y) &&
    wall.getUTCMonth() === Number(mo) - 1 &&
    wall.getUTCDate() === Number(d) &&
    wall.getUTCHours() === Number(h) &&
    wall.getUTCMinutes() === Number(mi) &&
    wall.getUTCSeconds() === Number(s);
  const ms = Date.parse(raw);
  if (!sameWall || Number.isNaN(ms))
    throw new DomainError('date', `${raw} is not a real date; ${hint}`);
  return ms;
}
