import type { Item, ItemScope, ItemStatus } from './items.js';

/** The change feed: items and tombstones of an organization in change order. */

/**
 * Position in an organization's change feed (issue 8). Every write that creates or changes an
 * item, and every deletion, takes the next change sequence number of its organization, in
 * commit order (so a reader that has seen number N has seen every change up to N). Numbers are
 * a hybrid logical clock: max(previous + 1, wall-clock ms × 1000), so `seq / 1000` is never
 * earlier than the change's wall-clock time and an instant maps to a position without an index.
 */
export interface ChangeQuery {
  /** Only changes with a greater sequence number. */
  afterSeq: number;
  /** At most this many changes (items and tombstones together). */
  limit: number;
  /** Only items with this status now (tombstones are never filtered). */
  status?: ItemStatus;
  /** Only items with more than 0 now at the location of this code (tombstones are never filtered). */
  location?: string;
  /** Whether tombstones of deleted items are read too. */
  includeDeleted: boolean;
  /**
   * The key's view. Items outside it are not offered; with includeDeleted, a changed item
   * outside it is offered as a tombstone instead (it left the view, or was never in it: the
   * reader drops it either way), dated `max(updatedAt, scopeSince)`.
   */
  scope?: ItemScope;
  /** When the scope last changed (epoch ms): no view exit is dated before it. */
  scopeSince?: number;
  /**
   * Where the reader's copy stands (the position its sync walk started from), when it was made
   * under this same scope. With it, a changed item outside the scope, or a tombstone, is
   * offered only if the key could have seen the item at that position or at some point since
   * (the before-images of its changes, migration 11, say so); an item it never saw is never
   * named. Without it (a walk that starts over under a new scope), every one is offered.
   */
  seenAfterSeq?: number;
  /**
   * When given, each item of the page is handed to it as it is read, in change order, and the
   * page's `items` stays empty: the caller can turn each into bytes at once, so a large page's
   * items need not all be alive together (on PostgreSQL a page is read over several fetches,
   * and held whole it outlived young-generation collections). Called synchronously between
   * reads; it must not use the store.
   */
  onItem?: (item: ChangedItem) => void;
}

/** A deleted item, kept for the retention period so sync clients learn of the deletion. */
export interface Tombstone {
  id: string;
  deletedAt: number;
  seq: number;
}

/** An item as the change feed reads it: with the number of its last change and of its creation. */
export type ChangedItem = Item & {
  changeSeq: number;
  /**
   * The number its creation took; null for items created before the feed recorded it
   * (migration 8), which were all created before any webhook existed.
   */
  createdSeq: number | null;
};

export interface ChangePage {
  /**
   * Items changed after `afterSeq`, in change order, each with its change sequence number
   * (empty when the query's `onItem` took them).
   */
  items: ChangedItem[];
  /** Tombstones after `afterSeq`, in change order (empty unless includeDeleted). */
  deleted: Tombstone[];
  /**
   * Continue after this number: the last change on the page when `more`, else the
   * organization's latest change sequence number (every change up to it has been read). A page
   * whose scan budget ran out first continues after the last change it examined.
   */
  throughSeq: number;
  /**
   * Whether more changes may follow right now. A page whose query may pass over changes
   * (store/changes.ts, skipsChanges) examines at most the store's scan budget of changes after
   * `afterSeq` (items and tombstones together, the search's budget, store/search.ts): when it
   * runs out before the page is full, the page is short, even empty, and `more` holds.
   */
  more: boolean;
}

/** The change feed: items and tombstones in change order. */
export interface ChangeFeedStore {
  /** Changes of an organization after a position, in change order (see ChangeQuery). */
  listChanges(organizationId: string, query: ChangeQuery): Promise<ChangePage>;
  /** Drops tombstones of deletions before `before` (epoch ms); returns how many. */
  purgeTombstones(before: number): Promise<number>;
}
