import { ITEM_COLUMN_NAMES } from '../items/rows.js';

export { toChangedItemFromRaw, toItemFromRaw } from '../items/rows.js';

/** The item columns of SQLite's statements, in the order its raw rows are read (items/rows.ts). */
export const ITEM_COLUMNS = ITEM_COLUMN_NAMES.join(', ');
/** ITEM_COLUMNS qualified with the alias `i`, for joins. */
export const ITEM_COLUMNS_I = ITEM_COLUMN_NAMES.map((column) => `i.${column}`).join(', ');
