import { isLocationCode } from '../store/items/stock.js';
import { DomainError } from './errors.js';

/** A location's name: what people call the place (1–200 characters). */
export const MAX_LOCATION_NAME = 200;

/** A location code: 1–32 characters of [A-Za-z0-9._-], case-sensitive (issue 31). */
export function locationCodeProblem(code: string): string | null {
  if (isLocationCode(code)) return null;
  return `a location code is 1-32 characters of A-Z, a-z, 0-9, ".", "_" and "-" (e.g. WH-1), got ${JSON.stringify(code.slice(0, 40))}`;
}

export function parseLocationCode(raw: string): string {
  const problem = locationCodeProblem(raw);
  if (problem) throw new DomainError('code', problem);
  return raw;
}

export function parseLocationName(raw: string): string {
  const name = raw.trim();
  if (name.length === 0 || [...name].length > MAX_LOCATION_NAME) {
    throw new DomainError(
      'name',
      `a location name is 1-${MAX_LOCATION_NAME} characters (not only spaces), got ${JSON.stringify(raw.slice(0, 40))}`,
    );
  }
  if (name.includes('\u0000')) throw new DomainError('name', 'a location name cannot hold U+0000');
  return name;
}
