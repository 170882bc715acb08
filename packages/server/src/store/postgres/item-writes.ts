import type pg from 'pg';
import { parseStock } from '../items/stock.js';
import { type Row, toItem } from '../rows.js';
import type { Item, ItemFields, ItemRef, ItemStore, ItemWriteOutcome } from '../types.js';
import { takeChangeSeqs } from './changes.js';
import { PostgresItems } from './items.js';
import { ITEM_COLUMNS } from './rows.js';
import { postgresSearchText } from './search-text.js';
import { planWrites } from './write-plan.js';

/** Rows per statement when writing items: bounded memory and statement size. */
const WRITE_BATCH = 2000;

/** Thrown inside a transaction to roll it back while keeping the computed outcomes. */
class Rollback extends Error {}

/** Item writes on PostgreSQL: upserts in set-based statements, deletions with tombstones. */
export abstract class PostgresItemWrites extends PostgresItems implements ItemStore {
  async writeItems(
    organizationId: string,
    rows: ItemFields[],
    options: { dryRun?: boolean; allOrNothing?: boolean; now?: number } = {},
  ): Promise<ItemWriteOutcome[]> {
    const now = options.now ?? Date.now();
    let outcomes: ItemWriteOutcome[] = [];
    try {
      await this.transaction(async (client) => {
        // One writer per organization at a time, as SQLite's single writer gives: two imports
        // of the same new sku cannot both decide to create it.
        await client.query(
          "SELECT pg_advisory_xact_lock(hashtext('stockroom.items'), hashtext($1))",
          [organizationId],
        );
        const existing = await this.lockBySku(client, organizationId, rows);
        // The organization's location codes when a row gives stock (locations are removed
        // under the same lock, so they stay until the commit).
        const locations = rows.some((row) => row.stock !== undefined)
          ? await locationCodes(client, organizationId)
          : undefined;
        const plan = planWrites(organizationId, rows, existing, now, locations);
        outcomes = plan.outcomes;
        const failed = outcomes.some((outcome) => typeof outcome === 'object');
        if (options.dryRun || (options.allOrNothing && failed)) throw new Rollback();
        const seqs = await takeChangeSeqs(client, organizationId, plan.changes, now);
        await writeItemRows(client, INSERT_ITEMS, organizationId, plan.inserts, seqs);
        await writeItemRows(client, UPDATE_ITEMS, organizationId, plan.updates, seqs);
        await replaceStockRows(client, organizationId, plan.stockChanged);
        await restampStockStatus(client, organizationId, plan.statusChanged);
      });
    } catch (error) {
      if (!(error instanceof Rollback)) throw error;
    }
    return outcomes;
  }

  /** The stored items of the rows' skus, locked until the transaction ends. */
  private async lockBySku(
    client: pg.PoolClient,
    organizationId: string,
    rows: ItemFields[],
  ): Promise<Map<string, Item>> {
    const skus = [
      ...new Set(rows.flatMap((row) => (typeof row.sku === 'string' ? [row.sku] : []))),
    ];
    const found = new Map<string, Item>();
    for (let i = 0; i < skus.length; i += WRITE_BATCH) {
      const result = await client.query(
        `SELECT ${ITEM_COLUMNS} FROM items WHERE organization_id = $1 AND sku = ANY($2::text[])
         ORDER BY id FOR UPDATE`,
        [organizationId, skus.slice(i, i + WRITE_BATCH).filter((sku) => !sku.includes('\u0000'))],
      );
      for (const row of result.rows as Row[]) {
        const item = toItem(row);
        if (item.sku !== null) found.set(item.sku, item);
      }
    }
    return found;
  }

  async deleteItem(organizationId: string, by: ItemRef): Promise<boolean> {
    return (await this.deleteItems(organizationId, [by]))[0] === true;
  }

  async deleteItems(organizationId: string, refs: readonly ItemRef[]): Promise<boolean[]> {
    return this.transaction(async (client) => {
      // The writers' lock first, as writeItems and deleteOrganization take it: these statements
      // then lock each item before the organization's row, and nothing else of this
      // organization can hold one while waiting for the other.
      await client.query(
        "SELECT pg_advisory_xact_lock(hashtext('stockroom.items'), hashtext($1))",
        [organizationId],
      );
      const now = Date.now();
      const deleted: boolean[] = [];
      for (const by of refs) {
        // PostgreSQL text cannot hold U+0000: no stored sku equals one that does.
        if ('sku' in by && by.sku.includes('\u0000')) {
          deleted.push(false);
          continue;
        }
        // The deletion's change number is taken from the organization's row (locked until the
        // commit, as in writeItems), and the tombstone written, only when an item went.
        // The deleted row's before-image goes with its tombstone (migration 11).
        const result = await client.query(
          `WITH gone AS (
             DELETE FROM items WHERE organization_id = $1 AND ${'id' in by ? 'id' : 'sku'} = $2
             RETURNING id, change_seq, created_seq, status, custom_fields, stock
           ), taken AS (
             UPDATE organizations SET change_seq = GREATEST(change_seq + 1, $3::bigint)
             WHERE id = $1 AND EXISTS (SELECT 1 FROM gone) RETURNING change_seq
           ), image AS (
             INSERT INTO item_changes (organization_id, item_id, seq, prev_seq, created_seq,
               changed_at, status, custom_fields, stock)
             SELECT $1, gone.id, taken.change_seq, gone.change_seq, gone.created_seq, $4,
               gone.status, gone.custom_fields, gone.stock
             FROM gone, taken
             ON CONFLICT DO NOTHING
           )
           INSERT INTO item_tombstones (organization_id, seq, item_id, deleted_at)
           SELECT $1, taken.change_seq, gone.id, $4 FROM gone, taken`,
          [organizationId, 'id' in by ? by.id : by.sku, now * 1000, now],
        );
        deleted.push((result.rowCount ?? 0) > 0);
      }
      return deleted;
    });
  }
}

