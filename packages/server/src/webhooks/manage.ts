import { type Actor, recordAudit } from '../operations/audit.js';
import type { Organization, Store, Webhook, WebhookEventType } from '../store/types.js';
import { checkDestination, type DestinationPolicy, parseWebhookUrl } from './destination.js';
import { newWebhookSecret } from './signature.js';

/**
 * Webhook management shared by every operator surface: validation of the destination, the
 * change, and its audit event (never the secret).
 */

export async function createWebhook(
  store: Store,
  actor: Actor,
  organization: Organization,
  input: { url: string; events: WebhookEventType[]; description: string | null },
  policy: DestinationPolicy,
): Promise<Webhook> {
  const url = parseWebhookUrl(input.url);
  await checkDestination(url, policy);
  const webhook = await store.webhooks.create({
    organizationId: organization.id,
    url: url.toString(),
    events: input.events,
    description: input.description,
    secret: newWebhookSecret(),
  });
  await recordAudit(store, actor, {
    organizationId: organization.id,
    action: 'webhook.created',
    target: webhook.id,
    details: { url: webhook.url, events: webhook.events },
  });
  return webhook;
}

/** Null when the webhook does not exist (any more). Enabling resumes from its cursor. */
export async function setWebhookEnabled(
  store: Store,
  actor: Actor,
  webhook: Webhook,
  enabled: boolean,
): Promise<Webhook | null> {
  const updated = await store.webhooks.setEnabled(
    webhook.id,
    enabled,
    enabled ? null : `disabled by ${actor.name}`,
  );
  if (updated && updated.enabled !== webhook.enabled) {
    await recordAudit(store, actor, {
      organizationId: webhook.organizationId,
      action: enabled ? 'webhook.enabled' : 'webhook.disabled',
      target: webhook.id,
      details: { url: webhook.url },
    });
  }
  return updated;
}

export async function deleteWebhook(
  store: Store,
  actor: Actor,
  webhook: Webhook,
): Promise<boolean> {
  const deleted = await store.webhooks.delete(webhook.id);
  if (deleted) {
    await recordAudit(store, actor, {
      organizationId: webhook.organizationId,
      action: 'webhook.deleted',
      target: webhook.id,
      details: { url: webhook.url },
    });
  }
  return deleted;
}
