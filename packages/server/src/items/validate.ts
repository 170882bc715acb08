import { nonFiniteQuantityReason, stockSumReason } from '../domain/quantity.js';
import { MAX_SKU_LENGTH } from '../domain/sku.js';
import { isLocationCode, stockText } from '../store/items/stock.js';
import { ITEM_STATUSES, type ItemFields } from '../store/types.js';
import { type ImportField, isStockColumn, lookupField, unknownNames } from './fields.js';
import type { RawRecord } from './records.js';

/** The limits of an item's fields, the same on every path that writes items. */
export const LIMITS = {
  name: 200,
  description: 5000,
  sku: MAX_SKU_LENGTH,
  barcode: 100,
  customFieldsBytes: 16 * 1024,
  /**
   * How deep objects and arrays may nest in customFields, customFields itself being level 1
   * (`{"a":{"b":[1]}}` is 3 deep). Checked before anything recursive touches the value: JSON.parse
   * builds any depth, but JSON.stringify and serializers recurse, and a few thousand levels (a
   * 9 KB body) overflow the stack.
   */
  customFieldsDepth: 32,
} as const;

/**
 * How deep `value` nests objects and arrays (a scalar is 0, `{}` is 1), counted without
 * recursion and only up to `max + 1`: a result above `max` means "more than max".
 */
