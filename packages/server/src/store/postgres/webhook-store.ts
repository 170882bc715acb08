import type pg from 'pg';
import { newId } from '../../ids.js';
import type { Webhook, WebhookAttempt, WebhookDelivery, WebhookStore } from '../types.js';
import { SEQ_PER_MS, toWebhook, toWebhookDelivery, WEBHOOK_COLUMNS_W } from '../webhook-rows.js';
import type { Row } from './rows.js';

/** What the webhook store borrows from PostgresStore: its queries and its error mapping. */
export interface PostgresAccess {
  rows(sql: string, params?: unknown[]): Promise<Row[]>;
  transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T>;
}

export class PostgresWebhookStore implements WebhookStore {
  constructor(private readonly access: PostgresAccess) {}

  async create(input: Parameters<WebhookStore['create']>[0]): Promise<Webhook> {
    // The cursor is the organization's latest change, read by the insert itself. Writers of
    // the organization hold its row locked until they commit, so a change taken before this
    // statement's snapshot but committed after it would be skipped: FOR SHARE waits for them.
    const rows = await this.access.transaction(async (client) => {
      await client.query('SELECT 1 FROM organizations WHERE id = $1 FOR SHARE', [
        input.organizationId,
      ]);
      const result = await client.query(
        `WITH organization AS (
           SELECT COALESCE((SELECT change_seq FROM organizations WHERE id = $1), 0) AS seq
         )
         INSERT INTO webhooks (organization_id, id, url, events, description, secret, enabled,
           cursor, caught_up_seq, created_at)
         SELECT $1, $2, $3, $4, $5, $6, true, organization.seq, organization.seq, $7
         FROM organization
         RETURNING *`,
        [
          input.organizationId,
          newId(),
          input.url,
          input.events,
          input.description,
          input.secret,
          Date.now(),
        ],
      );
      return result.rows as Row[];
    });
    return toWebhook(rows[0] as Row);
  }

  async get(id: string): Promise<Webhook | null> {
    const [row] = await this.access.rows('SELECT * FROM webhooks WHERE id = $1', [id]);
    return row ? toWebhook(row) : null;
  }

  async list(organizationId: string): Promise<Webhook[]> {
    const rows = await this.access.rows(
      'SELECT * FROM webhooks WHERE organization_id = $1 ORDER BY id',
      [organizationId],
    );
    return rows.map(toWebhook);
  }

  async setEnabled(id: string, enabled: boolean, reason: string | null): Promise<Webhook | null> {
    const rows = await this.access.transaction(async (client) => {
      const result = await client.query(
        'UPDATE webhooks SET enabled = $2, disabled_reason = $3 WHERE id = $1 RETURNING *',
        [id, enabled, enabled ? null : reason],
      );
      if (enabled) {
        await client.query(
          `UPDATE webhook_deliveries SET state = 'pending', attempts = 0, next_attempt_at = $2
           WHERE id = (SELECT id FROM webhook_deliveries WHERE webhook_id = $1
                       ORDER BY id DESC LIMIT 1)
             AND state = 'failed'`,
          [id, Date.now()],
        );
      }
      return result.rows as Row[];
    });
    return rows[0] ? toWebhook(rows[0]) : null;
  }

  async delete(id: string): Promise<boolean> {
    return this.access.transaction(async (client) => {
      await client.query('DELETE FROM webhook_deliveries WHERE webhook_id = $1', [id]);
      const result = await client.query('DELETE FROM webhooks WHERE id = $1', [id]);
      return (result.rowCount ?? 0) > 0;
    });
  }

  async listDeliveries(webhookId: string, limit: number): Promise<WebhookDelivery[]> {
    const rows = await this.access.rows(
      'SELECT * FROM webhook_deliveries WHERE webhook_id = $1 ORDER BY id DESC LIMIT $2',
      [webhookId, limit],
    );
    return rows.map(toWebhookDelivery);
  }

