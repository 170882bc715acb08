import { type Command, InvalidArgumentError, Option } from 'commander';
import { webhookDestinations } from '../config.js';
import { cliActor } from '../operations/audit.js';
import { type Store, WEBHOOK_EVENTS, type Webhook, type WebhookDelivery } from '../store/types.js';
import { iso } from '../time.js';
import { DestinationError } from '../webhooks/destination.js';
import { createWebhook, deleteWebhook, setWebhookEnabled } from '../webhooks/manage.js';
import { type ConfirmOptions, confirm, confirmable } from './confirm.js';
import { contextOf, withStore } from './context.js';
import { CliError } from './errors.js';
import { lookupOrganization } from './lookup.js';
import { fields, table } from './output.js';
import { listParser, parseId, textParser } from './values.js';

const DEFAULT_DELIVERIES = 20;
const MAX_DELIVERIES = 1000;

export function webhookView(webhook: Webhook) {
  return {
    id: webhook.id,
    organizationId: webhook.organizationId,
    url: webhook.url,
    events: webhook.events,
    description: webhook.description,
    enabled: webhook.enabled,
    disabledReason: webhook.disabledReason,
    createdAt: iso(webhook.createdAt),
  };
}

function deliveryView(delivery: WebhookDelivery) {
  return {
    id: delivery.id,
    state: delivery.state,
    events: delivery.eventCount,
    attempts: delivery.attempts,
    createdAt: iso(delivery.createdAt),
    nextAttemptAt: delivery.state === 'pending' ? iso(delivery.nextAttemptAt) : null,
    lastAttemptAt: iso(delivery.lastAttemptAt),
    lastStatus: delivery.lastStatus,
    lastError: delivery.lastError,
  };
}

async function lookupWebhook(store: Store, id: string): Promise<Webhook> {
  const webhook = await store.webhooks.get(id);
  if (!webhook) {
    throw new CliError(
      'WEBHOOK_NOT_FOUND',
      `no webhook with id ${id}; see \`stockroom webhook list --org ORG\``,
    );
  }
  return webhook;
}

function parseLimit(raw: string): number {
  if (!/^[1-9]\d*$/.test(raw) || Number(raw) > MAX_DELIVERIES) {
    throw new InvalidArgumentError(`must be a whole number from 1 to ${MAX_DELIVERIES}, e.g. 50`);
  }
  return Number(raw);
}

function state(webhook: Webhook): string {
  return webhook.enabled ? 'enabled' : `disabled (${webhook.disabledReason ?? 'no reason given'})`;
}

