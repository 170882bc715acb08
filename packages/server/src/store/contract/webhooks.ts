/** Webhooks of every organization and their deliveries. */

export const WEBHOOK_EVENTS = ['item.created', 'item.updated', 'item.deleted'] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

/** An endpoint that receives an organization's item changes (webhooks/dispatcher.ts). */
export interface Webhook {
  id: string;
  organizationId: string;
  url: string;
  events: WebhookEventType[];
  description: string | null;
  /** The signing secret (`whsec_…`). Stored as is: the server must sign with it. */
  secret: string;
  enabled: boolean;
  /** Why the webhook was disabled (by an operator, or after a delivery failed for good). */
  disabledReason: string | null;
  /** The organization's change number up to which changes were read into deliveries. */
  cursor: number;
  /**
   * The cursor when the webhook last caught up with its organization (a delivery read every
   * change there was): every item that existed then has been sent, or predates the webhook.
   * An item created after it is sent as `item.created` (see webhooks/payload.ts).
   */
  caughtUpSeq: number;
  createdAt: number;
}

export type WebhookDeliveryState = 'pending' | 'delivered' | 'failed';

export interface WebhookDelivery {
  id: string;
  webhookId: string;
  organizationId: string;
  state: WebhookDeliveryState;
  /** The JSON body, signed and sent as is on every attempt. */
  payload: string;
  eventCount: number;
  attempts: number;
  createdAt: number;
  /** When the next attempt is due (pending only). */
  nextAttemptAt: number | null;
  lastAttemptAt: number | null;
  /** The HTTP status of the last attempt; null when it got no answer. */
  lastStatus: number | null;
  lastError: string | null;
}

/** How an attempt ended, and what happens next. */
export interface WebhookAttempt {
  at: number;
  status: number | null;
  error: string | null;
  /** `delivered`; a retry at an epoch ms; or `failed` for good (the webhook is then disabled). */
  next: 'delivered' | 'failed' | { retryAt: number };
  /** Recorded as the webhook's disabledReason when `next` is `failed`. */
  disabledReason?: string;
}

/** The webhooks of every organization, and their deliveries (the same on every engine). */
export interface WebhookStore {
  /** Starts at the organization's latest change: only later changes are delivered. */
  create(input: {
    organizationId: string;
    url: string;
    events: WebhookEventType[];
    description: string | null;
    secret: string;
  }): Promise<Webhook>;
  get(id: string): Promise<Webhook | null>;
  list(organizationId: string): Promise<Webhook[]>;
  /**
   * Null when there is no such webhook. A reason is kept only while disabled. Enabling gives
   * the webhook's last delivery, when it failed for good, a new round of attempts (due now):
   * the webhook resumes where it stopped, nothing skipped.
   */
  setEnabled(id: string, enabled: boolean, reason: string | null): Promise<Webhook | null>;
  /** Deletes the webhook and its deliveries; false when there was none. */
  delete(id: string): Promise<boolean>;
  /** Newest first. */
  listDeliveries(webhookId: string, limit: number): Promise<WebhookDelivery[]>;
  /**
   * Enabled webhooks with no pending delivery whose organization changed after their cursor,
   * and whose changes have settled: the last change is at least `settleMs` old, or the
   * cursor lags it by at least `maxLagMs` (a long bulk import).
   */
  listDue(
    now: number,
    options: { settleMs: number; maxLagMs: number; limit: number },
  ): Promise<Webhook[]>;
  /**
   * Moves a webhook's cursor from `from` to `to` (and its caughtUpSeq too when `caughtUp`: the
   * page read every change there was) and, with a delivery, adds it as pending (due at once),
   * in one transaction. False, writing nothing, when the cursor was no longer `from` or a
   * delivery of the webhook is pending (another process got there first).
   */
  advance(
    webhookId: string,
    from: number,
    to: number,
    delivery: { id: string; payload: string; eventCount: number; createdAt: number } | null,
    caughtUp: boolean,
  ): Promise<boolean>;
  /**
   * Leases the pending delivery of an enabled webhook that has been due longest (its next
   * attempt at or before `now`, no other process holding it) until `leaseUntil`, with its webhook.
   */
  claim(
    now: number,
    leaseUntil: number,
  ): Promise<{ delivery: WebhookDelivery; webhook: Webhook } | null>;
  /** Records an attempt and releases the lease; `failed` also disables the webhook. */
  recordAttempt(deliveryId: string, attempt: WebhookAttempt): Promise<void>;
  /** Drops finished (delivered or failed) deliveries created before `before`; returns how many. */
  purgeFinished(before: number): Promise<number>;
}
