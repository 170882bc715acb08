import { newId } from '../../ids.js';
import type { Webhook, WebhookAttempt, WebhookDelivery, WebhookStore } from '../types.js';
import { SEQ_PER_MS, toWebhook, toWebhookDelivery, WEBHOOK_COLUMNS_W } from '../webhook-rows.js';
import type { SqliteDatabase, SqliteStatement } from './driver.js';

type Row = Record<string, unknown>;

/** What the webhook store borrows from SqliteStore: its statement cache and its error mapping. */
export interface SqliteAccess {
  db: SqliteDatabase;
  stmt(sql: string): SqliteStatement;
  run<T>(work: () => T): Promise<T>;
}

export class SqliteWebhookStore implements WebhookStore {
  constructor(private readonly access: SqliteAccess) {}

  private row(sql: string, ...params: unknown[]): Row | undefined {
    return this.access.stmt(sql).get(...params) as Row | undefined;
  }

  private webhook(id: string): Webhook | null {
    const row = this.row(`SELECT ${WEBHOOK_COLUMNS_W} FROM webhooks w WHERE w.id = ?`, id);
    return row ? toWebhook(row) : null;
  }

  async create(input: Parameters<WebhookStore['create']>[0]): Promise<Webhook> {
    return this.access.run(() => {
      const id = newId();
      const createdAt = Date.now();
      this.access.db
        .transaction(() => {
          // The cursor starts at the organization's latest change, read in the same write
          // transaction as the insert: no change is both before and after it.
          const organization = this.row(
            'SELECT change_seq FROM organizations WHERE id = ?',
            input.organizationId,
          );
          const cursor = (organization?.change_seq as number | undefined) ?? 0;
          this.access
            .stmt(
              `INSERT INTO webhooks (organization_id, id, url, events, description, secret, enabled,
                 cursor, caught_up_seq, created_at) VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?, ?)`,
            )
            .run(
              input.organizationId,
              id,
              input.url,
              JSON.stringify(input.events),
              input.description,
              input.secret,
              cursor,
              cursor,
              createdAt,
            );
        })
        .immediate();
      return this.webhook(id) as Webhook;
    });
  }

  async get(id: string): Promise<Webhook | null> {
    return this.access.run(() => this.webhook(id));
  }

  async list(organizationId: string): Promise<Webhook[]> {
    return this.access.run(() =>
      (
        this.access
          .stmt(
            `SELECT ${WEBHOOK_COLUMNS_W} FROM webhooks w WHERE w.organization_id = ? ORDER BY w.id`,
          )
          .all(organizationId) as Row[]
      ).map(toWebhook),
    );
  }

  async setEnabled(id: string, enabled: boolean, reason: string | null): Promise<Webhook | null> {
    return this.access.run(() => {
      this.access.db
        .transaction(() => {
          this.access
            .stmt('UPDATE webhooks SET enabled = ?, disabled_reason = ? WHERE id = ?')
            .run(enabled ? 1 : 0, enabled ? null : reason, id);
          if (enabled) {
            this.access
              .stmt(
                `UPDATE webhook_deliveries SET state = 'pending', attempts = 0, next_attempt_at = ?
                 WHERE id = (SELECT id FROM webhook_deliveries WHERE webhook_id = ?
                             ORDER BY id DESC LIMIT 1)
                   AND state = 'failed'`,
              )
              .run(Date.now(), id);
          }
        })
        .immediate();
      return this.webhook(id);
    });
  }

  async delete(id: string): Promise<boolean> {
    return this.access.run(() => {
      let deleted = false;
      this.access.db
        .transaction(() => {
          this.access.stmt('DELETE FROM webhook_deliveries WHERE webhook_id = ?').run(id);
          deleted = this.access.stmt('DELETE FROM webhooks WHERE id = ?').run(id).changes > 0;
        })
        .immediate();
      return deleted;
    });
  }

  async listDeliveries(webhookId: string, limit: number): Promise<WebhookDelivery[]> {
    return this.access.run(() =>
      (
        this.access
          .stmt('SELECT * FROM webhook_deliveries WHERE webhook_id = ? ORDER BY id DESC LIMIT ?')
          .all(webhookId, limit) as Row[]
      ).map(toWebhookDelivery),
    );
  }