  async listDue(
    now: number,
    options: { settleMs: number; maxLagMs: number; limit: number },
  ): Promise<Webhook[]> {
    const rows = await this.access.rows(
      `SELECT ${WEBHOOK_COLUMNS_W} FROM webhooks w JOIN organizations o ON o.id = w.organization_id
       WHERE w.enabled AND o.change_seq > w.cursor
         AND (o.change_seq <= $1::bigint OR w.cursor <= o.change_seq - $2::bigint)
         AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d
                         WHERE d.webhook_id = w.id AND d.state = 'pending')
       ORDER BY w.id LIMIT $3`,
      [(now - options.settleMs) * SEQ_PER_MS, options.maxLagMs * SEQ_PER_MS, options.limit],
    );
    return rows.map(toWebhook);
  }

  async advance(
    webhookId: string,
    from: number,
    to: number,
    delivery: { id: string; payload: string; eventCount: number; createdAt: number } | null,
    caughtUp: boolean,
  ): Promise<boolean> {
    return this.access.transaction(async (client) => {
      // The row lock of the compare-and-set orders concurrent processes; the unique index on
      // pending deliveries makes a second pending one impossible whatever the interleaving.
      const moved = await client.query(
        `UPDATE webhooks SET cursor = $3,
           caught_up_seq = CASE WHEN $4 THEN $3 ELSE caught_up_seq END
         WHERE id = $1 AND cursor = $2
           AND NOT EXISTS (SELECT 1 FROM webhook_deliveries
                           WHERE webhook_id = $1 AND state = 'pending')`,
        [webhookId, from, to, caughtUp],
      );
      if ((moved.rowCount ?? 0) === 0) return false;
      if (delivery) {
        await client.query(
          `INSERT INTO webhook_deliveries (organization_id, id, webhook_id, state, payload,
             event_count, created_at, next_attempt_at)
           SELECT organization_id, $2, id, 'pending', $3, $4, $5, $5 FROM webhooks WHERE id = $1`,
          [webhookId, delivery.id, delivery.payload, delivery.eventCount, delivery.createdAt],
        );
      }
      return true;
    });
  }

  async claim(
    now: number,
    leaseUntil: number,
  ): Promise<{ delivery: WebhookDelivery; webhook: Webhook } | null> {
    // SKIP LOCKED: processes claiming at the same time take different deliveries.
    const [row] = await this.access.rows(
      `UPDATE webhook_deliveries SET lease_until = $2
       WHERE id = (
         SELECT d.id FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
         WHERE d.state = 'pending' AND d.next_attempt_at <= $1 AND w.enabled
           AND (d.lease_until IS NULL OR d.lease_until < $1)
         ORDER BY d.next_attempt_at LIMIT 1
         FOR UPDATE OF d SKIP LOCKED)
       RETURNING *`,
      [now, leaseUntil],
    );
    if (!row) return null;
    const delivery = toWebhookDelivery(row);
    const webhook = await this.get(delivery.webhookId);
    return webhook ? { delivery, webhook } : null;
  }

  async recordAttempt(deliveryId: string, attempt: WebhookAttempt): Promise<void> {
    const state = typeof attempt.next === 'object' ? 'pending' : attempt.next;
    const nextAttemptAt = typeof attempt.next === 'object' ? attempt.next.retryAt : null;
    await this.access.transaction(async (client) => {
      const result = await client.query(
        `UPDATE webhook_deliveries SET state = $2, attempts = attempts + 1, next_attempt_at = $3,
           lease_until = NULL, last_attempt_at = $4, last_status = $5, last_error = $6
         WHERE id = $1 RETURNING webhook_id`,
        [deliveryId, state, nextAttemptAt, attempt.at, attempt.status, attempt.error],
      );
      const webhookId = result.rows[0]?.webhook_id as string | undefined;
      if (webhookId !== undefined && attempt.next === 'failed') {
        await client.query(
          'UPDATE webhooks SET enabled = false, disabled_reason = $2 WHERE id = $1',
          [webhookId, attempt.disabledReason ?? 'a delivery failed'],
        );
      }
    });
  }

  async purgeFinished(before: number): Promise<number> {
    const rows = await this.access.rows(
      `WITH gone AS (
         DELETE FROM webhook_deliveries WHERE state <> 'pending' AND created_at < $1 RETURNING 1
       ) SELECT count(*)::int AS n FROM gone`,
      [before],
    );
    return (rows[0]?.n as number | undefined) ?? 0;
  }
}
