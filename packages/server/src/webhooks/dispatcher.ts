import { newId } from '../ids.js';
import { type Metrics, NO_METRICS } from '../metrics/metrics.js';
import type { Store, Webhook, WebhookAttempt, WebhookDelivery } from '../store/types.js';
import { VERSION } from '../version.js';
import type { DestinationPolicy } from './destination.js';
import { buildDelivery } from './payload.js';
import { sendWebhook } from './send.js';
import { signWebhook } from './signature.js';

export interface DispatcherOptions {
  store: Store;
  policy: DestinationPolicy;
  /** Delay before each retry; a delivery gets `retryDelaysMs.length + 1` attempts. */
  retryDelaysMs: number[];
  /** How often to look for work, and how long changes must have settled (config.ts). */
  pollMs: number;
  log: {
    warn(object: Record<string, unknown>, message: string): void;
    info(object: Record<string, unknown>, message: string): void;
  };
  /** Counts attempts for Prometheus (NO_METRICS by default). */
  metrics?: Metrics;
  /** Events per delivery. */
  batchSize?: number;
  /** An attempt's deadline. */
  timeoutMs?: number;
  /** Deliveries one process sends at a time. */
  concurrency?: number;
}

/** The cursor may lag the latest change by this much before a delivery goes out unsettled. */
const MAX_LAG_MS = 10_000;
/** A process that died mid-attempt frees its delivery for others after this long. */
const LEASE_MS = 60_000;
/** Finished deliveries are kept this long for `stockroom webhook deliveries`. */
const KEEP_FINISHED_MS = 7 * 86_400_000;
const PURGE_EVERY_MS = 3_600_000;
/** Webhooks whose next delivery is prepared per round. */
const DUE_PER_ROUND = 50;

/** ±10% so that deliveries failing together do not all retry at the same instant. */
function jitter(ms: number): number {
  return Math.round(ms * (0.9 + Math.random() * 0.2));
}

/**
 * Sends webhook deliveries (docs/en/webhooks.mdx). Every process that serves runs one; they
 * share the work through the database:
 *
 * 1. Preparing: a webhook with no pending delivery whose organization changed after its cursor
 *    (and whose changes settled for one poll interval, or lag by MAX_LAG_MS during a long
 *    import) gets the next page of its organization's change feed as one delivery, and its
 *    cursor moves past the page, in one transaction (WebhookStore.advance, a compare-and-set:
 *    two processes never prepare the same page). Changes are read when their turn comes, so
 *    an item changed many times meanwhile is sent once, in its latest state.
 * 2. Sending: a due delivery is leased (WebhookStore.claim), signed and POSTed; the attempt is
 *    recorded: delivered, retried after the next delay, or failed for good, which disables
 *    the webhook. One delivery per webhook is pending at a time, so one endpoint receives its
 *    deliveries in order.
 */
export class WebhookDispatcher {
  private readonly store: Store;
  private readonly options: Required<DispatcherOptions>;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private readonly inFlight = new Set<Promise<void>>();
  private closed = false;
  private lastPurge = 0;

  constructor(options: DispatcherOptions) {
    this.store = options.store;
    this.options = {
      batchSize: 100,
      timeoutMs: 10_000,
      concurrency: 4,
      metrics: NO_METRICS,
      ...options,
    };
  }

  start(): void {
    this.schedule(0);
  }