function itemColumns(items: Item[], seqs: Map<Item, number>) {
  return [
    items.map((item) => item.id),
    items.map((item) => item.name),
    items.map((item) => item.description),
    items.map((item) => item.sku),
    items.map((item) => item.barcode),
    items.map((item) => item.status),
    items.map((item) => item.quantity),
    items.map((item) => item.stock),
    items.map((item) => item.customFields),
    items.map((item) => postgresSearchText(item)),
    items.map((item) => item.createdAt),
    items.map((item) => item.updatedAt),
    items.map((item) => seqs.get(item)),
  ];
}

const UNNEST_ITEMS = `unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
  $8::float8[], $9::text[], $10::text[], $11::text[], $12::bigint[], $13::bigint[], $14::bigint[])
  AS u(id, name, description, sku, barcode, status, quantity, stock, custom_fields, search_text,
    created_at, updated_at, change_seq)`;

const INSERT_ITEMS = `INSERT INTO items (organization_id, id, name, description, sku, barcode,
    status, quantity, stock, custom_fields, search_text, created_at, updated_at, change_seq, created_seq)
  SELECT $1, u.id, u.name, u.description, u.sku, u.barcode, u.status, u.quantity, u.stock,
    u.custom_fields::json, u.search_text, u.created_at, u.updated_at, u.change_seq, u.change_seq
  FROM ${UNNEST_ITEMS}`;

const UPDATE_ITEMS = `UPDATE items i SET name = u.name, description = u.description, barcode = u.barcode,
    status = u.status, quantity = u.quantity, stock = u.stock, custom_fields = u.custom_fields::json,
    search_text = u.search_text, updated_at = u.updated_at, change_seq = u.change_seq
  FROM ${UNNEST_ITEMS}
  WHERE i.organization_id = $1 AND i.id = u.id`;

/**
 * Many rows in one statement (INSERT_ITEMS or UPDATE_ITEMS), in batches of WRITE_BATCH: arrays
 * of each column, unnested server side.
 */
async function writeItemRows(
  client: pg.PoolClient,
  statement: string,
  organizationId: string,
  items: Item[],
  seqs: Map<Item, number>,
) {
  for (let i = 0; i < items.length; i += WRITE_BATCH) {
    const batch = items.slice(i, i + WRITE_BATCH);
    await client.query(statement, [organizationId, ...itemColumns(batch, seqs)]);
  }
}

/** The organization's location codes, read in the caller's transaction. */
export async function locationCodes(
  client: pg.PoolClient,
  organizationId: string,
): Promise<Set<string>> {
  const result = await client.query('SELECT code FROM locations WHERE organization_id = $1', [
    organizationId,
  ]);
  return new Set(result.rows.map((row: { code: string }) => row.code));
}

/**
 * Makes the item_stock rows of these items those of their stock text, in batches, each row
 * with its item's status (what item_stock_positive filters a location page by, item-query.ts).
 */
async function replaceStockRows(client: pg.PoolClient, organizationId: string, items: Item[]) {
  for (let i = 0; i < items.length; i += WRITE_BATCH) {
    const batch = items.slice(i, i + WRITE_BATCH);
    await client.query(
      'DELETE FROM item_stock WHERE organization_id = $1 AND item_id = ANY($2::text[])',
      [organizationId, batch.map((item) => item.id)],
    );
    const ids: string[] = [];
    const codes: string[] = [];
    const quantities: number[] = [];
    const statuses: string[] = [];
    for (const item of batch) {
      for (const entry of parseStock(item.stock)) {
        ids.push(item.id);
        codes.push(entry.location);
        quantities.push(entry.quantity);
        statuses.push(item.status);
      }
    }
    if (ids.length === 0) continue;
    await client.query(
      `INSERT INTO item_stock (organization_id, item_id, location_code, quantity, status)
       SELECT $1, u.item_id, u.location_code, u.quantity, u.status
       FROM unnest($2::text[], $3::text[], $4::float8[], $5::text[])
         AS u(item_id, location_code, quantity, status)`,
      [organizationId, ids, codes, quantities, statuses],
    );
  }
}

/** Gives the item_stock rows of these items (whose rows are otherwise unchanged) their status. */
async function restampStockStatus(client: pg.PoolClient, organizationId: string, items: Item[]) {
  for (let i = 0; i < items.length; i += WRITE_BATCH) {
    const batch = items.slice(i, i + WRITE_BATCH);
    await client.query(
      `UPDATE item_stock s SET status = u.status
       FROM unnest($2::text[], $3::text[]) AS u(item_id, status)
       WHERE s.organization_id = $1 AND s.item_id = u.item_id`,
      [organizationId, batch.map((item) => item.id), batch.map((item) => item.status)],
    );
  }
}
