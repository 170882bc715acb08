import type { ItemScope } from '../types.js';
import { scopeSql } from './item-scope.js';

/**
 * Whether a key could have seen an item at some point after the position `seenAfterSeq`, from
 * the before-images of its changes (item_changes, migration 11), as an SQL condition on SQLite
 * and its parameters. `ref` names the columns of the row being judged: its organization, its
 * item id, its latest change (an item's change_seq, a tombstone's seq) and, for an item, the
 * number of its creation.
 *
 * The states of the item after the position are the before-images of its changes after it:
 * the first one's is its state at the position, each next one's the state the previous change
 * left. When those records do not reach back to the position without a gap (changes made
 * before migration 11, or records purged), the condition holds: what the key saw is unknown,
 * so the item is named, as it was before before-images. A change whose previous change is the
 * item's creation ends the chain too: before the creation there was nothing to see.
 */
export function seenSinceSql(
  scope: ItemScope,
  seenAfterSeq: number,
  ref: { organization: string; item: string; latest: string; created: string | null },
): { sql: string; params: unknown[] } {
  const { organization, item, latest, created } = ref;
  const image = beforeImageScopeSql(scope, 'c');
  const records = `FROM item_changes c WHERE c.organization_id = ${organization} AND c.item_id = ${item}`;
  return {
    sql: `(NOT (${created === null ? '' : `${latest} = ${created} OR `}EXISTS (SELECT 1 ${records} AND c.seq = ${latest}))
      OR EXISTS (SELECT 1 ${records} AND c.seq > ? AND (
        (c.prev_seq > ? AND c.prev_seq IS NOT c.created_seq AND NOT EXISTS (SELECT 1 FROM item_changes p
          WHERE p.organization_id = c.organization_id AND p.item_id = c.item_id AND p.seq = c.prev_seq))
        OR (1${image.sql}))))`,
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