export function registerWebhook(program: Command): void {
  const webhook = program
    .command('webhook')
    .description("send an organization's item changes to an HTTPS endpoint, signed")
    .summary('manage webhooks');

  webhook
    .command('create')
    .description(
      "create a webhook: the organization's item changes from now on are POSTed to URL in signed, batched deliveries; prints the signing secret once",
    )
    .requiredOption('--org <ORG>', 'organization id or slug')
    .requiredOption('--url <URL>', 'the https:// (or http://) endpoint to POST deliveries to')
    .addOption(
      new Option(
        '--events <LIST>',
        `events to send (default: all): ${WEBHOOK_EVENTS.join(',')}`,
      ).argParser((raw: string) => {
        const events = listParser(WEBHOOK_EVENTS, 'event')(raw);
        if (events.length === 0) throw new InvalidArgumentError('give at least one event');
        return events;
      }),
    )
    .option('--description <TEXT>', 'what the endpoint is, for `webhook list`', textParser(200))
    .addHelpText(
      'after',
      `
The URL's host must resolve to public addresses only: loopback, private, link-local (cloud
metadata) and other special ranges are refused unless WEBHOOK_ALLOWED_NETWORKS lists them.
Deliveries carry up to 100 events; see the Webhooks page of the docs for the payload and how
to verify the webhook-signature header with the secret.`,
    )
    .action(
      async (
        opts: { org: string; url: string; events?: Webhook['events']; description?: string },
        command: Command,
      ) => {
        const context = contextOf(command);
        const policy = webhookDestinations(context.io.env.WEBHOOK_ALLOWED_NETWORKS);
        const created = await withStore(context, async (store) => {
          const organization = await lookupOrganization(store, opts.org);
          try {
            return await createWebhook(
              store,
              cliActor(),
              organization,
              {
                url: opts.url,
                events: opts.events ?? [...WEBHOOK_EVENTS],
                description: opts.description ?? null,
              },
              policy,
            );
          } catch (error) {
            if (error instanceof DestinationError) {
              throw new CliError('DESTINATION_REFUSED', `--url: ${error.message}`);
            }
            throw error;
          }
        });
        context.out.success(
          { ...webhookView(created), secret: created.secret },
          [
            `Created webhook ${created.id} for ${created.url}`,
            fields([
              ['events', created.events.join(',')],
              ['organization', created.organizationId],
            ]),
            '',
            `  ${created.secret}`,
            '',
            'This signing secret is shown only once: give it to the endpoint now, which uses it to verify the webhook-signature header of every delivery.',
          ].join('\n'),
        );
      },
    );

  webhook
    .command('list')
    .description("list an organization's webhooks")
    .requiredOption('--org <ORG>', 'organization id or slug')
    .action(async (opts: { org: string }, command: Command) => {
      const context = contextOf(command);
      const webhooks = await withStore(context, async (store) => {
        const organization = await lookupOrganization(store, opts.org);
        return store.webhooks.list(organization.id);
      });
      const views = webhooks.map(webhookView);
      context.out.success(
        { webhooks: views },
        webhooks.length === 0
          ? 'No webhooks yet. Create one with `stockroom webhook create --org ORG --url URL`.'
          : table(
              ['id', 'url', 'events', 'state', 'created'],
              webhooks.map((w) => [
                w.id,
                w.url,
                w.events.join(','),
                state(w),
                iso(w.createdAt) ?? '',
              ]),
            ),
      );
    });

  for (const enabled of [false, true]) {
    const verb = enabled ? 'enable' : 'disable';
    webhook
      .command(verb)
      .description(
        enabled
          ? 'resume deliveries to a webhook where they stopped: a delivery that failed for good is tried again, then the changes made meanwhile are sent, coalesced'
          : 'stop sending deliveries to a webhook (changes are kept for it until it is enabled again)',
      )
      .argument('<WEBHOOK>', 'webhook id (as shown by `webhook list`)', parseId)
      .action(async (id: string, _opts: unknown, command: Command) => {
        const context = contextOf(command);
        const updated = await withStore(context, async (store) => {
          const current = await lookupWebhook(store, id);
          const updated = await setWebhookEnabled(store, cliActor(), current, enabled);
          if (!updated) return lookupWebhook(store, id);
          return updated;
        });
        context.out.success(webhookView(updated), `Webhook ${updated.id} is ${state(updated)}.`);
      });
  }

  confirmable(
    webhook
      .command('delete')
      .description('delete a webhook and its delivery history (asks first on a terminal)')
      .argument('<WEBHOOK>', 'webhook id (as shown by `webhook list`)', parseId),
  ).action(async (id: string, opts: ConfirmOptions, command: Command) => {
    const context = contextOf(command);
    const deleted = await withStore(context, async (store) => {
      const current = await lookupWebhook(store, id);
      await confirm(context, opts, {
        command: 'webhook delete',
        action: `delete webhook ${current.id} (${current.url})`,
        consequence: 'Its delivery history goes with it; changes are no longer sent there.',
      });
      if (!(await deleteWebhook(store, cliActor(), current))) await lookupWebhook(store, id);
      return current;
    });
    context.out.success(
      { id: deleted.id, deleted: true },
      `Deleted webhook ${deleted.id} (${deleted.url}).`,
    );
  });

  webhook
    .command('deliveries')
    .description("list a webhook's deliveries, newest first: state, attempts and the last error")
    .argument('<WEBHOOK>', 'webhook id (as shown by `webhook list`)', parseId)
    .option(
      '--limit <N>',
      `show the N most recent (default ${DEFAULT_DELIVERIES}, at most ${MAX_DELIVERIES})`,
      parseLimit,
    )
    .action(async (id: string, opts: { limit?: number }, command: Command) => {
      const context = contextOf(command);
      const { current, deliveries } = await withStore(context, async (store) => {
        const current = await lookupWebhook(store, id);
        const deliveries = await store.webhooks.listDeliveries(
          id,
          opts.limit ?? DEFAULT_DELIVERIES,
        );
        return { current, deliveries };
      });
      const views = deliveries.map(deliveryView);
      context.out.success(
        { webhook: webhookView(current), deliveries: views },
        views.length === 0
          ? `No deliveries yet for webhook ${current.id} (${state(current)}).`
          : table(
              [
                'id',
                'state',
                'events',
                'attempts',
                'created',
                'last status',
                'last error / next attempt',
              ],
              views.map((view) => [
                view.id,
                view.state,
                String(view.events),
                String(view.attempts),
                view.createdAt ?? '',
                view.lastStatus === null ? '-' : String(view.lastStatus),
                view.state === 'pending' && view.nextAttemptAt
                  ? `${view.lastError ? `${view.lastError}; ` : ''}next ${view.nextAttemptAt}`
                  : (view.lastError ?? ''),
              ]),
            ),
      );
    });
}
