import { AUDIT_EVENT_COLUMNS, auditEventValues, newAuditEvent, toAuditEvent } from '../audit.js';
import type { Row } from '../rows.js';
import type { AuditEvent, AuditStore, NewAuditEvent } from '../types.js';
import { SqliteKeys } from './keys.js';

/** The audit log on SQLite. */
export abstract class SqliteAudit extends SqliteKeys implements AuditStore {
  async appendAuditEvent(event: NewAuditEvent): Promise<AuditEvent> {
    return this.run(() => {
      const recorded = newAuditEvent(event);
      this.stmt(
        `INSERT INTO audit_events (${AUDIT_EVENT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)`,
      ).run(...auditEventValues(recorded));
      return recorded;
    });
  }

  async listAuditEvents(
    organizationId: string,
    options: { limit?: number } = {},
  ): Promise<AuditEvent[]> {
    return this.run(() => {
      const rows = this.stmt(
        `SELECT * FROM audit_events WHERE organization_id = ?
         ORDER BY at DESC, id DESC LIMIT ?`,
      ).all(organizationId, options.limit ?? -1) as Row[];
      return rows.reverse().map(toAuditEvent);
    });
  }
}