export function nestingDepth(value: unknown, max: number): number {
  if (typeof value !== 'object' || value === null) return 0;
  let deepest = 1;
  const stack: Array<[object, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [object, number];
    if (depth > deepest) deepest = depth;
    if (deepest > max) return deepest;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return deepest;
}

/**
 * Why a customFields value nests too deep, or null. The one nesting rule of every path that
 * writes items: imports (JSON, NDJSON, CSV, both modes) reject the row with it, and the admin
 * API's bulk upsert answers 400 with it.
 */
export function customFieldsNestingReason(value: unknown): string | null {
  const max = LIMITS.customFieldsDepth;
  if (nestingDepth(value, max) <= max) return null;
  return `customFields nests objects and arrays more than ${max} levels deep; the maximum is ${max} (customFields itself is level 1)`;
}

/**
 * A rejected row still reports its sku when that field itself was fine, so a later row with the
 * same sku is recognised as a duplicate even though this one failed.
 */
export type Checked = { fields: ItemFields } | { reason: string; sku?: string };

/** A rejected value; a class so a customFields object with a "reason" key is never mistaken for one. */
class Rejected {
  constructor(readonly reason: string) {}
}

/**
 * Bad values are quoted back, shortened so one reason stays one readable line. A value nested
 * too deep to write back safely is only named by its type.
 */
function shown(value: unknown): string {
  if (nestingDepth(value, LIMITS.customFieldsDepth) > LIMITS.customFieldsDepth) {
    return typeName(value);
  }
  const text = String(JSON.stringify(value));
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

/** Characters are code points, so an emoji counts once. */
function length(text: string, max: number): number {
  // UTF-16 units bound code points from above: only a string longer than max needs counting.
  return text.length <= max ? text.length : [...text].length;
}

function text(
  field: ImportField,
  value: unknown,
  max: number,
  opts: { nullable: boolean; min: number },
): string | null | Rejected {
  if (value === null) {
    return opts.nullable ? null : new Rejected(`${field} is required and cannot be empty`);
  }
  if (typeof value !== 'string') {
    const expected = opts.nullable ? 'a string or null' : 'a string';
    return new Rejected(`${field} must be ${expected}, got ${typeName(value)}`);
  }
  const n = length(value, max);
  if (n < opts.min) return new Rejected(`${field} cannot be an empty string`);
  if (n > max) return new Rejected(`${field} is ${n} characters long; the maximum is ${max}`);
  return value;
}

/**
 * Checks one field value (already converted from CSV text where needed) and returns what the
 * store takes, or why the row is rejected.
 */
function checkValue(field: ImportField, value: unknown): unknown {
  switch (field) {
    case 'name':
      return text(field, value, LIMITS.name, { nullable: false, min: 1 });
    case 'description':
      return text(field, value, LIMITS.description, { nullable: true, min: 0 });
    // sku is the upsert key: an empty string would be a key nobody can type; "no sku" is null.
    case 'sku':
      return text(field, value, LIMITS.sku, { nullable: true, min: 1 });
    case 'barcode':
      return text(field, value, LIMITS.barcode, { nullable: true, min: 0 });
    case 'status':
      if (typeof value === 'string' && (ITEM_STATUSES as readonly string[]).includes(value)) {
        return value;
      }
      if (value === null) return new Rejected('status is required and cannot be empty');
      return new Rejected(
        `status must be one of ${ITEM_STATUSES.join(', ')} (exact case), got ${shown(value)}`,
      );
    case 'quantity':
      if (typeof value === 'number') {
        const beyond = nonFiniteQuantityReason('quantity', value);
        return beyond ? new Rejected(beyond) : value;
      }
      if (value === null) return new Rejected('quantity is required and cannot be empty');
      return new Rejected(`quantity must be a finite number, got ${shown(value)}`);
    case 'customFields': {
      if (value === null) {
        return new Rejected('customFields cannot be empty; use {} for no custom fields');
      }
      if (typeof value !== 'object' || Array.isArray(value)) {
        return new Rejected(`customFields must be a JSON object, got ${typeName(value)}`);
      }
      const tooDeep = customFieldsNestingReason(value);
      if (tooDeep) return new Rejected(tooDeep);
      // Stored compact, exactly as JSON.stringify writes it, so the API returns these bytes.
      const stored = JSON.stringify(value);
      const bytes = Buffer.byteLength(stored);
      if (bytes > LIMITS.customFieldsBytes) {
        return new Rejected(
          `customFields is ${bytes} bytes as compact JSON; the maximum is ${LIMITS.customFieldsBytes} (16 KiB)`,
        );
      }
      return stored;
    }
    case 'stock':
      return checkStock(value);
  }
}

/** Locations one item's stock may name (an organization has far fewer). */
const MAX_STOCK_ENTRIES = 1000;

/**
 * `stock`: `{ "CODE": quantity, … }`, or the API's own `[{ "location", "quantity" }]` (so an
 * exported item re-imports). Codes are checked for their form here and against the
 * organization's locations by the store, which also checks the quantity against the sum.
 */
function checkStock(value: unknown): string | Rejected {
  if (value === null) return new Rejected('stock cannot be null; use {} for no stock rows');
  let entries: Array<[string, unknown]>;
  if (Array.isArray(value)) {
    entries = [];
    for (const entry of value) {
      if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
        return new Rejected('stock as an array holds objects { "location": CODE, "quantity": N }');
      }
      const { location, quantity } = entry as { location?: unknown; quantity?: unknown };
      if (typeof location !== 'string') {
        return new Rejected('each entry of stock needs "location", the location code (a string)');
      }
      entries.push([location, quantity]);
    }
  } else if (typeof value === 'object') {
    entries = Object.entries(value);
  } else {
    return new Rejected(
      `stock must be a JSON object such as {"WH-1": 12, "SHOP": 3}, got ${typeName(value)}`,
    );
  }
  if (entries.length > MAX_STOCK_ENTRIES) {
    return new Rejected(
      `stock has ${entries.length} locations; the maximum is ${MAX_STOCK_ENTRIES}`,
    );
  }
  const stock: Record<string, number> = {};
  const seen = new Set<string>();
  for (const [code, quantity] of entries) {
    if (!isLocationCode(code)) {
      return new Rejected(
        `stock names ${shown(code)}, which is not a location code (1–32 characters of A-Z, a-z, 0-9, ".", "_", "-")`,
      );
    }
    if (seen.has(code)) return new Rejected(`stock names the location ${code} twice`);
    seen.add(code);
    if (typeof quantity !== 'number') {
      return new Rejected(`stock.${code} must be a finite number, got ${shown(quantity)}`);
    }
    const beyond = nonFiniteQuantityReason(`stock.${code}`, quantity);
    if (beyond) return new Rejected(beyond);
    if (quantity < 0) return new Rejected(`stock.${code} cannot be negative, got ${quantity}`);
    stock[code] = quantity;
  }
  const overflow = stockSumReason(sumOf(Object.values(stock)));
  return overflow ? new Rejected(overflow) : stockText(stock);
}

function sumOf(quantities: readonly number[]): number {
  let sum = 0;
  for (const quantity of quantities) sum += quantity;
  return sum;
}

/**
 * The first number of a JSON row that no quantity can hold (a `quantity` or a stock quantity
 * beyond a double, as `1e400` parses, or stock adding up past one), as the body field at fault
 * and why; null when there is none. The admin API refuses a request holding one with a 400
 * naming the field (docs/architecture.md#errors), before any row is checked or written.
 */
export function unholdableNumber(row: unknown): { field: string; reason: string } | null {
  if (typeof row !== 'object' || row === null || Array.isArray(row)) return null;
  const { quantity, stock } = row as { quantity?: unknown; stock?: unknown };
  if (typeof quantity === 'number') {
    const reason = nonFiniteQuantityReason('quantity', quantity);
    if (reason) return { field: 'quantity', reason };
  }
  if (typeof stock !== 'object' || stock === null) return null;
  const entries: Array<[string, unknown]> = Array.isArray(stock)
    ? stock.map((entry, i) => [
        `${i}.quantity`,
        typeof entry === 'object' && entry !== null
          ? (entry as { quantity?: unknown }).quantity
          : undefined,
      ])
    : Object.entries(stock);
  const finite: number[] = [];
  for (const [name, value] of entries) {
    if (typeof value !== 'number') continue;
    const reason = nonFiniteQuantityReason(`stock.${name}`, value);
    if (reason) return { field: `stock.${name}`, reason };
    finite.push(value);
  }
  const overflow = stockSumReason(sumOf(finite));
  return overflow ? { field: 'stock', reason: overflow } : null;
}

/** Strict decimal number: optional sign, digits with an optional fraction, optional exponent. */
const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** What an empty CSV cell means for a field that cannot be null: absent, or a value. */
const EMPTY_CELL: Partial<Record<ImportField, unknown>> = {
  // The contract: an empty customFields cell sets {} (spreadsheets leave the cell blank).
  customFields: {},
  // status and quantity cannot be null and have defaults: an empty cell is as if the column
  // were absent for that row (Draft and 0 on create, as stored on update).
  status: undefined,
  quantity: undefined,
};

/**
 * CSV cells are text: an empty cell is null where null is allowed (there is no other way to
 * write one), `{}` for customFields and "absent" for status and quantity (EMPTY_CELL; an empty
 * name stays an error: a row needs one to create); quantity must be a plain decimal number
 * (Number() alone would take "0x1A", " 1 " and "" too, hence the pattern), and customFields is
 * one JSON cell.
 */
function fromCell(field: ImportField, cell: string): unknown {
  if (cell === '') return field in EMPTY_CELL ? EMPTY_CELL[field] : null;
  if (field === 'quantity') {
    return NUMBER.test(cell)
      ? Number(cell)
      : new Rejected(`quantity must be a number such as 12 or 12.5, got ${shown(cell)}`);
  }
  if (field === 'customFields') {
    try {
      return JSON.parse(cell) as unknown;
    } catch (error) {
      return new Rejected(`customFields is not valid JSON: ${(error as Error).message}`);
    }
  }
  return cell;
}

function checkCsv(record: Extract<RawRecord, { kind: 'csv' }>): Checked {
  const { columns, cells } = record;
  if (cells.length !== columns.length) {
    return {
      reason: `expected ${columns.length} fields (one per header column), found ${cells.length}`,
    };
  }
  const values: Array<[ImportField, unknown] | Rejected> = [];
  // stock.CODE columns make one stock object: an empty cell means no row at that location.
  let stock: Record<string, number> | undefined;
  for (let i = 0; i < columns.length; i++) {
    const column = columns[i];
    if (!column) continue;
    const cell = cells[i] as string;
    if (isStockColumn(column)) {
      stock ??= {};
      if (cell === '') continue;
      if (NUMBER.test(cell)) stock[column.slice('stock.'.length)] = Number(cell);
      else
        values.push(
          new Rejected(`${column} must be a number such as 12 or 12.5, got ${shown(cell)}`),
        );
      continue;
    }
    const value = fromCell(column, cell);
    if (value !== undefined) values.push([column, value]);
  }
  if (stock !== undefined) values.push(['stock', stock]);
  return collect(values);
}

/** Every problem of a row in one reason, so one pass over the errors fixes the row. */
function collect(values: Array<[ImportField, unknown] | Rejected>): Checked {
  const fields: Record<string, unknown> = {};
  const reasons: string[] = [];
  for (const entry of values) {
    if (entry instanceof Rejected) {
      reasons.push(entry.reason);
      continue;
    }
    const [field, raw] = entry;
    const value = raw instanceof Rejected ? raw : checkValue(field, raw);
    if (value instanceof Rejected) reasons.push(value.reason);
    else fields[field] = value;
  }
  if (reasons.length === 0) return { fields: fields as ItemFields };
  const sku = typeof fields.sku === 'string' ? fields.sku : undefined;
  return sku === undefined ? { reason: reasons.join('; ') } : { reason: reasons.join('; '), sku };
}

function checkJson(record: Extract<RawRecord, { kind: 'json' }>): Checked {
  const { value } = record;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { reason: `expected a JSON object for the item, got ${typeName(value)}` };
  }
  const values: Array<[ImportField, unknown] | Rejected> = [];
  // An unknown property is a problem of this record only (unlike a CSV column, which every
  // row has): the row is rejected, naming it first, and the other rows are imported.
  const unknown: string[] = [];
  for (const [name, raw] of Object.entries(value)) {
    const field = lookupField(name);
    if (field === undefined) unknown.push(name);
    else if (field) values.push([field, raw]);
  }
  if (unknown.length > 0) values.unshift(new Rejected(unknownNames(unknown, 'field')));
  return collect(values);
}

/**
 * Turns a record into item fields, or the reason it is rejected. Only the fields the record
 * carries are set: an absent one stays `undefined`, which the store reads as "leave as stored".
 */
export function checkRecord(record: RawRecord): Checked {
  return record.kind === 'csv' ? checkCsv(record) : checkJson(record);
}
