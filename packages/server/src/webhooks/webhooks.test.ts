import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../config.js';
import type { PrometheusMetrics } from '../metrics/metrics.js';
import { cliActor } from '../operations/audit.js';
import { startServices } from '../server.js';
import type { Organization, Webhook } from '../store/types.js';
import { startTestServer, type TestServer } from '../testing/harness.js';
import { DestinationError, PUBLIC_ONLY, parseAllowedNetworks } from './destination.js';
import { createWebhook, setWebhookEnabled } from './manage.js';
import { expectedSignature, startReceiver, type TestReceiver } from './testing.js';

// Deliveries go to a receiver on 127.0.0.1, which the operator allows explicitly here; the
// interval is short so that a test waits milliseconds, not seconds, for each delivery.
const ENV = {
  WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1',
  WEBHOOK_POLL_INTERVAL: '20ms',
  WEBHOOK_RETRY_DELAYS: '50ms,50ms',
  METRICS_PORT: '0',
};
const ALLOW_LOOPBACK = parseAllowedNetworks('127.0.0.1');

/** The file's server; each test subscribes its own organization to its own receiver. */
let shared: TestServer;
/** The server of the current test: the shared one, or a fresh one (`useFreshServer`). */
let t: TestServer;
let fresh: TestServer | null = null;
let receiver: TestReceiver;
let organization: Organization;

beforeAll(async () => {
  shared = await startTestServer({ env: ENV });
});

afterAll(() => shared.close());

beforeEach(async () => {
  t = shared;
  receiver = await startReceiver();
  organization = await t.createOrganization();
});

afterEach(async () => {
  await fresh?.close();
  fresh = null;
  await receiver.close();
});

/**
 * For a test that stops the server's dispatcher, closes the server, or counts its metrics: a
 * server of its own, with the test's organization in it.
 */
async function useFreshServer(): Promise<void> {
  fresh = await startTestServer({ env: ENV });
  t = fresh;
  organization = await t.createOrganization();
}

async function metricsText(): Promise<string> {
  return (t.server.services.metrics as PrometheusMetrics).registry.metrics();
}

function subscribe(events: Webhook['events'] = ['item.created', 'item.updated', 'item.deleted']) {
  return createWebhook(
    t.store,
    cliActor(),
    organization,
    { url: receiver.url, events, description: null },
    ALLOW_LOOPBACK,
  );
}

/**
 * Another process's services on the test server's database, its dispatcher running: what a
 * second `serve` brings to the deliveries (its hosts play no part in them).
 */
async function startAnotherProcess() {
  const { services } = await startServices(
    loadConfig({ DATABASE_URL: t.dbPath, LOG_LEVEL: 'silent', NODE_ENV: 'test', ...ENV }),
    { apiUrl: 'http://api.stockroom.test', docsUrl: 'http://docs.stockroom.test', logger: false },
  );
  return { services, close: () => services.close() };
}

async function deliveries(webhook: Webhook) {
  return t.store.webhooks.listDeliveries(webhook.id, 100);
}

