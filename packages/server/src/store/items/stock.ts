import { nonFiniteQuantityReason, stockSumReason } from '../../domain/quantity.js';

/**
 * Stock per location (issue 31), the rules every engine shares. An item's stock rows are kept
 * twice: as the item's `stock` column, canonical JSON text `[{"location":CODE,"quantity":N}]`
 * ordered by code (what the API returns as is, and what an upsert compares), and as rows of
 * `item_stock`, whose index serves the `location=` filter.
 */

export interface StockEntry {
  location: string;
  quantity: number;
}

/** A location code: 1–32 characters of [A-Za-z0-9._-], case-sensitive. */
export const LOCATION_CODE_PATTERN = '^[A-Za-z0-9._-]{1,32}$';
const LOCATION_CODE = new RegExp(LOCATION_CODE_PATTERN);

export function isLocationCode(value: string): boolean {
  return LOCATION_CODE.test(value);
}

/** Codes compare by UTF-16 code unit (they are ASCII): the order of PostgreSQL's "C" and SQLite's BINARY. */
function byCode(a: StockEntry, b: StockEntry): number {
  return a.location < b.location ? -1 : a.location > b.location ? 1 : 0;
}

/** The canonical text of stock rows: one entry per code, ordered by code. */
export function stockText(stock: Readonly<Record<string, number>> | readonly StockEntry[]): string {
  const entries: StockEntry[] = Array.isArray(stock)
    ? (stock as StockEntry[]).map((entry) => ({
        location: entry.location,
        quantity: entry.quantity,
      }))
    : Object.entries(stock).map(([location, quantity]) => ({ location, quantity }));
  entries.sort(byCode);
  return JSON.stringify(entries);
}

export function parseStock(text: string): StockEntry[] {
  return JSON.parse(text) as StockEntry[];
}

export function stockSum(entries: readonly StockEntry[]): number {
  let sum = 0;
  for (const entry of entries) sum += entry.quantity;
  return sum;
}

/**
 * Why stock rows cannot be stored (an unknown code, a negative or non-finite quantity, or
 * quantities whose sum, the item's quantity, is not finite), or null.
 */
export function stockProblem(
  entries: readonly StockEntry[],
  known: ReadonlySet<string>,
): string | null {
  for (const { location, quantity } of entries) {
    if (!known.has(location)) {
      return `stock names the location ${JSON.stringify(location)}, which this organization does not have; create it first (stockroom location create) or fix the code (codes are case-sensitive)`;
    }
    if (typeof quantity !== 'number') {
      return `stock.${location} must be a finite number, got ${JSON.stringify(quantity) ?? String(quantity)}`;
    }
    const beyond = nonFiniteQuantityReason(`stock.${location}`, quantity);
    if (beyond) return beyond;
    if (quantity < 0) return `stock.${location} cannot be negative, got ${quantity}`;
  }
  return stockSumReason(stockSum(entries));
}

/** An item's stock after its rows at one location are removed, and its new quantity. */
export function withoutLocation(text: string, code: string): { stock: string; quantity: number } {
  const left = parseStock(text).filter((entry) => entry.location !== code);
  return { stock: JSON.stringify(left), quantity: stockSum(left) };
}
