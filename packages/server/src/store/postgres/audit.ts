import { AUDIT_EVENT_COLUMNS, auditEventValues, newAuditEvent, toAuditEvent } from '../audit.js';
import type { AuditEvent, AuditStore, NewAuditEvent } from '../types.js';
import { PostgresKeys } from './keys.js';

/** The audit log on PostgreSQL. */
export abstract class PostgresAudit extends PostgresKeys implements AuditStore {
  async appendAuditEvent(event: NewAuditEvent): Promise<AuditEvent> {
    const recorded = newAuditEvent(event);
    await this.rows(
      `INSERT INTO audit_events (${AUDIT_EVENT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      auditEventValues(recorded),
    );
    return recorded;
  }

  async listAuditEvents(
    organizationId: string,
    options: { limit?: number } = {},
  ): Promise<AuditEvent[]> {
    const rows = await this.rows(
      `SELECT * FROM audit_events WHERE organization_id = $1
       ORDER BY at DESC, id DESC LIMIT $2`,
      [organizationId, options.limit ?? null],
    );
    return rows.reverse().map(toAuditEvent);
  }
}
