import { type ItemScope, SEARCH_FIELDS } from '../types.js';
import { FIELD_SEPARATOR } from './search-text.js';

/**
 * A key's scope (ItemScope) as SQL conditions on PostgreSQL, on the items table under `alias`;
 * each value is pushed onto `params` and named by its placeholder. Applied inside the
 * statements themselves, so pages stay full and cursors exact.
 */
export function scopeConditions(
  scope: ItemScope | undefined,
  alias: string,
  params: unknown[],
): string[] {
  if (scope === undefined) return [];
  const conditions: string[] = [];
  const placeholder = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  if (scope.statuses !== undefined) {
    conditions.push(`${alias}.status = ANY(${placeholder(scope.statuses)}::text[])`);
  }
  for (const code of scope.locations ?? []) {
    conditions.push(`EXISTS (SELECT 1 FROM item_stock vs WHERE vs.organization_id = ${alias}.organization_id
      AND vs.item_id = ${alias}.id AND vs.location_code = ${placeholder(code)} AND vs.quantity > 0)`);
  }
  // A CASE, not an AND: PostgreSQL has no statistics on the expression and estimates each
  // equality at 0.5%, the AND of two at 0.0025%, and then plans a page as a scan of the whole
  // organization and a sort (5 s at 1M items, bench "view: custom field list") rather than the
  // walk in id order that finds a 1-in-5 value after 500 rows. A CASE is estimated at 50%.
  for (const { name, value } of scope.customFields ?? []) {
    const key = placeholder(name);
    conditions.push(
      `CASE WHEN json_typeof(${alias}.custom_fields -> ${key}::text) = 'string' THEN ${alias}.custom_fields ->> ${key}::text = ${placeholder(value)} ELSE false END`,
    );
  }
  return conditions;
}

/**
 * The condition that the LIKE pattern `pattern` (a placeholder) matches only in the parts of
 * `searchText` (an expression of search_text) the scope lets a needle see; null when every
 * searchable field is visible. The parts are split at the separator no folded text holds.
 */
export function searchFieldsCondition(
  scope: ItemScope | undefined,
  searchText: string,
  pattern: string,
): string | null {
  const visible = scope?.searchFields;
  if (visible === undefined) return null;
  const parts = SEARCH_FIELDS.flatMap((field, k) =>
    visible.includes(field)
      ? [`split_part(${searchText}, '${FIELD_SEPARATOR}', ${k + 1}) LIKE ${pattern}`]
      : [],
  );
  return parts.length === 0 ? 'false' : `(${parts.join(' OR ')})`;
}
