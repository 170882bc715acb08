/**
 * The text renderings of the tools' answers: short, for a model to read (a table of items, a
 * few lines of an organization), beside the structured content that carries the exact body.
 */

/** The longest cell of a table; longer values are cut with "…" (the structured content is whole). */
const MAX_CELL = 80;

/** Columns of an item table when `fields` chose none: what tells items apart at a glance. */
const DEFAULT_COLUMNS = ['_id', 'name', 'sku', 'barcode', 'status', 'quantity'];

/** A value as one table cell: on one line, pipes escaped, cut when long. */
export function cell(value: unknown): string {
  let text: string;
  if (value === null || value === undefined) text = '—';
  else if (typeof value === 'string') text = value;
  else text = JSON.stringify(value);
  text = text.replace(/\s+/g, ' ').replace(/\|/g, '\\|');
  return text.length > MAX_CELL ? `${text.slice(0, MAX_CELL - 1)}…` : text;
}

/** A Markdown table of records: the given columns, one row per record. */
export function table(
  columns: readonly string[],
  rows: readonly Record<string, unknown>[],
): string {
  const head = `| ${columns.join(' | ')} |`;
  const rule = `| ${columns.map(() => '---').join(' | ')} |`;
  const body = rows.map((row) => `| ${columns.map((column) => cell(row[column])).join(' | ')} |`);
  return [head, rule, ...body].join('\n');
}

/** The columns of an item table: the fields the items carry, or the default ones. */
export function itemColumns(items: readonly Record<string, unknown>[]): string[] {
  const first = items[0];
  if (!first) return DEFAULT_COLUMNS;
  const fields = Object.keys(first);
  // Every field (no `fields` argument): the default columns; the rest is in get_item.
  if (fields.length >= 10) return DEFAULT_COLUMNS;
  // The organization is the same on every row: a column only when it alone was asked for.
  const shown = fields.filter((field) => field !== 'organizationId');
  return shown.length > 0 ? shown : fields;
}

/** A record as `name: value` lines (an item, an organization). */
export function lines(record: Record<string, unknown>): string {
  return Object.entries(record)
    .map(([name, value]) => {
      if (value === null) return `${name}: —`;
      return `${name}: ${typeof value === 'string' ? value : JSON.stringify(value)}`;
    })
    .join('\n');
}
