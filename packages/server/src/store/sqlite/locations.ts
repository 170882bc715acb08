import { newId } from '../../ids.js';
import { withoutLocation } from '../items/stock.js';
import type { Row } from '../rows.js';
import {
  type Location,
  type LocationRemoval,
  type LocationStore,
  StoreConflictError,
} from '../types.js';
import { SqliteItemWrites } from './item-writes.js';

function toLocation(row: Row): Location {
  return {
    id: row.id as string,
    organizationId: row.organization_id as string,
    code: row.code as string,
    name: row.name as string,
    createdAt: row.created_at as number,
  };
}

/** Locations on SQLite (issue 31); removing one changes the items that had stock there. */
export abstract class SqliteLocations extends SqliteItemWrites implements LocationStore {
  async createLocation(
    organizationId: string,
    input: { code: string; name: string },
  ): Promise<Location> {
    return this.run(() => {
      const now = Date.now();
      const location: Location = { id: newId(now), organizationId, ...input, createdAt: now };
      try {
        this.stmt(
          'INSERT INTO locations (organization_id, id, code, name, created_at) VALUES (?, ?, ?, ?, ?)',
        ).run(organizationId, location.id, location.code, location.name, now);
      } catch (error) {
        if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') {
          throw new StoreConflictError(`a location with code "${input.code}" already exists`);
        }
        throw error;
      }
      return location;
    });
  }

  async listLocations(organizationId: string): Promise<Location[]> {
    return this.run(() =>
      (
        this.stmt('SELECT * FROM locations WHERE organization_id = ? ORDER BY code').all(
          organizationId,
        ) as Row[]
      ).map(toLocation),
    );
  }

  async findLocation(organizationId: string, code: string): Promise<Location | null> {
    return this.run(() => {
      const row = this.stmt('SELECT * FROM locations WHERE organization_id = ? AND code = ?').get(
        organizationId,
        code,
      ) as Row | undefined;
      return row ? toLocation(row) : null;
    });
  }

  async deleteLocation(organizationId: string, code: string): Promise<LocationRemoval | null> {
    return this.run(() => {
      let removal: LocationRemoval | null = null;
      this.db
        .transaction(() => {
          const gone = this.stmt(
            'DELETE FROM locations WHERE organization_id = ? AND code = ? RETURNING id',
          ).get(organizationId, code);
          if (!gone) return;
          const now = Date.now();
          const changes = this.changeClock(organizationId, now);
          // Each item with a row there, in _id order: its stock loses the entry, its quantity
          // becomes the sum of the rows left (0 when none is), and it takes a change number.
          const affected = this.stmt(
            `SELECT i.id, i.stock FROM item_stock s
             JOIN items i ON i.organization_id = s.organization_id AND i.id = s.item_id
             WHERE s.organization_id = ? AND s.location_code = ? ORDER BY s.item_id`,
          ).all(organizationId, code) as Array<{ id: string; stock: string }>;
          const update = this.stmt(
            `UPDATE items SET stock = ?, quantity = ?, updated_at = ?, change_seq = ?
             WHERE organization_id = ? AND id = ?`,
          );
          for (const item of affected) {
            const next = withoutLocation(item.stock, code);
            update.run(next.stock, next.quantity, now, changes.next(), organizationId, item.id);
          }
          this.stmt('DELETE FROM item_stock WHERE organization_id = ? AND location_code = ?').run(
            organizationId,
            code,
          );
          changes.commit();
          removal = { items: affected.length };
        })
        .immediate();
      return removal;
    });
  }
}
