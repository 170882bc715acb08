/** Items of an organization: what is stored, what a write gives, what a page asks for. */

export const ITEM_STATUSES = ['Draft', 'Active', 'Inactive', 'Discontinued'] as const;

export type ItemStatus = (typeof ITEM_STATUSES)[number];

export interface Item {
  id: string;
  organizationId: string;
  name: string;
  description: string | null;
  sku: string | null;
  barcode: string | null;
  status: ItemStatus;
  quantity: number;
  /**
   * The stock rows as stored JSON text, returned as is: `[{"location":CODE,"quantity":N}]`
   * ordered by code, `[]` when the item has none (store/items/stock.ts).
   */
  stock: string;
  /** The stored JSON text of the object, returned as is. */
  customFields: string;
  createdAt: number;
  updatedAt: number;
}

/** The writable fields of an item; `undefined` means "leave as stored". */
export interface ItemFields {
  name?: string;
  description?: string | null;
  sku?: string | null;
  barcode?: string | null;
  status?: ItemStatus;
  quantity?: number;
  /**
   * The item's stock rows, replacing the stored ones, as canonical JSON text (stockText in
   * store/items/stock.ts). With stock rows, quantity must be their sum (left out: it becomes it).
   */
  stock?: string;
  customFields?: string;
}

/** An item named by its id or by its sku. */
export type ItemRef = { id: string } | { sku: string };

export type ItemWriteOutcome = 'created' | 'updated' | 'unchanged' | { error: string };

/** The searchable fields (store/search.ts searchText), in the order search_text holds them. */
export const SEARCH_FIELDS = ['name', 'description', 'sku', 'barcode'] as const;
export type SearchField = (typeof SEARCH_FIELDS)[number];

/**
 * The rows one key may see (its view's filters, domain/view.ts), applied inside every item
 * query of the store: lists, search, lookups, detail and the change feed. Every member that
 * is present must hold.
 */
export interface ItemScope {
  /** Only items with one of these statuses. */
  statuses?: readonly ItemStatus[];
  /** Only items with more than 0 at each of these location codes. */
  locations?: readonly string[];
  /** Only items whose custom field NAME (top level) is the string VALUE. */
  customFields?: readonly { name: string; value: string }[];
  /** The fields `search` may match (absent: all four); the others are hidden from the key. */
  searchFields?: readonly SearchField[];
}

export interface ItemQuery {
  limit: number;
  /** Keyset position: only items with a greater id. */
  afterId?: string;
  status?: ItemStatus;
  /** Already case-folded with `foldCase`; matched as a literal substring. */
  search?: string;
  /**
   * A search page with a needle of 1–2 characters examines at most the scan budget of rows
   * (store/search.ts: the same rule on every engine). When the budget runs out before `limit`
   * matches are found, this is called with the last `_id` examined: the page holds every match
   * up to that id, and the walk continues after it. Not called when the page is complete, nor
   * ever for longer needles (their pages are always full).
   */
  onPartialPage?: (resumeAfterId: string) => void;
  /** Exact, case-sensitive match on the stored sku (indexed). */
  sku?: string;
  /** Exact, case-sensitive match on the stored barcode (indexed). */
  barcode?: string;
  /** Only items with more than 0 at the location of this code (indexed). */
  location?: string;
  /** Only items with one of these ids (at most 100; unknown ids are simply absent). */
  ids?: readonly string[];
  /** The key's view: items outside it are not there. */
  scope?: ItemScope;
}

/** Items of an organization: pages, search, lookups and writes. */
export interface ItemStore {
  listItems(organizationId: string, query: ItemQuery): Promise<Item[]>;
  /**
   * The same rows as listItems, in slices with turns of the event loop between them, so that
   * a large page lets other requests run while it is read and encoded (the API turns each
   * slice into bytes as it comes).
   */
  listItemSlices(organizationId: string, query: ItemQuery): AsyncIterable<Item[]>;
  /** One item by id; null when there is none (or, with a scope, it is outside it). */
  getItem(organizationId: string, id: string, scope?: ItemScope): Promise<Item | null>;
  countItems(organizationId: string): Promise<number>;
  /**
   * Called after a bulk write (an import) that created or changed `changedItems` items, so that
   * the planner's picture of the items table keeps up with it. Returns whether statistics were
   * gathered. PostgreSQL gathers them when autovacuum would (more than 50 + 10% of the rows
   * changed), without waiting for it; SQLite's statements are planned without statistics.
   */
  refreshItemStatistics(changedItems: number): Promise<boolean>;
  /**
   * Upserts by sku (rows without a sku are created) in one transaction. A row whose fields
   * equal what is stored is `unchanged` and keeps its updatedAt. With `dryRun` nothing is kept;
   * with `allOrNothing`, one failed row rolls back the whole call.
   */
  writeItems(
    organizationId: string,
    rows: ItemFields[],
    options?: { dryRun?: boolean; allOrNothing?: boolean; now?: number },
  ): Promise<ItemWriteOutcome[]>;
  /** Deletes one item and leaves a tombstone in the change feed. */
  deleteItem(organizationId: string, by: ItemRef): Promise<boolean>;
  /**
   * Deletes items in one transaction, each leaving a tombstone: all of them or, on failure,
   * none. Returns, per ref, whether an item went (false: there was none).
   */
  deleteItems(organizationId: string, refs: readonly ItemRef[]): Promise<boolean[]>;
}
