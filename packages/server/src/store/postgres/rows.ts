export { KEY_COLUMNS, type Row } from '../rows.js';

/** The item columns of PostgreSQL's statements (item-query.ts unions tombstones under them). */
export const ITEM_COLUMNS =
  'organization_id, id, name, description, sku, barcode, status, quantity, stock, custom_fields, created_at, updated_at';