  private schedule(delayMs: number): void {
    if (this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running = this.round().then(
        (busy) => {
          this.running = null;
          this.schedule(busy ? 0 : this.options.pollMs);
        },
        (error: unknown) => {
          this.running = null;
          this.options.log.warn({ err: error }, 'webhook dispatch failed; retrying shortly');
          this.schedule(this.options.pollMs);
        },
      );
    }, delayMs);
  }

  /** One round of work; true when there may be more right away. */
  private async round(): Promise<boolean> {
    const now = Date.now();
    let busy = false;
    const due = await this.store.webhooks.listDue(now, {
      settleMs: this.options.pollMs,
      maxLagMs: MAX_LAG_MS,
      limit: DUE_PER_ROUND,
    });
    for (const webhook of due) {
      if (this.closed) return false;
      await this.prepare(webhook, now);
      busy = true;
    }
    while (!this.closed && this.inFlight.size < this.options.concurrency) {
      const claimed = await this.store.webhooks.claim(Date.now(), Date.now() + LEASE_MS);
      if (!claimed) break;
      const attempt = this.attempt(claimed.delivery, claimed.webhook).finally(() => {
        this.inFlight.delete(attempt);
        // A free slot: look for the next delivery now rather than at the next poll.
        if (!this.closed && this.timer !== null && this.running === null) {
          clearTimeout(this.timer);
          this.schedule(0);
        }
      });
      this.inFlight.add(attempt);
    }
    if (now - this.lastPurge >= PURGE_EVERY_MS) {
      this.lastPurge = now;
      await this.store.webhooks.purgeFinished(now - KEEP_FINISHED_MS);
    }
    return busy;
  }

  private async prepare(webhook: Webhook, now: number): Promise<void> {
    const page = await this.store.listChanges(webhook.organizationId, {
      afterSeq: webhook.cursor,
      limit: this.options.batchSize,
      includeDeleted: webhook.events.includes('item.deleted'),
    });
    const delivery = buildDelivery(webhook, page, newId(now), now);
    await this.store.webhooks.advance(
      webhook.id,
      webhook.cursor,
      page.throughSeq,
      delivery,
      !page.more,
    );
  }

  private async attempt(delivery: WebhookDelivery, webhook: Webhook): Promise<void> {
    try {
      const timestamp = Math.floor(Date.now() / 1000);
      const result = await sendWebhook(
        webhook.url,
        {
          'content-type': 'application/json',
          'user-agent': `Stockroom-Webhooks/${VERSION}`,
          'webhook-id': delivery.id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signWebhook(
            webhook.secret,
            delivery.id,
            timestamp,
            delivery.payload,
          ),
        },
        delivery.payload,
        { policy: this.options.policy, timeoutMs: this.options.timeoutMs },
      );
      const attempts = delivery.attempts + 1;
      const retryDelay = this.options.retryDelaysMs[attempts - 1];
      const attempt: WebhookAttempt = {
        at: Date.now(),
        status: result.status,
        error: result.error,
        next: result.ok
          ? 'delivered'
          : retryDelay === undefined
            ? 'failed'
            : { retryAt: Date.now() + jitter(retryDelay) },
      };
      const log = { webhookId: webhook.id, deliveryId: delivery.id, attempt: attempts };
      if (attempt.next === 'failed') {
        attempt.disabledReason = `delivery ${delivery.id} failed ${attempts} ${attempts === 1 ? 'attempt' : 'attempts'}; the last: ${result.error}`;
      }
      await this.store.webhooks.recordAttempt(delivery.id, attempt);
      this.options.metrics.webhookAttempt(
        typeof attempt.next === 'object' ? 'retry' : attempt.next,
      );
      if (attempt.next === 'failed') {
        await this.store.appendAuditEvent({
          organizationId: webhook.organizationId,
          actor: 'system:webhooks',
          action: 'webhook.disabled',
          target: webhook.id,
          details: { reason: attempt.disabledReason },
        });
        this.options.log.warn(
          { ...log, error: result.error },
          'webhook delivery failed for good; the webhook is disabled',
        );
      } else if (!result.ok) {
        this.options.log.info(
          { ...log, error: result.error },
          'webhook delivery failed; will retry',
        );
      }
    } catch (error) {
      // The lease runs out and the delivery is tried again (by this process or another).
      this.options.log.warn(
        { err: error, deliveryId: delivery.id },
        'could not record a webhook attempt',
      );
    }
  }

  /** Stops looking for work and waits for the attempts in flight (each bounded by its timeout). */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running?.catch(() => {});
    await Promise.allSettled([...this.inFlight]);
  }
}
