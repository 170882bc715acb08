import type { Webhook, WebhookDelivery, WebhookDeliveryState, WebhookEventType } from './types.js';

type Row = Record<string, unknown>;

/** A row of webhooks, on either engine (events: JSON text on SQLite, an array on PostgreSQL). */
export function toWebhook(row: Row): Webhook {
  const events = typeof row.events === 'string' ? JSON.parse(row.events) : row.events;
  return {
    id: row.id as string,
    organizationId: row.organization_id as string,
    url: row.url as string,
    events: events as WebhookEventType[],
    description: (row.description as string | null) ?? null,
    secret: row.secret as string,
    enabled: row.enabled === true || row.enabled === 1,
    disabledReason: (row.disabled_reason as string | null) ?? null,
    cursor: Number(row.cursor),
    caughtUpSeq: Number(row.caught_up_seq),
    createdAt: Number(row.created_at),
  };
}

const nullableNumber = (value: unknown): number | null =>
  value === null || value === undefined ? null : Number(value);

/** A row of webhook_deliveries, on either engine. */
export function toWebhookDelivery(row: Row): WebhookDelivery {
  return {
    id: row.id as string,
    webhookId: row.webhook_id as string,
    organizationId: row.organization_id as string,
    state: row.state as WebhookDeliveryState,
    payload: row.payload as string,
    eventCount: Number(row.event_count),
    attempts: Number(row.attempts),
    createdAt: Number(row.created_at),
    nextAttemptAt: nullableNumber(row.next_attempt_at),
    lastAttemptAt: nullableNumber(row.last_attempt_at),
    lastStatus: nullableNumber(row.last_status),
    lastError: (row.last_error as string | null) ?? null,
  };
}

/** Webhook columns prefixed with `w.`, for joins. */
export const WEBHOOK_COLUMNS_W =
  'w.organization_id, w.id, w.url, w.events, w.description, w.secret, w.enabled, w.disabled_reason, w.cursor, w.caught_up_seq, w.created_at';

/** Change numbers per millisecond (the change feed's hybrid clock, store/types.ts ChangeQuery). */
export const SEQ_PER_MS = 1000;
