/**
 * Quantities are finite numbers (docs/architecture.md#items). JSON and CSV can still spell a
 * number too large for a double (`1e400` parses to Infinity), and the sum of finite stock
 * quantities can overflow (`1e308 + 1e308`): stored, either would be served as `null`. These
 * are the words every path that writes items uses for both: the row checks of imports, the
 * admin API's 400 and the store's own refusal.
 */

/** The largest quantity a double holds; JSON and CSV numbers beyond it parse to Infinity. */
export const MAX_QUANTITY = Number.MAX_VALUE;

/** Why `value` (a number) cannot be stored as the quantity named `field`, or null. */
export function nonFiniteQuantityReason(field: string, value: number): string | null {
  if (Number.isFinite(value)) return null;
  if (Number.isNaN(value)) return `${field} is not a number (NaN); give a finite number`;
  return `${field} is beyond ${value > 0 ? '' : '-'}${MAX_QUANTITY}, the largest number a quantity can hold; give a smaller number`;
}

/** Why stock rows whose quantities add up to `sum` cannot be stored, or null. */
export function stockSumReason(sum: number): string | null {
  if (Number.isFinite(sum)) return null;
  return `the quantities of stock add up to more than ${MAX_QUANTITY}, the largest number a quantity can hold, and an item's quantity is their sum; give smaller quantities`;
}
