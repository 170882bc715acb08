import { newId } from '../../ids.js';
import { type Row, toOrganization, toUser } from '../rows.js';
import {
  type Organization,
  type OrganizationDeletion,
  type OrganizationStore,
  StoreConflictError,
  type User,
} from '../types.js';
import { SqliteLocations } from './locations.js';
import { ChunkSizer, pauseForOtherWriters } from './lock-sharing.js';

/** Organizations, users and memberships on SQLite; deleting an organization with all it holds. */
export abstract class SqliteOrganizations extends SqliteLocations implements OrganizationStore {
  async createOrganization(input: {
    name: string;
    slug: string;
    features: string[];
  }): Promise<Organization> {
    return this.run(() => {
      const now = Date.now();
      const org: Organization = { id: newId(now), ...input, createdAt: now };
      try {
        this.stmt(
          `INSERT INTO organizations (id, name, slug, features, created_at, updated_at, seq)
           VALUES (?, ?, ?, ?, ?, ?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM organizations))`,
        ).run(org.id, org.name, org.slug, JSON.stringify(org.features), now, now);
      } catch (error) {
        if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') {
          throw new StoreConflictError(`an organization with slug "${input.slug}" already exists`);
        }
        throw error;
      }
      return org;
    });
  }

  async getOrganization(id: string): Promise<Organization | null> {
    return this.run(() => {
      const row = this.stmt('SELECT * FROM organizations WHERE id = ?').get(id) as Row | undefined;
      return row ? toOrganization(row) : null;
    });
  }

  async findOrganization(ref: string): Promise<Organization | null> {
    return this.run(() => {
      const row = this.stmt('SELECT * FROM organizations WHERE id = ? OR slug = ?').get(ref, ref) as
        | Row
        | undefined;
      return row ? toOrganization(row) : null;
    });
  }

  async listOrganizations(): Promise<Organization[]> {
    return this.run(() =>
      (this.stmt('SELECT * FROM organizations ORDER BY id').all() as Row[]).map(toOrganization),
    );
  }

  async countOrganizations(): Promise<number> {
    return this.run(
      () => (this.stmt('SELECT COUNT(*) AS n FROM organizations').get() as Row).n as number,
    );
  }

  async updateOrganization(
    id: string,
    patch: { name?: string; features?: string[] },
  ): Promise<Organization> {
    return this.run(() => {
      const row = this.stmt('SELECT * FROM organizations WHERE id = ?').get(id) as Row | undefined;
      if (!row) throw new StoreConflictError(`organization ${id} does not exist`);
      const current = toOrganization(row);
      const next = { ...current, ...patch };
      this.stmt('UPDATE organizations SET name = ?, features = ?, updated_at = ? WHERE id = ?').run(
        next.name,
        JSON.stringify(next.features),
        Date.now(),
        id,
      );
      return next;
    });
  }

  async createUser(input: { email: string; name: string | null }): Promise<User> {
    return this.run(() => {
      const now = Date.now();
      const user: User = { id: newId(now), email: input.email, name: input.name, createdAt: now };
      try {
        this.stmt(
          'INSERT INTO users (id, email, email_normalized, name, created_at) VALUES (?, ?, ?, ?, ?)',
        ).run(user.id, user.email, user.email.toLowerCase(), user.name, now);
      } catch (error) {
        if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') {
          throw new StoreConflictError(`a user with email ${input.email} already exists`);
        }
        throw error;
      }
      return user;
    });
  }

  async findUser(ref: string): Promise<User | null> {
    return this.run(() => {
      const row = this.stmt('SELECT * FROM users WHERE id = ? OR email_normalized = ?').get(
        ref,
        ref.toLowerCase(),
      ) as Row | undefined;
      return row ? toUser(row) : null;
    });
  }

  async addMember(organizationId: string, userId: string): Promise<void> {
    return this.run(() => {
      this.stmt(
        'INSERT OR IGNORE INTO memberships (organization_id, user_id, created_at) VALUES (?, ?, ?)',
      ).run(organizationId, userId, Date.now());
    });
  }

  async removeMember(organizationId: string, userId: string): Promise<boolean> {
    return this.run(
      () =>
        this.stmt('DELETE FROM memberships WHERE organization_id = ? AND user_id = ?').run(
          organizationId,
          userId,
        ).changes > 0,
    );
  }

  async isMember(organizationId: string, userId: string): Promise<boolean> {
    return this.run(
      () =>
        this.stmt('SELECT 1 FROM memberships WHERE organization_id = ? AND user_id = ?').get(
          organizationId,
          userId,
        ) !== undefined,
    );
  }

  async listMembers(organizationId: string): Promise<User[]> {
    return this.run(() =>
      (
        this.stmt(
          'SELECT u.* FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.organization_id = ? ORDER BY u.id',
        ).all(organizationId) as Row[]
      ).map(toUser),
    );
  }

  /**
   * Deletes an organization with all it holds. Its items, tombstones and before-images go first, in
   * transactions of about BULK_TRANSACTION_MS with a pause after each, so the writes of every
   * other connection (a server's quota charges) get in between (lock-sharing.ts); then the
   * rest and the organization's row, in one short transaction. A delete cut short (the process
   * killed) leaves the organization with fewer items, and deleting it again finishes.
   */
  async deleteOrganization(id: string): Promise<OrganizationDeletion | null> {
    const items = await this.inParts((limit) => this.deleteOrganizationItemsPart(id, limit));
    if (items === null) return null;
    for (const table of ['item_tombstones', 'item_changes'] as const) {
      await this.inParts((limit) => this.deleteOrganizationRowsPart(id, table, limit));
    }
    return this.run(() => {
      let deleted: OrganizationDeletion | null = null;
      this.db
        .transaction(() => {
          const organization = this.stmt('SELECT seq FROM organizations WHERE id = ?').get(id);
          if (!organization) return;
          // Items written since their parts (an import that was under way), their stock rows
          // with them (the delete trigger).
          const late = this.stmt('DELETE FROM items WHERE organization_id = ?').run(id).changes;
          this.stmt('DELETE FROM item_stock WHERE organization_id = ?').run(id);
          this.stmt('DELETE FROM locations WHERE organization_id = ?').run(id);
          this.stmt('DELETE FROM item_tombstones WHERE organization_id = ?').run(id);
          this.stmt('DELETE FROM item_changes WHERE organization_id = ?').run(id);
          this.stmt('DELETE FROM webhook_deliveries WHERE organization_id = ?').run(id);
          this.stmt('DELETE FROM webhooks WHERE organization_id = ?').run(id);
          const apiKeys = this.stmt('DELETE FROM api_keys WHERE organization_id = ?').run(id);
          const memberships = this.stmt('DELETE FROM memberships WHERE organization_id = ?').run(
            id,
          );
          this.stmt('DELETE FROM organizations WHERE id = ?').run(id);
          deleted = {
            items: items + late,
            apiKeys: apiKeys.changes,
            memberships: memberships.changes,
          };
        })
        .immediate();
      this.organizationSeqs.delete(id);
      return deleted;
    });
  }

  /**
   * Runs `part` (one transaction deleting at most `limit` rows) until it deletes fewer than
   * its limit, pausing after each; returns the rows deleted (null: `part` found no organization).
   */
  private async inParts(part: (limit: number) => number | null): Promise<number | null> {
    const sizer = new ChunkSizer();
    let total = 0;
    for (;;) {
      const limit = sizer.rows;
      const started = performance.now();
      const deleted = await this.run(() => part(limit));
      if (deleted === null) return null;
      sizer.took(deleted, performance.now() - started);
      total += deleted;
      if (deleted < limit) return total;
      await pauseForOtherWriters();
    }
  }
}
