import { newId } from '../../ids.js';
import { toOrganization, toUser } from '../rows.js';
import {
  type Organization,
  type OrganizationDeletion,
  type OrganizationStore,
  StoreConflictError,
  type User,
} from '../types.js';
import { isUniqueViolation } from './errors.js';
import { PostgresLocations } from './locations.js';

/** Organizations, users and memberships on PostgreSQL; deleting an organization with all it holds. */
export abstract class PostgresOrganizations extends PostgresLocations implements OrganizationStore {
  async createOrganization(input: {
    name: string;
    slug: string;
    features: string[];
  }): Promise<Organization> {
    const now = Date.now();
    const org: Organization = { id: newId(now), ...input, createdAt: now };
    try {
      await this.rows(
        'INSERT INTO organizations (id, name, slug, features, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $5)',
        [org.id, org.name, org.slug, org.features, now],
      );
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new StoreConflictError(`an organization with slug "${input.slug}" already exists`);
      }
      throw error;
    }
    return org;
  }

  async getOrganization(id: string): Promise<Organization | null> {
    const [row] = await this.rows('SELECT * FROM organizations WHERE id = $1', [id]);
    return row ? toOrganization(row) : null;
  }

  async findOrganization(ref: string): Promise<Organization | null> {
    const [row] = await this.rows(
      'SELECT * FROM organizations WHERE id = $1 OR slug = $1 ORDER BY id = $1 DESC LIMIT 1',
      [ref],
    );
    return row ? toOrganization(row) : null;
  }

  async listOrganizations(): Promise<Organization[]> {
    return (await this.rows('SELECT * FROM organizations ORDER BY id')).map(toOrganization);
  }

  async countOrganizations(): Promise<number> {
    const [row] = await this.rows('SELECT count(*) AS n FROM organizations');
    return row?.n as number;
  }

  async updateOrganization(
    id: string,
    patch: { name?: string; features?: string[] },
  ): Promise<Organization> {
    const [row] = await this.rows(
      `UPDATE organizations SET name = COALESCE($2, name), features = COALESCE($3, features), updated_at = $4
       WHERE id = $1 RETURNING *`,
      [id, patch.name ?? null, patch.features ?? null, Date.now()],
    );
    if (!row) throw new StoreConflictError(`organization ${id} does not exist`);
    return toOrganization(row);
  }

  async createUser(input: { email: string; name: string | null }): Promise<User> {
    const now = Date.now();
    const user: User = { id: newId(now), email: input.email, name: input.name, createdAt: now };
    try {
      await this.rows(
        'INSERT INTO users (id, email, email_normalized, name, created_at) VALUES ($1, $2, $3, $4, $5)',
        [user.id, user.email, user.email.toLowerCase(), user.name, now],
      );
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new StoreConflictError(`a user with email ${input.email} already exists`);
      }
      throw error;
    }
    return user;
  }

  async findUser(ref: string): Promise<User | null> {
    const [row] = await this.rows(
      'SELECT * FROM users WHERE id = $1 OR email_normalized = $2 ORDER BY id = $1 DESC LIMIT 1',
      [ref, ref.toLowerCase()],
    );
    return row ? toUser(row) : null;
  }

  async addMember(organizationId: string, userId: string): Promise<void> {
    await this.rows(
      `INSERT INTO memberships (organization_id, user_id, created_at) VALUES ($1, $2, $3)
       ON CONFLICT DO NOTHING`,
      [organizationId, userId, Date.now()],
    );
  }

  async removeMember(organizationId: string, userId: string): Promise<boolean> {
    const rows = await this.rows(
      'DELETE FROM memberships WHERE organization_id = $1 AND user_id = $2 RETURNING 1',
      [organizationId, userId],
    );
    return rows.length > 0;
  }

  async isMember(organizationId: string, userId: string): Promise<boolean> {
    const rows = await this.rows(
      'SELECT 1 FROM memberships WHERE organization_id = $1 AND user_id = $2',
      [organizationId, userId],
    );
    return rows.length > 0;
  }

  async listMembers(organizationId: string): Promise<User[]> {
    const rows = await this.rows(
      `SELECT u.* FROM memberships m JOIN users u ON u.id = m.user_id
       WHERE m.organization_id = $1 ORDER BY u.id`,
      [organizationId],
    );
    return rows.map(toUser);
  }

  async deleteOrganization(id: string): Promise<OrganizationDeletion | null> {
    return this.transaction(async (client) => {
      // The lock imports of this organization take (writeItems) first, then the organization's
      // row: a write in flight finishes first, and one that starts now waits and then fails on
      // its foreign key. In the other order, an import holding item locks would deadlock.
      await client.query(
        "SELECT pg_advisory_xact_lock(hashtext('stockroom.items'), hashtext($1))",
        [id],
      );
      const found = await client.query('SELECT 1 FROM organizations WHERE id = $1 FOR UPDATE', [
        id,
      ]);
      if (found.rowCount === 0) return null;
      // Items in keyset batches: each statement stays within statement_timeout however large
      // the organization, and each batch starts where the last one ended.
      let items = 0;
      let after = '';
      for (;;) {
        const result = await client.query(
          `WITH batch AS (
             SELECT id FROM items WHERE organization_id = $1 AND id > $2 ORDER BY id LIMIT $3
           ), gone AS (
             DELETE FROM items i USING batch b WHERE i.organization_id = $1 AND i.id = b.id
             RETURNING i.id
           )
           SELECT count(*)::int AS n, max(id) AS last FROM gone`,
          [id, after, this.deleteBatchSize],
        );
        const { n, last } = result.rows[0] as { n: number; last: string | null };
        items += n;
        if (n < this.deleteBatchSize || last === null) break;
        after = last;
      }
      for (;;) {
        const result = await client.query(
          `WITH batch AS (
             SELECT seq FROM item_tombstones WHERE organization_id = $1 ORDER BY seq LIMIT $2
           )
           DELETE FROM item_tombstones t USING batch b WHERE t.organization_id = $1 AND t.seq = b.seq`,
          [id, this.deleteBatchSize],
        );
        if ((result.rowCount ?? 0) < this.deleteBatchSize) break;
      }
      for (;;) {
        const result = await client.query(
          `WITH batch AS (
             SELECT item_id, seq FROM item_changes WHERE organization_id = $1 LIMIT $2
           )
           DELETE FROM item_changes c USING batch b
           WHERE c.organization_id = $1 AND c.item_id = b.item_id AND c.seq = b.seq`,
          [id, this.deleteBatchSize],
        );
        if ((result.rowCount ?? 0) < this.deleteBatchSize) break;
      }
      const count = async (sql: string) => (await client.query(sql, [id])).rowCount ?? 0;
      const apiKeys = await count('DELETE FROM api_keys WHERE organization_id = $1');
      const memberships = await count('DELETE FROM memberships WHERE organization_id = $1');
      await client.query('DELETE FROM rate_limit_counters WHERE organization_id = $1', [id]);
      await client.query('DELETE FROM webhook_deliveries WHERE organization_id = $1', [id]);
      await client.query('DELETE FROM webhooks WHERE organization_id = $1', [id]);
      await client.query('DELETE FROM locations WHERE organization_id = $1', [id]);
      await client.query('DELETE FROM organizations WHERE id = $1', [id]);
      return { items, apiKeys, memberships };
    });
  }
}
