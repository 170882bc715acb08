import type { ChangedItem, ChangePage, ChangeQuery, Tombstone } from './types.js';

/**
 * One page of an organization's change feed, the same on every engine, from what the engine
 * read in one snapshot: the organization's latest change number, and up to `limit + 1` items
 * and `limit + 1` tombstones after the position, each in change order (tombstones only when
 * asked for).
 *
 * Items and tombstones are merged by number and the first `limit` kept. `more` holds when
 * anything was read beyond them: with `limit + 1` of each read, a merge of at most `limit`
 * means both lists were read to their end. `throughSeq` is where the next page starts: the last
 * change kept when there is more, else the organization's counter (every change up to it is
 * on this page or was filtered out), and never below the position asked from.
 */
export function changePage(
  query: ChangeQuery,
  organizationSeq: number,
  items: ChangedItem[],
  tombstones: Tombstone[],
): ChangePage {
  const page: ChangePage = { items: [], deleted: [], throughSeq: query.afterSeq, more: false };
  let i = 0;
  let t = 0;
  let last = query.afterSeq;
  for (let kept = 0; kept < query.limit; kept++) {
    const item = items[i];
    const tombstone = tombstones[t];
    if (item && (!tombstone || item.changeSeq < tombstone.seq)) {
      page.items.push(item);
      last = item.changeSeq;
      i++;
    } else if (tombstone) {
      page.deleted.push(tombstone);
      last = tombstone.seq;
      t++;
    } else break;
  }
  page.more = i < items.length || t < tombstones.length;
  page.throughSeq = page.more ? last : Math.max(organizationSeq, last, query.afterSeq);
  return page;
}
