import { newId } from '../../ids.js';
import { withoutLocation } from '../items/stock.js';
import type { Row } from '../rows.js';
import {
  type Item,
  type Location,
  type LocationRemoval,
  type LocationStore,
  StoreConflictError,
} from '../types.js';
import { takeChangeSeqs } from './changes.js';
import { isUniqueViolation } from './errors.js';
import { PostgresItemWrites } from './item-writes.js';

function toLocation(row: Row): Location {
  return {
    id: row.id as string,
    organizationId: row.organization_id as string,
    code: row.code as string,
    name: row.name as string,
    createdAt: Number(row.created_at),
  };
}

/** Locations on PostgreSQL (issue 31); removing one changes the items that had stock there. */
export abstract class PostgresLocations extends PostgresItemWrites implements LocationStore {
  async createLocation(
    organizationId: string,
    input: { code: string; name: string },
  ): Promise<Location> {
    const now = Date.now();
    const location: Location = { id: newId(now), organizationId, ...input, createdAt: now };
    try {
      await this.rows(
        'INSERT INTO locations (organization_id, id, code, name, created_at) VALUES ($1, $2, $3, $4, $5)',
        [organizationId, location.id, location.code, location.name, now],
      );
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new StoreConflictError(`a location with code "${input.code}" already exists`);
      }
      throw error;
    }
    return location;
  }

  async listLocations(organizationId: string): Promise<Location[]> {
    const rows = await this.rows(
      'SELECT * FROM locations WHERE organization_id = $1 ORDER BY code',
      [organizationId],
    );
    return rows.map(toLocation);
  }

  async findLocation(organizationId: string, code: string): Promise<Location | null> {
    if (code.includes('\u0000')) return null;
    const [row] = await this.rows(
      'SELECT * FROM locations WHERE organization_id = $1 AND code = $2',
      [organizationId, code],
    );
    return row ? toLocation(row) : null;
  }

  async deleteLocation(organizationId: string, code: string): Promise<LocationRemoval | null> {
    if (code.includes('\u0000')) return null;
    return this.transaction(async (client) => {
      // The item writers' lock: no import reads this location's code while it goes.
      await client.query(
        "SELECT pg_advisory_xact_lock(hashtext('stockroom.items'), hashtext($1))",
        [organizationId],
      );
      const gone = await client.query(
        'DELETE FROM locations WHERE organization_id = $1 AND code = $2 RETURNING id',
        [organizationId, code],
      );
      if ((gone.rowCount ?? 0) === 0) return null;
      const now = Date.now();
      // Each item with a row there, in _id order: its stock loses the entry, its quantity
      // becomes the sum of the rows left (0 when none is), and it takes a change number.
      const affected = await client.query(
        `SELECT i.id, i.stock FROM item_stock s
         JOIN items i ON i.organization_id = s.organization_id AND i.id = s.item_id
         WHERE s.organization_id = $1 AND s.location_code = $2 ORDER BY s.item_id FOR UPDATE OF i`,
        [organizationId, code],
      );
      const items = affected.rows as Array<{ id: string; stock: string }>;
      const keys = items.map((item) => ({ id: item.id }) as Item);
      const seqs = await takeChangeSeqs(client, organizationId, keys, now);
      const next = items.map((item) => withoutLocation(item.stock, code));
      await client.query(
        `UPDATE items i SET stock = u.stock, quantity = u.quantity, updated_at = $2,
           change_seq = u.change_seq
         FROM unnest($3::text[], $4::text[], $5::float8[], $6::bigint[])
           AS u(id, stock, quantity, change_seq)
         WHERE i.organization_id = $1 AND i.id = u.id`,
        [
          organizationId,
          now,
          items.map((item) => item.id),
          next.map((item) => item.stock),
          next.map((item) => item.quantity),
          keys.map((key) => seqs.get(key)),
        ],
      );
      await client.query(
        'DELETE FROM item_stock WHERE organization_id = $1 AND location_code = $2',
        [organizationId, code],
      );
      return { items: items.length };
    });
  }
}
