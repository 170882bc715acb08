import { DomainError } from './errors.js';

/** Trimmed text of 1..max characters (names of organizations, users, keys). */
export function textParser(max: number): (raw: string) => string {
  return (raw) => {
    const value = raw.trim();
    if (value.length === 0) throw new DomainError('text', 'must not be empty');
    if ([...value].length > max) throw new DomainError('text', `must be at most ${max} characters`);
    return value;
  };
}
