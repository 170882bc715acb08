import { newId } from '../ids.js';
import type { AuditAction, AuditEvent, NewAuditEvent } from './types.js';

/** The event as stored: an id in creation order and the time, unless the caller fixed it. */
export function newAuditEvent(event: NewAuditEvent): AuditEvent {
  const at = event.at ?? Date.now();
  return { ...event, id: newId(at), at };
}

/** A row of audit_events, on either engine (times are epoch ms, details JSON text). */
export function toAuditEvent(row: Record<string, unknown>): AuditEvent {
  return {
    id: row.id as string,
    organizationId: row.organization_id as string,
    at: Number(row.at),
    actor: row.actor as string,
    action: row.action as AuditAction,
    target: (row.target as string | null) ?? null,
    details: JSON.parse(row.details as string) as Record<string, unknown>,
  };
}

/** The columns of audit_events, in the order of auditEventValues. */
export const AUDIT_EVENT_COLUMNS = 'organization_id, id, at, actor, action, target, details';

/** A recorded event's values, in the order of AUDIT_EVENT_COLUMNS (details as JSON text). */
export function auditEventValues(event: AuditEvent): unknown[] {
  return [
    event.organizationId,
    event.id,
    event.at,
    event.actor,
    event.action,
    event.target,
    JSON.stringify(event.details),
  ];
}
