import { DomainError } from './errors.js';

/** The longest sku, in characters (code points): the CLI, the admin API and imports agree. */
export const MAX_SKU_LENGTH = 100;

/** A sku exactly as stored (not trimmed: it is matched byte for byte). */
export function parseSku(raw: string): string {
  if (raw.length === 0 || [...raw].length > MAX_SKU_LENGTH) {
    throw new DomainError('sku', `must be 1-${MAX_SKU_LENGTH} characters`);
  }
  return raw;
}
