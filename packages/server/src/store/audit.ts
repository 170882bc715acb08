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
