/** The audit log. */

/** What an operator did, kept in the audit log (which outlives the organization). */
export const AUDIT_ACTIONS = [
  'organization.created',
  'organization.renamed',
  'organization.deleted',
  'feature.enabled',
  'feature.disabled',
  'member.added',
  'member.removed',
  'key.created',
  'key.disabled',
  'key.enabled',
  'key.revoked',
  'key.rotated',
  'key.updated',
  'items.imported',
  'items.deleted',
  'webhook.created',
  'webhook.enabled',
  'webhook.disabled',
  'webhook.deleted',
  'location.created',
  'location.removed',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export interface AuditEvent {
  id: string;
  organizationId: string;
  at: number;
  /** Who did it, e.g. `cli:alice` (the operating-system user running the CLI). */
  actor: string;
  action: AuditAction;
  /** The id of what was acted on (key, user, item, organization), when there is one. */
  target: string | null;
  /** What changed, as a JSON object (never a secret or a hash). */
  details: Record<string, unknown>;
}

export type NewAuditEvent = Omit<AuditEvent, 'id' | 'at'> & { at?: number };

/** The audit log of operators' actions (it outlives the organization). */
export interface AuditStore {
  appendAuditEvent(event: NewAuditEvent): Promise<AuditEvent>;
  /** Oldest first; with `limit`, the most recent `limit` events (still oldest first). */
  listAuditEvents(organizationId: string, options?: { limit?: number }): Promise<AuditEvent[]>;
}
