import type { ItemQuery, ItemScope } from './types.js';

/**
 * A query with its key's scope folded in where an index can serve it, the same on every
 * engine: a scope of one status becomes the `status` filter (the (organization_id, status, id)
 * index), a scope's first location the `location` filter (the walk of item_stock_positive).
 * What is left of the scope stays in `scope`, tested on the rows those indexes deliver.
 * Null when the query and the scope exclude each other (a status the scope does not allow):
 * no row can match.
 */
export function foldScope(query: ItemQuery): ItemQuery | null {
  const scope = query.scope;
  if (scope === undefined) return query;
  const rest: { -readonly [K in keyof ItemScope]: ItemScope[K] } = { ...scope };
  let status = query.status;
  if (scope.statuses !== undefined) {
    if (status !== undefined) {
      if (!scope.statuses.includes(status)) return null;
      delete rest.statuses;
    } else if (scope.statuses.length === 0) {
      return null;
    } else if (scope.statuses.length === 1) {
      status = scope.statuses[0];
      delete rest.statuses;
    }
  }
  let location = query.location;
  if (scope.locations !== undefined && scope.locations.length > 0) {
    const others = scope.locations.filter((code) => code !== location);
    if (location === undefined) location = others.shift();
    if (others.length > 0) rest.locations = others;
    else delete rest.locations;
  }
  return {
    ...query,
    ...(status === undefined ? {} : { status }),
    ...(location === undefined ? {} : { location }),
    scope: rest,
  };
}

/** Whether a scope tests anything on a row (searchFields only narrows what search matches). */
export function filtersRows(scope: ItemScope | undefined): boolean {
  return (
    scope !== undefined &&
    (scope.statuses !== undefined ||
      (scope.locations !== undefined && scope.locations.length > 0) ||
      (scope.customFields !== undefined && scope.customFields.length > 0))
  );
}