describe('webhook deliveries', () => {
  it('sends created, updated and deleted events, signed, with the item as the API shows it', async () => {
    const webhook = await subscribe();
    await t.createItems(organization.id, [{ name: 'Hammer', sku: 'HAM-1', quantity: 3 }]);
    const created = await receiver.next();

    expect(created.headers['content-type']).toBe('application/json');
    expect(created.headers['user-agent']).toMatch(/^Stockroom-Webhooks\//);
    expect(created.headers['webhook-id']).toBe(created.json.id);
    const timestamp = Number(created.headers['webhook-timestamp']);
    expect(Math.abs(timestamp - Date.now() / 1000)).toBeLessThan(60);
    expect(created.headers['webhook-signature']).toBe(
      expectedSignature(webhook.secret, created.headers, created.body),
    );
    expect(created.json).toMatchObject({
      webhookId: webhook.id,
      organizationId: organization.id,
      events: [{ type: 'item.created', item: { name: 'Hammer', sku: 'HAM-1', quantity: 3 } }],
    });
    const item = created.json.events[0].item;
    const key = await t.createKey({ organizationId: organization.id });
    const api = await t.request(`/api/v1/inventory/item?itemId=${item._id}`, { key: key.key });
    expect(api.status).toBe(200);
    expect(item).toEqual(api.body.data);
    expect(created.json.events[0].occurredAt).toBe(api.body.data.updatedAt);

    await t.createItems(organization.id, [{ sku: 'HAM-1', quantity: 4 }]);
    const updated = await receiver.next();
    expect(updated.json.events).toEqual([
      expect.objectContaining({
        type: 'item.updated',
        item: expect.objectContaining({ quantity: 4 }),
      }),
    ]);

    await t.store.deleteItem(organization.id, { sku: 'HAM-1' });
    const deleted = await receiver.next();
    expect(deleted.json.events).toEqual([
      { type: 'item.deleted', occurredAt: expect.any(String), item: { _id: item._id } },
    ]);
    await vi.waitFor(async () => {
      const states = (await deliveries(webhook)).map((d) => [d.state, d.attempts, d.lastStatus]);
      expect(states).toEqual([
        ['delivered', 1, 204],
        ['delivered', 1, 204],
        ['delivered', 1, 204],
      ]);
    });
  });

  it('sends nothing for changes before the webhook existed, nor for other organizations', async () => {
    await t.createItems(organization.id, [{ name: 'Before', sku: 'OLD-1' }]);
    const other = await t.createOrganization();
    await subscribe();
    await t.createItems(other.id, [{ name: 'Elsewhere', sku: 'ELSE-1' }]);
    await t.createItems(organization.id, [{ name: 'After', sku: 'NEW-1' }]);
    const delivery = await receiver.next();
    expect(delivery.json.events.map((e: { item: { sku: string } }) => e.item.sku)).toEqual([
      'NEW-1',
    ]);
    expect(receiver.received).toHaveLength(1);
  });

  it('coalesces a bulk write into deliveries of 100 events, one at a time, each item once', async () => {
    await useFreshServer();
    await subscribe();
    // One settled burst: 250 creations, then 50 of them updated again before anything is sent.
    const rows = Array.from({ length: 250 }, (_, i) => ({ name: `Bolt ${i}`, sku: `B-${i}` }));
    const server = t.server;
    await server.services.webhooks?.close();
    await t.createItems(organization.id, rows);
    await t.createItems(
      organization.id,
      rows.slice(0, 50).map((row) => ({ sku: row.sku, quantity: 9 })),
    );
    // Deliveries resume in a fresh dispatcher of the same process (as after a restart).
    const { WebhookDispatcher } = await import('./dispatcher.js');
    const dispatcher = new WebhookDispatcher({
      store: t.store,
      policy: ALLOW_LOOPBACK,
      retryDelaysMs: [50],
      pollMs: 20,
      log: { warn: () => {}, info: () => {} },
    });
    dispatcher.start();
    try {
      const batches = [await receiver.next(), await receiver.next(), await receiver.next()];
      expect(batches.map((b) => b.json.events.length)).toEqual([100, 100, 50]);
      const events = batches.flatMap((b) => b.json.events);
      const skus = events.map((e: { item: { sku: string } }) => e.item.sku);
      expect(new Set(skus).size).toBe(250);
      // Never sent before: item.created, in its latest state; B-0…B-49 too, although their
      // creation falls in the first page's range and they changed again before it was read.
      expect(events.every((e: { type: string }) => e.type === 'item.created')).toBe(true);
      const bolt0 = events.find((e: { item: { sku: string } }) => e.item.sku === 'B-0');
      expect(bolt0.item.quantity).toBe(9);
      expect(receiver.maxConcurrent).toBe(1);
      // Caught up: a later change of a sent item is an update.
      await t.createItems(organization.id, [{ sku: 'B-0', quantity: 10 }]);
      const later = await receiver.next();
      expect(later.json.events).toEqual([
        expect.objectContaining({
          type: 'item.updated',
          item: expect.objectContaining({ sku: 'B-0' }),
        }),
      ]);
    } finally {
      await dispatcher.close();
    }
  });

  it('sends only the subscribed events, and no delivery when none is left', async () => {
    await subscribe(['item.deleted']);
    await t.createItems(organization.id, [{ name: 'Gone soon', sku: 'DEL-1' }]);
    const [item] = await t.store.listItems(organization.id, { limit: 1 });
    await t.store.deleteItem(organization.id, { sku: 'DEL-1' });
    const delivery = await receiver.next();
    expect(delivery.json.events).toEqual([
      { type: 'item.deleted', occurredAt: expect.any(String), item: { _id: item?.id } },
    ]);
    expect(receiver.received).toHaveLength(1);
  });

  it('retries a failed delivery with the same id and body until it is accepted', async () => {
    await useFreshServer();
    const webhook = await subscribe();
    receiver.reply(500, 503);
    await t.createItems(organization.id, [{ name: 'Retry me', sku: 'R-1' }]);
    const attempts = [await receiver.next(), await receiver.next(), await receiver.next()];
    expect(new Set(attempts.map((a) => a.headers['webhook-id'])).size).toBe(1);
    expect(new Set(attempts.map((a) => a.body)).size).toBe(1);
    for (const attempt of attempts) {
      expect(attempt.headers['webhook-signature']).toBe(
        expectedSignature(webhook.secret, attempt.headers, attempt.body),
      );
    }
    await vi.waitFor(async () => {
      const [delivery] = await deliveries(webhook);
      expect(delivery).toMatchObject({ state: 'delivered', attempts: 3, lastStatus: 204 });
    });
    const metrics = await metricsText();
    expect(metrics).toContain('stockroom_webhook_attempts_total{outcome="retry"} 2');
    expect(metrics).toContain('stockroom_webhook_attempts_total{outcome="delivered"} 1');
  });

  it('disables the webhook when the last attempt fails, and resumes from there when enabled', async () => {
    const webhook = await subscribe();
    receiver.reply(500, { status: 302, headers: { location: 'http://169.254.169.254/' } }, 410);
    await t.createItems(organization.id, [{ name: 'Lost', sku: 'L-1' }]);
    await receiver.next();
    const redirected = await receiver.next();
    await receiver.next();
    expect(redirected.headers['webhook-id']).toBeDefined();

    await vi.waitFor(async () => {
      const current = await t.store.webhooks.get(webhook.id);
      expect(current?.enabled).toBe(false);
    });
    const [failed] = await deliveries(webhook);
    expect(failed).toMatchObject({ state: 'failed', attempts: 3, lastStatus: 410 });
    const disabled = await t.store.webhooks.get(webhook.id);
    expect(disabled?.disabledReason).toMatch(
      /failed 3 attempts; the last: the endpoint answered HTTP 410/,
    );
    const audit = await t.store.listAuditEvents(organization.id);
    expect(audit.at(-1)).toMatchObject({
      actor: 'system:webhooks',
      action: 'webhook.disabled',
      target: webhook.id,
    });
    // The redirect was not followed: only the receiver was asked.
    expect(receiver.received).toHaveLength(3);

    // Enabled again, it resumes where it stopped: the failed delivery gets a new round of
    // attempts, then the changes made meanwhile follow.
    await t.createItems(organization.id, [{ name: 'Meanwhile', sku: 'M-1' }]);
    await setWebhookEnabled(t.store, cliActor(), disabled as Webhook, true);
    const retried = await receiver.next();
    expect(retried.headers['webhook-id']).toBe(redirected.headers['webhook-id']);
    const resumed = await receiver.next();
    expect(resumed.json.events.map((e: { item: { sku: string } }) => e.item.sku)).toEqual(['M-1']);
    await vi.waitFor(async () => {
      expect((await deliveries(webhook)).map((d) => [d.state, d.attempts])).toEqual([
        ['delivered', 1],
        ['delivered', 1],
      ]);
    });
  });

  it('loses nothing across a restart: a delivery that failed is sent by the next process', async () => {
    await useFreshServer();
    const webhook = await subscribe();
    const held = receiver.hold();
    await t.createItems(organization.id, [{ name: 'Survivor', sku: 'S-1' }]);
    const first = await held;
    // The process drains: it waits for the attempt in flight, which then fails.
    const closing = t.server.close();
    first.answer(503);
    await closing;

    const next = await startAnotherProcess();
    try {
      const retried = await receiver.next();
      expect(retried.headers['webhook-id']).toBe(first.delivery.headers['webhook-id']);
      expect(retried.body).toBe(first.delivery.body);
      await vi.waitFor(async () => {
        const [delivery] = await next.services.store.webhooks.listDeliveries(webhook.id, 1);
        expect(delivery).toMatchObject({ state: 'delivered', attempts: 2 });
      });
    } finally {
      await next.close();
    }
  });

  it('shares the work between processes without sending a delivery twice', async () => {
    const webhook = await subscribe();
    const second = await startAnotherProcess();
    try {
      for (let batch = 0; batch < 5; batch++) {
        await t.createItems(
          organization.id,
          Array.from({ length: 60 }, (_, i) => ({
            name: `Nut ${batch}-${i}`,
            sku: `N-${batch}-${i}`,
          })),
        );
      }
      const skus = new Set<string>();
      while (skus.size < 300) {
        const delivery = await receiver.next();
        for (const event of delivery.json.events) skus.add(event.item.sku);
      }
      const ids = receiver.received.map((d) => d.headers['webhook-id']);
      expect(new Set(ids).size).toBe(ids.length);
      const events = receiver.received.flatMap((d) => d.json.events);
      expect(events).toHaveLength(300);
      await vi.waitFor(async () => {
        const all = await deliveries(webhook);
        expect(all.every((d) => d.state === 'delivered' && d.attempts === 1)).toBe(true);
      });
    } finally {
      await second.close();
    }
  });

  it('stops with its organization', async () => {
    const webhook = await subscribe();
    await t.createItems(organization.id, [{ name: 'Last', sku: 'LAST-1' }]);
    await receiver.next();
    expect(await t.store.deleteOrganization(organization.id)).not.toBeNull();
    expect(await t.store.webhooks.get(webhook.id)).toBeNull();
    expect(await t.store.webhooks.listDeliveries(webhook.id, 10)).toEqual([]);
  });
});

describe('webhook destinations', () => {
  it.each([
    ['http://127.0.0.1:8080/hook', /loopback/],
    ['http://localhost/hook', /loopback/],
    ['http://10.1.2.3/hook', /private/],
    ['http://169.254.169.254/latest/meta-data/', /link local/],
    ['http://[::1]/hook', /loopback/],
    ['http://[fd00:ec2::254]/hook', /unique local/],
    ['http://[::ffff:127.0.0.1]/hook', /loopback/],
    ['http://0.0.0.0/hook', /unspecified/],
  ])('refuses %s unless the operator allows it', async (url, reason) => {
    const attempt = createWebhook(
      t.store,
      cliActor(),
      organization,
      { url, events: ['item.created'], description: null },
      PUBLIC_ONLY,
    );
    await expect(attempt).rejects.toThrow(DestinationError);
    await expect(attempt).rejects.toThrow(reason);
    expect(await t.store.webhooks.list(organization.id)).toEqual([]);
  });

  it.each([
    ['ftp://example.com/hook', /https:\/\/ or http:\/\//],
    ['https://user:secret@example.com/hook', /credentials/],
    ['example.com/hook', /absolute URL/],
  ])('refuses the malformed URL %s', async (url, reason) => {
    await expect(
      createWebhook(
        t.store,
        cliActor(),
        organization,
        { url, events: ['item.created'], description: null },
        ALLOW_LOOPBACK,
      ),
    ).rejects.toThrow(reason);
  });
});

describe('WEBHOOKS=off', () => {
  it('runs no dispatcher in that process', async () => {
    const quiet = await startTestServer({ env: { ...ENV, WEBHOOKS: 'off' } });
    try {
      expect(quiet.server.services.webhooks).toBeNull();
      expect(t.server.services.webhooks).not.toBeNull();
    } finally {
      await quiet.close();
    }
  });
});

describe('the OpenAPI document', () => {
  it('describes the delivery a webhook receives, with its item schema', async () => {
    const response = await t.docsRequest('/openapi.json');
    const document = response.body;
    expect(document.openapi).toBe('3.1.0');
    const post = document.webhooks.itemChanges.post;
    expect(post.parameters.map((p: { name: string }) => p.name)).toEqual([
      'webhook-id',
      'webhook-timestamp',
      'webhook-signature',
    ]);
    const events = post.requestBody.content['application/json'].schema.properties.events;
    expect(events.items.properties.type.enum).toEqual([
      'item.created',
      'item.updated',
      'item.deleted',
    ]);
    const [itemRef] = events.items.properties.item.oneOf;
    expect(itemRef.$ref).toBe('#/components/schemas/InventoryItem');
    expect(document.components.schemas.InventoryItem).toBeDefined();
  });
});
