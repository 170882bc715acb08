import type { InstallationStore } from '../types.js';
import { SqliteAudit } from './audit.js';

/** Secrets of the installation on SQLite (store/contract/installation.ts). */
export abstract class SqliteInstallation extends SqliteAudit implements InstallationStore {
  async installationSecret(name: string, candidate: string): Promise<string> {
    return this.run(() => {
      this.stmt(
        'INSERT OR IGNORE INTO installation_secrets (name, value, created_at) VALUES (?, ?, ?)',
      ).run(name, candidate, Date.now());
      const row = this.stmt('SELECT value FROM installation_secrets WHERE name = ?').get(name) as {
        value: string;
      };
      return row.value;
    });
  }

  async replaceInstallationSecret(name: string, value: string): Promise<number> {
    return this.run(() => {
      const now = Date.now();
      this.stmt(
        `INSERT INTO installation_secrets (name, value, created_at) VALUES (?, ?, ?)
         ON CONFLICT (name) DO UPDATE SET value = excluded.value, created_at = excluded.created_at`,
      ).run(name, value, now);
      return now;
    });
  }
}
