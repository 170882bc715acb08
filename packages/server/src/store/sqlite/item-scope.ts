import { type ItemScope, SEARCH_FIELDS, type SearchField } from '../types.js';

/**
 * A key's scope (ItemScope) as SQL conditions on SQLite, each starting with ` AND `, on the
 * items table under `alias`, with their parameters in order. Applied inside the statements
 * themselves, so pages stay full and cursors exact.
 */
export function scopeSql(
  scope: ItemScope | undefined,
  alias: string,
): { sql: string; params: unknown[] } {
  let sql = '';
  const params: unknown[] = [];
  if (scope === undefined) return { sql, params };
  if (scope.statuses !== undefined) {
    sql += ` AND ${alias}.status IN (${scope.statuses.map(() => '?').join(', ') || 'NULL'})`;
    params.push(...scope.statuses);
  }
  for (const code of scope.locations ?? []) {
    sql += ` AND EXISTS (SELECT 1 FROM item_stock vs WHERE vs.organization_id = ${alias}.organization_id
      AND vs.item_id = ${alias}.id AND vs.location_code = ? AND vs.quantity > 0)`;
    params.push(code);
  }
  // json_each rather than a JSON path: a path cannot spell every key (quotes, dots).
  for (const { name, value } of scope.customFields ?? []) {
    sql += ` AND EXISTS (SELECT 1 FROM json_each(${alias}.custom_fields) vf
      WHERE vf.key = ? AND vf.type = 'text' AND vf.value = ?)`;
    params.push(name, value);
  }
  return { sql, params };
}

/**
 * The condition that a search needle matches only the fields the scope lets it see, beside
 * the match on the whole search_text (which the index plans serve): ` AND …` and its
 * parameters, or nothing when every searchable field is visible.
 */
export function searchFieldsSql(
  scope: ItemScope | undefined,
  alias: string,
  needle: string,
): { sql: string; params: unknown[] } {
  if (scope?.searchFields === undefined) return { sql: '', params: [] };
  return {
    sql: ` AND ${VISIBLE_MATCH}(${alias}.search_text, ?, ?) = 1`,
    params: [needle, fieldMask(scope.searchFields)],
  };
}

/** The SQL function searchFieldsSql calls (registered on every connection, connection.ts). */
export const VISIBLE_MATCH = 'stockroom_visible_match';

/** Which of search_text's four parts may match, as a string of 0s and 1s. */
function fieldMask(fields: readonly string[]): string {
  return SEARCH_FIELDS.map((field) => (fields.includes(field) ? '1' : '0')).join('');
}

/**
 * Whether the needle is in one of the parts of search_text (U+0000-separated, store/search.ts)
 * that the mask allows.
 */
export function visibleMatch(searchText: string, needle: string, mask: string): number {
  const parts = searchText.split('\u0000');
  for (let k = 0; k < parts.length; k++) {
    if (mask[k] === '1' && (parts[k] as string).includes(needle)) return 1;
  }
  return 0;
}

/** The SQL function that reads one part of search_text (registered on every connection). */
export const SEARCH_PART = 'stockroom_search_part';

/** Part `k` of search_text (U+0000-separated, store/search.ts), in SEARCH_FIELDS order. */
export function searchPart(searchText: string, k: number): string {
  return searchText.split('\u0000')[k] ?? '';
}

/** The trigram index of one searchable field's part of search_text (migration 13). */
export function searchFieldTable(field: SearchField): string {
  return `items_search_${field}`;
}

/**
 * The statements that index the rows `pending` selects (a subquery of `seq`s, as `p`) in the
 * per-field indexes, beside items_search: run wherever items_search's queue is indexed.
 */
export function indexFieldsSql(pending: string): string[] {
  return SEARCH_FIELDS.map(
    (field, k) =>
      `INSERT INTO ${searchFieldTable(field)} (rowid, text)
       SELECT i.seq, ${SEARCH_PART}(i.search_text, ${k}) FROM ${pending} p JOIN items i ON i.seq = p.seq`,
  );
}
