import { filtersRows } from './item-scope.js';
import type { ChangedItem, ChangePage, ChangeQuery, Tombstone } from './types.js';

/**
 * Whether a change page's query may pass over changes without offering them: the status or
 * location filter, or a key's scope, which leaves out the rows outside it (or, when deletions
 * are listed, the exits and tombstones of items the key never saw, ChangeQuery.seenAfterSeq).
 * Such a page reads at most the scan budget of changes (ChangePage.more); any other page
 * offers every change it reads, so it reads at most `limit + 1` of each kind anyway.
 */
export function skipsChanges(query: ChangeQuery): boolean {
  if (query.status !== undefined || query.location !== undefined) return true;
  if (!filtersRows(query.scope)) return false;
  return !query.includeDeleted || query.seenAfterSeq !== undefined;
}

/**
 * How many changes the next slice of a budgeted page examines (skipsChanges), after `examined`:
 * first what a full page needs when most changes are offered, then three times all examined so
 * far, up to the budget. A page that fills early pays for a few hundred changes, not the whole
 * budget; one that passes over everything examines the budget in four or five slices.
 */
export function changeSliceSize(limit: number, examined: number, budget: number): number {
  return Math.max(1, Math.min(budget - examined, Math.max(2 * (limit + 1), 3 * examined)));
}

/**
 * One page of an organization's change feed, the same on every engine, from what the engine
 * reads in one snapshot: the organization's latest change number, and up to `limit + 1` items
 * and `limit + 1` tombstones after the position, each kind offered in change order (tombstones
 * only when asked for).
 *
 * The first `limit` changes of both kinds together are kept. `more` holds when a change beyond
 * them was offered: with `limit + 1` of each read, a page that refused none holds both kinds to
 * their end. `throughSeq` is where the next page starts: the last change kept when there is
 * more, else the organization's counter (every change up to it is on this page or was filtered
 * out), and never below the position asked from.
 *
 * Items go to the query's `onItem` as they are kept when it has one, so an engine reading a
 * large page hands each item on before it reads the next rather than holding them all.
 */
export class ChangePageBuilder {
  private readonly page: ChangePage;
  private kept = 0;
  private last: number;

  constructor(private readonly query: ChangeQuery) {
    this.page = { items: [], deleted: [], throughSeq: query.afterSeq, more: false };
    this.last = query.afterSeq;
  }

  /** Whether a change was refused: the page is full and more follow. */
  get full(): boolean {
    return this.page.more;
  }

  /** How many more changes the page can keep. */
  get room(): number {
    return this.query.limit - this.kept;
  }

  /** Keeps the item, or returns false when the page is full (the page then says more follow). */
  addItem(item: ChangedItem): boolean {
    if (!this.take(item.changeSeq)) return false;
    if (this.query.onItem) this.query.onItem(item);
    else this.page.items.push(item);
    return true;
  }

  /** Keeps the tombstone, or returns false when the page is full. */
  addTombstone(tombstone: Tombstone): boolean {
    if (!this.take(tombstone.seq)) return false;
    this.page.deleted.push(tombstone);
    return true;
  }

  private take(seq: number): boolean {
    if (this.kept === this.query.limit) {
      this.page.more = true;
      return false;
    }
    this.kept++;
    this.last = seq;
    return true;
  }

  /**
   * `examinedThrough`: the last change of a page whose scan budget ran out (the budget-th
   * change after the position, items and tombstones together), or null when fewer followed.
   * Only changes up to it were read: a page that is not full then still says more follow,
   * and continues after it, so a walk over changes that are all passed over still advances.
   */
  finish(organizationSeq: number, examinedThrough: number | null = null): ChangePage {
    const { page } = this;
    if (!page.more && examinedThrough !== null) {
      page.more = true;
      page.throughSeq = Math.max(examinedThrough, this.last);
      return page;
    }
    page.throughSeq = page.more
      ? this.last
      : Math.max(organizationSeq, this.last, this.query.afterSeq);
    return page;
  }
}

/**
 * With a key's scope and includeDeleted, which changed rows are outside the scope (read as a
 * column of the row): each is offered as a tombstone at its change, dated when it changed or
 * when the scope did, whichever is later (ChangeQuery.scope).
 */
export interface ScopeExits<R> {
  left(row: R): boolean;
  since: number;
}

/**
 * Offers an engine's item rows (read in change order, each made an item only when its turn
 * comes) and its tombstones (read before them) to the builder, merged by change number, until
 * the page is full. Stopping early closes the rows' iterator.
 */
export function mergeChanges<R>(
  builder: ChangePageBuilder,
  rows: Iterable<R>,
  toItem: (row: R) => ChangedItem,
  tombstones: readonly Tombstone[],
  exits?: ScopeExits<R>,
): void {
  let t = 0;
  const tombstonesBefore = (seq: number): boolean => {
    for (
      let tombstone = tombstones[t];
      tombstone && tombstone.seq < seq;
      tombstone = tombstones[t]
    ) {
      if (!builder.addTombstone(tombstone)) return false;
      t++;
    }
    return true;
  };
  for (const row of rows) {
    const item = toItem(row);
    if (!tombstonesBefore(item.changeSeq)) return;
    const kept =
      exits?.left(row) === true
        ? builder.addTombstone({
            id: item.id,
            deletedAt: Math.max(item.updatedAt, exits.since),
            seq: item.changeSeq,
          })
        : builder.addItem(item);
    if (!kept) return;
  }
  tombstonesBefore(Number.POSITIVE_INFINITY);
}
