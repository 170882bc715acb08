import type { ItemScope } from '../types.js';
import { scopeConditions } from './item-scope.js';

/**
 * Whether a key could have seen an item at some point after the position `seenAfterSeq`, from
 * the before-images of its changes (item_changes, migration 11), as an SQL condition on
 * PostgreSQL; its values are pushed onto `params`. `ref` names the columns of the row being
 * judged: its organization, its item id, its latest change (an item's change_seq, a
 * tombstone's seq) and, for an item, the number of its creation.
 *
 * The states of the item after the position are the before-images of its changes after it:
 * the first one's is its state at the position, each next one's the state the previous change
 * left. When those records do not reach back to the position without a gap (changes made
 * before migration 11, or records purged), the condition holds: what the key saw is unknown,
 * so the item is named, as it was before before-images. A change whose previous change is the
 * item's creation ends the chain too: before the creation there was nothing to see.
 */
export function seenSinceCondition(
  scope: ItemScope,
  seenAfterSeq: number,
  ref: { organization: string; item: string; latest: string; created: string | null },
  params: unknown[],
): string {
  const { organization, item, latest, created } = ref;
  params.push(seenAfterSeq);
  const after = `$${params.length}::bigint`;
  const image = ['true', ...beforeImageConditions(scope, 'c', params)].join(' AND ');
  const records = `FROM item_changes c WHERE c.organization_id = ${organization} AND c.item_id = ${item}`;
  return `(NOT (${created === null ? '' : `${latest} IS NOT DISTINCT FROM ${created} OR `}EXISTS (SELECT 1 ${records} AND c.seq = ${latest}))
    OR EXISTS (SELECT 1 ${records} AND c.seq > ${after} AND (
      (c.prev_seq > ${after} AND c.prev_seq IS DISTINCT FROM c.created_seq AND NOT EXISTS (SELECT 1 FROM item_changes p
        WHERE p.organization_id = c.organization_id AND p.item_id = c.item_id AND p.seq = c.prev_seq))
      OR (${image}) IS TRUE)))`;
}

/** The key's scope tested on a before-image under `alias` (status, custom_fields, stock). */
function beforeImageConditions(scope: ItemScope, alias: string, params: unknown[]): string[] {
  // Status and custom fields read as the item's own columns do.
  const conditions = scopeConditions(
    {
      ...(scope.statuses === undefined ? {} : { statuses: scope.statuses }),
      ...(scope.customFields === undefined ? {} : { customFields: scope.customFields }),
    },
    alias,
    params,
  );
  // Stock was more than 0 there: read from the stock text (store/items/stock.ts).
  for (const code of scope.locations ?? []) {
    params.push(code);
    conditions.push(`EXISTS (SELECT 1 FROM json_array_elements(${alias}.stock::json) vs
      WHERE vs ->> 'location' = $${params.length}::text AND (vs ->> 'quantity')::float8 > 0)`);
  }
  return conditions;
}
