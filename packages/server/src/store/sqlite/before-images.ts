import type { ItemScope } from '../types.js';
import { scopeSql } from './item-scope.js';

/**
 * Whether a key could have seen an item at some point after the position `seenAfterSeq`, from
 * the before-images of its changes (item_changes, migration 11), as an SQL condition on SQLite
 * and its parameters. `ref` names the columns of the row being judged (an item outside the
 * scope now, or a tombstone): its organization, its item id, and for a tombstone its number.
 *
 * Each change that altered what a view filters on left a record of the item as it was before:
 * the first record after the position holds the item as it was at the position, each next one
 * the item as the previous one left it, and the item now is outside the scope (or deleted:
 * its deletion's record holds it as it was last). An item with no record after the position
 * looked then as it does now. Before stockroom_meta.before_images_from, or for a deletion
 * without its record (a previous release's), what the key saw is unknown: the item is named,
 * as before before-images.
 */
export function seenSinceSql(
  scope: ItemScope,
  seenAfterSeq: number,
  ref: { organization: string; item: string; tombstone: string | null },
): { sql: string; params: unknown[] } {
  const { organization, item, tombstone } = ref;
  const image = beforeImageScopeSql(scope, 'c');
  const records = `FROM item_changes c WHERE c.organization_id = ${organization} AND c.item_id = ${item}`;
  const unrecorded =
    tombstone === null ? '' : ` OR NOT EXISTS (SELECT 1 ${records} AND c.seq = ${tombstone})`;
  return {
    sql: `(? < COALESCE((SELECT CAST(value AS INTEGER) FROM stockroom_meta WHERE key = 'before_images_from'), 9e18)${unrecorded}
      OR EXISTS (SELECT 1 ${records} AND c.seq > ?${image.sql}))`,
    params: [seenAfterSeq, seenAfterSeq, ...image.params],
  };
}

/** The key's scope tested on a before-image under `alias` (status, custom_fields, stock). */
function beforeImageScopeSql(scope: ItemScope, alias: string): { sql: string; params: unknown[] } {
  // Status and custom fields read as the item's own columns do.
  const { sql, params } = scopeSql(
    {
      ...(scope.statuses === undefined ? {} : { statuses: scope.statuses }),
      ...(scope.customFields === undefined ? {} : { customFields: scope.customFields }),
    },
    alias,
  );
  // Stock was more than 0 there: read from the stock text (store/items/stock.ts).
  const codes = scope.locations ?? [];
  const stock = codes.map(
    () => ` AND EXISTS (SELECT 1 FROM json_each(${alias}.stock) vs
      WHERE json_extract(vs.value, '$.location') = ? AND json_extract(vs.value, '$.quantity') > 0)`,
  );
  return { sql: sql + stock.join(''), params: [...params, ...codes] };
}
