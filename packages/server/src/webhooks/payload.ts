import { itemJson } from '../api/serialize.js';
import type { ChangePage, Webhook, WebhookEventType } from '../store/types.js';
import { isoTime } from '../time.js';

export interface PreparedDelivery {
  id: string;
  payload: string;
  eventCount: number;
  createdAt: number;
}

/**
 * The delivery of one page of an organization's changes to a webhook, or null when none of
 * them is an event it subscribed to. Items and tombstones are merged in change order. Items
 * are written as the API writes them (serialize.ts), so customFields stay byte-for-byte as
 * stored, in their state now.
 *
 * An item is `item.created` when it was created after the webhook last caught up
 * (Webhook.caughtUpSeq), else `item.updated`. Every item that existed when the webhook caught
 * up has been sent by then, so an item never sent before is always `item.created`; while a
 * backlog is worked off page by page (more than one delivery of changes waiting), an item sent
 * in one page and changed again before a later one is `item.created` in both. Comparing with
 * the cursor instead would send `item.updated` for an item created within the backlog and
 * changed again before its page was read: its first event would not say it is new.
 */
export function buildDelivery(
  webhook: Webhook,
  page: ChangePage,
  id: string,
  now: number,
): PreparedDelivery | null {
  const wanted = new Set<WebhookEventType>(webhook.events);
  const events: Array<{ seq: number; json: string }> = [];
  for (const item of page.items) {
    const type: WebhookEventType =
      item.createdSeq !== null && item.createdSeq > webhook.caughtUpSeq
        ? 'item.created'
        : 'item.updated';
    if (!wanted.has(type)) continue;
    events.push({
      seq: item.changeSeq,
      json: `{"type":"${type}","occurredAt":"${isoTime(item.updatedAt)}","item":${itemJson(item)}}`,
    });
  }
  if (wanted.has('item.deleted')) {
    for (const tombstone of page.deleted) {
      events.push({
        seq: tombstone.seq,
        json: `{"type":"item.deleted","occurredAt":"${isoTime(tombstone.deletedAt)}","item":{"_id":"${tombstone.id}"}}`,
      });
    }
  }
  if (events.length === 0) return null;
  events.sort((a, b) => a.seq - b.seq);
  const payload =
    `{"id":"${id}","webhookId":"${webhook.id}","organizationId":"${webhook.organizationId}"` +
    `,"createdAt":"${isoTime(now)}","events":[${events.map((event) => event.json).join(',')}]}`;
  return { id, payload, eventCount: events.length, createdAt: now };
}
