import type { InstallationStore } from '../types.js';
import { PostgresAudit } from './audit.js';

/** Secrets of the installation on PostgreSQL (store/contract/installation.ts). */
export abstract class PostgresInstallation extends PostgresAudit implements InstallationStore {
  async installationSecret(name: string, candidate: string): Promise<string> {
    // One statement: the stored value, or the candidate stored now (a racing process's insert
    // makes this one's do nothing, and the second SELECT then reads the winner's).
    const [row] = await this.rows(
      `WITH stored AS (
         INSERT INTO installation_secrets (name, value, created_at) VALUES ($1, $2, $3)
         ON CONFLICT (name) DO NOTHING RETURNING value
       )
       SELECT value FROM stored UNION ALL SELECT value FROM installation_secrets WHERE name = $1`,
      [name, candidate, Date.now()],
    );
    if (row) return row.value as string;
    // The concurrent insert committed after this statement's snapshot: read it now.
    const [again] = await this.rows('SELECT value FROM installation_secrets WHERE name = $1', [
      name,
    ]);
    if (!again) throw new Error(`installation secret ${name} could not be stored`);
    return again.value as string;
  }

  async replaceInstallationSecret(name: string, value: string): Promise<number> {
    const now = Date.now();
    await this.rows(
      `INSERT INTO installation_secrets (name, value, created_at) VALUES ($1, $2, $3)
       ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value, created_at = EXCLUDED.created_at`,
      [name, value, now],
    );
    return now;
  }
}
