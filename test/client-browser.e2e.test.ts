import { createHmac } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuiltClient } from '../packages/client/src/testing/dist.js';
import { startTestServer, type TestServer } from '../packages/server/src/testing/harness.js';

/**
 * The built ESM bundle of @stockroom/client in headless Chromium (Debian's, driven by
 * playwright-core), loaded by a page from one origin and calling the API on another: CORS
 * preflight with Authorization, and the exposed request-id, rate-limit and Retry-After headers.
 */

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) {
  // .ci/run installs Chromium and sets CI: there, a skipped browser test would hide a regression.
  if (process.env.CI) throw new Error(`${CHROMIUM} is absent: CI must run the browser test`);
  console.warn(`client browser test skipped: ${CHROMIUM} is absent (apt-get install -y chromium)`);
}

const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>Stockroom client</title></head>
<body><script type="module">
  import * as client from '/stockroom-client.js';
  window.client = client;
  document.title = 'ready';
</script></body></html>`;

/** A module worker of the page: it creates clients with the key it is sent, and reports. */
const WORKER = `import { Stockroom } from '/stockroom-client.js';

self.onmessage = async (event) => {
  const { baseUrl, apiKey } = event.data;
  let refusal = '';
  try {
    new Stockroom({ baseUrl, apiKey });
  } catch (error) {
    refusal = error.message;
  }
  const allowed = new Stockroom({ baseUrl, apiKey, dangerouslyAllowBrowser: true });
  const organization = (await allowed.organization.get())._id;
  postMessage({ refusal, organization, hasWindow: typeof window !== 'undefined' });
};
`;

/** Serves the test page and the bundle on its own port: another origin than the API's. */
async function startStaticSite(bundle: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((request, response) => {
    if (request.url === '/') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(PAGE);
    } else if (request.url === '/worker.js') {
      response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
      response.end(WORKER);
    } else if (request.url === '/stockroom-client.js') {
      response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
      response.end(bundle);
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe.skipIf(!hasChromium)('@stockroom/client in a browser', () => {
  let api: TestServer;
  let site: Awaited<ReturnType<typeof startStaticSite>>;
  let browser: Browser;
  let page: Page;
  let userKey: string;
  const problems: string[] = [];

  beforeAll(async () => {
    const { esm } = requireBuiltClient();
    api = await startTestServer({ listen: true });
    // A user key: the kind of key a browser may hold (organization keys stay on servers).
    const user = await api.createUser(api.demo.organizationId);
    userKey = (await api.createKey({ organizationId: api.demo.organizationId, userId: user.id }))
      .key;
    site = await startStaticSite(readFileSync(esm, 'utf8'));
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    page = await browser.newPage();
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(site.url);
    await page.waitForFunction(() => document.title === 'ready');
  });

  afterAll(async () => {
    await browser?.close();
    await site?.close();
    await api?.close();
  });

  it('serves the page from another origin than the API', () => {
    expect(new URL(site.url).origin).not.toBe(new URL(api.apiUrl).origin);
  });

  it('lists items cross-origin and reads the exposed request-id and rate-limit headers', async () => {
    const result = await page.evaluate(
      async ({ baseUrl, apiKey }) => {
        const { Stockroom } = (
          window as never as { client: typeof import('../packages/client/src/index.js') }
        ).client;
        const stockroom = new Stockroom({ baseUrl, apiKey });
        const { data, response } = await stockroom.inventory
          .list({ limit: 2, fields: ['_id', 'name'] })
          .withResponse();
        return {
          origin: location.origin,
          items: data.data,
          count: data.count,
          requestId: response.requestId,
          rateLimit: response.rateLimit,
          health: (await stockroom.health()).status,
          organization: (await stockroom.organization.get())._id,
        };
      },
      { baseUrl: api.apiUrl, apiKey: userKey },
    );
    expect(result.origin).toBe(site.url);
    expect(result.count).toBe(2);
    for (const item of result.items) expect(Object.keys(item)).toEqual(['_id', 'name']);
    expect(result.requestId).toMatch(/\S/);
    expect(result.rateLimit).toEqual({
      limit: 600,
      remaining: expect.any(Number),
      reset: expect.any(Number),
    });
    expect(result.rateLimit?.remaining).toBeLessThan(600);
    expect(result.health).toBe('ok');
    expect(result.organization).toBe(api.demo.organizationId);
  });

  it('raises the error classes, with the request id, for cross-origin error answers', async () => {
    const result = await page.evaluate(
      async ({ baseUrl, apiKey }) => {
        const mod = (
          window as never as { client: typeof import('../packages/client/src/index.js') }
        ).client;
        const stockroom = new mod.Stockroom({ baseUrl, apiKey });
        const error = await stockroom.inventory.get('0'.repeat(24)).catch((e: unknown) => e);
        return {
          isNotFound: error instanceof mod.NotFoundError,
          isStockroomError: error instanceof mod.StockroomError,
          code: (error as InstanceType<typeof mod.StockroomError>).code,
          status: (error as InstanceType<typeof mod.StockroomError>).status,
          requestId: (error as InstanceType<typeof mod.StockroomError>).requestId,
          headerRequestId: (error as InstanceType<typeof mod.StockroomError>).headers?.get(
            'x-request-id',
          ),
        };
      },
      { baseUrl: api.apiUrl, apiKey: userKey },
    );
    expect(result).toMatchObject({
      isNotFound: true,
      isStockroomError: true,
      code: 'ITEM_NOT_FOUND',
      status: 404,
    });
    expect(result.requestId).toMatch(/\S/);
    expect(result.headerRequestId).toBe(result.requestId);
  });

  it('reads Retry-After of a rate limit cross-origin', async () => {
    const user = await api.createUser(api.demo.organizationId);
    const { key } = await api.createKey({
      organizationId: api.demo.organizationId,
      userId: user.id,
      // A day-long window: the two requests cannot straddle two windows in practice.
      rateLimit: { max: 1, windowSeconds: 86_400 },
    });
    const result = await page.evaluate(
      async ({ baseUrl, apiKey }) => {
        const mod = (
          window as never as { client: typeof import('../packages/client/src/index.js') }
        ).client;
        const stockroom = new mod.Stockroom({ baseUrl, apiKey });
        const first = await stockroom.verifyKey().withResponse();
        const error = await stockroom.verifyKey().catch((e: unknown) => e);
        return {
          remaining: first.response.rateLimit?.remaining,
          isRateLimit: error instanceof mod.RateLimitError,
          retryAfter: (error as InstanceType<typeof mod.RateLimitError>).retryAfter,
        };
      },
      { baseUrl: api.apiUrl, apiKey: key },
    );
    expect(result.remaining).toBe(0);
    expect(result.isRateLimit).toBe(true);
    // Null would mean the browser hid Retry-After: the API must expose it over CORS.
    expect(result.retryAfter).toBeGreaterThan(0);
  });

  it('refuses an organization key in a browser unless told otherwise', async () => {
    const result = await page.evaluate(
      async ({ baseUrl, apiKey }) => {
        const { Stockroom } = (
          window as never as { client: typeof import('../packages/client/src/index.js') }
        ).client;
        let refusal = '';
        try {
          new Stockroom({ baseUrl, apiKey });
        } catch (error) {
          refusal = (error as Error).message;
        }
        const allowed = new Stockroom({ baseUrl, apiKey, dangerouslyAllowBrowser: true });
        return { refusal, organization: (await allowed.organization.get())._id };
      },
      { baseUrl: api.apiUrl, apiKey: api.demo.key },
    );
    expect(result.refusal).toMatch(/organization API key in a browser/);
    expect(result.refusal).not.toContain(api.demo.key);
    expect(result.organization).toBe(api.demo.organizationId);
  });

  it('refuses an organization key in a Web Worker too, where there is no window', async () => {
    const result = await page.evaluate(
      ({ baseUrl, apiKey }) =>
        new Promise<{ refusal: string; organization: string; hasWindow: boolean }>(
          (resolve, reject) => {
            const worker = new Worker('/worker.js', { type: 'module' });
            worker.onmessage = (event) => {
              resolve(event.data);
              worker.terminate();
            };
            worker.onerror = (event) => reject(new Error(event.message));
            worker.postMessage({ baseUrl, apiKey });
          },
        ),
      { baseUrl: api.apiUrl, apiKey: api.demo.key },
    );
    expect(result.hasWindow).toBe(false);
    expect(result.refusal).toMatch(/organization API key in a browser/);
    expect(result.refusal).not.toContain(api.demo.key);
    expect(result.organization).toBe(api.demo.organizationId);
  });

  it('verifies a webhook delivery signed with node:crypto, with the page’s Web Crypto', async () => {
    const key = Buffer.alloc(24, 42);
    const id = '6743a1f2c3d4e5f6a7b8c9d0';
    const timestamp = Math.floor(Date.now() / 1000);
    const payload = JSON.stringify({
      id,
      webhookId: '6743a0e1c3d4e5f6a7b8c901',
      organizationId: api.demo.organizationId,
      createdAt: new Date(timestamp * 1000).toISOString(),
      events: [{ type: 'item.deleted', occurredAt: '2026-11-24T20:59:59.500Z', item: { _id: id } }],
    });
    const mac = createHmac('sha256', key).update(`${id}.${timestamp}.${payload}`).digest('base64');
    const result = await page.evaluate(
      async ({ payload, headers, secret }) => {
        const mod = (
          window as never as { client: typeof import('../packages/client/src/index.js') }
        ).client;
        const delivery = await mod.verifyWebhook({
          payload,
          headers: new Headers(headers),
          secret,
        });
        const forged = await mod
          .verifyWebhook({ payload: payload.replace('deleted', 'created'), headers, secret })
          .then(
            () => 'accepted',
            (error: unknown) =>
              error instanceof mod.WebhookVerificationError ? error.code : String(error),
          );
        return { id: delivery.id, events: delivery.events.length, forged };
      },
      {
        payload,
        headers: {
          'webhook-id': id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': `v1,${mac}`,
        },
        secret: `whsec_${key.toString('base64')}`,
      },
    );
    expect(result).toEqual({ id, events: 1, forged: 'INVALID_SIGNATURE' });
  });

  it('left no page errors', () => {
    expect(problems).toEqual([]);
  });
});