  async listDue(
    now: number,
    options: { settleMs: number; maxLagMs: number; limit: number },
  ): Promise<Webhook[]> {
    return this.access.run(() =>
      (
        this.access
          .stmt(
            `SELECT ${WEBHOOK_COLUMNS_W} FROM webhooks w JOIN organizations o ON o.id = w.organization_id
             WHERE w.enabled = 1 AND o.change_seq > w.cursor
               AND (o.change_seq <= ? OR w.cursor <= o.change_seq - ?)
               AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d
                               WHERE d.webhook_id = w.id AND d.state = 'pending')
             ORDER BY w.id LIMIT ?`,
          )
          .all(
            (now - options.settleMs) * SEQ_PER_MS,
            options.maxLagMs * SEQ_PER_MS,
            options.limit,
          ) as Row[]
      ).map(toWebhook),
    );
  }

  async advance(
    webhookId: string,
    from: number,
    to: number,
    delivery: { id: string; payload: string; eventCount: number; createdAt: number } | null,
    caughtUp: boolean,
  ): Promise<boolean> {
    return this.access.run(() => {
      let advanced = false;
      this.access.db
        .transaction(() => {
          const moved = this.access
            .stmt(
              `UPDATE webhooks SET cursor = ?,
                 caught_up_seq = CASE WHEN ? THEN ? ELSE caught_up_seq END
               WHERE id = ? AND cursor = ?
                 AND NOT EXISTS (SELECT 1 FROM webhook_deliveries
                                 WHERE webhook_id = ? AND state = 'pending')`,
            )
            .run(to, caughtUp ? 1 : 0, to, webhookId, from, webhookId).changes;
          if (moved === 0) return;
          if (delivery) {
            this.access
              .stmt(
                `INSERT INTO webhook_deliveries (organization_id, id, webhook_id, state, payload,
                   event_count, created_at, next_attempt_at)
                 SELECT organization_id, ?, id, 'pending', ?, ?, ?, ? FROM webhooks WHERE id = ?`,
              )
              .run(
                delivery.id,
                delivery.payload,
                delivery.eventCount,
                delivery.createdAt,
                delivery.createdAt,
                webhookId,
              );
          }
          advanced = true;
        })
        .immediate();
      return advanced;
    });
  }

  async claim(
    now: number,
    leaseUntil: number,
  ): Promise<{ delivery: WebhookDelivery; webhook: Webhook } | null> {
    return this.access.run(() => {
      // A read first: every process looks every poll interval, and on SQLite a write statement
      // takes the database's one write lock even when it changes nothing (and waits for it,
      // blocking the process, while an import holds it). Only a delivery found is leased, by a
      // statement that re-checks it is still free (another process may have leased it since).
      const candidate = this.row(
        `SELECT d.id FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
         WHERE d.state = 'pending' AND d.next_attempt_at <= ? AND w.enabled = 1
           AND (d.lease_until IS NULL OR d.lease_until < ?)
         ORDER BY d.next_attempt_at LIMIT 1`,
        now,
        now,
      );
      if (!candidate) return null;
      const row = this.row(
        `UPDATE webhook_deliveries SET lease_until = ?
         WHERE id = ? AND state = 'pending' AND (lease_until IS NULL OR lease_until < ?)
         RETURNING *`,
        leaseUntil,
        candidate.id,
        now,
      );
      if (!row) return null;
      const delivery = toWebhookDelivery(row);
      const webhook = this.webhook(delivery.webhookId);
      return webhook ? { delivery, webhook } : null;
    });
  }

  async recordAttempt(deliveryId: string, attempt: WebhookAttempt): Promise<void> {
    return this.access.run(() => {
      this.access.db
        .transaction(() => {
          const state = typeof attempt.next === 'object' ? 'pending' : attempt.next;
          const nextAttemptAt = typeof attempt.next === 'object' ? attempt.next.retryAt : null;
          const row = this.row(
            `UPDATE webhook_deliveries SET state = ?, attempts = attempts + 1, next_attempt_at = ?,
               lease_until = NULL, last_attempt_at = ?, last_status = ?, last_error = ?
             WHERE id = ? RETURNING webhook_id`,
            state,
            nextAttemptAt,
            attempt.at,
            attempt.status,
            attempt.error,
            deliveryId,
          );
          if (row && attempt.next === 'failed') {
            this.access
              .stmt('UPDATE webhooks SET enabled = 0, disabled_reason = ? WHERE id = ?')
              .run(attempt.disabledReason ?? 'a delivery failed', row.webhook_id);
          }
        })
        .immediate();
    });
  }

  async purgeFinished(before: number): Promise<number> {
    return this.access.run(() => {
      // Read first, as in claim: no write lock taken when nothing has expired.
      const expired = this.row(
        "SELECT 1 FROM webhook_deliveries WHERE state <> 'pending' AND created_at < ? LIMIT 1",
        before,
      );
      if (!expired) return 0;
      return this.access
        .stmt("DELETE FROM webhook_deliveries WHERE state <> 'pending' AND created_at < ?")
        .run(before).changes;
    });
  }
}
