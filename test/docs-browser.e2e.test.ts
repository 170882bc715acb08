import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PAGE_ORDER } from '../packages/server/src/docs/build/content.js';
import { startTestServer, type TestServer } from '../packages/server/src/testing/harness.js';

/**
 * The docs as a person sees them, in Debian's Chromium driven by playwright-core (never a
 * downloaded browser). Screenshots go to test-results/docs-browser/ (gitignored) for review.
 */

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
const SHOTS = path.resolve(import.meta.dirname, '../test-results/docs-browser');

if (!hasChromium) {
  // .ci/run installs Chromium and sets CI: there, a skipped browser test would hide a regression.
  if (process.env.CI) throw new Error(`${CHROMIUM} is absent: CI must run the browser test`);
  console.warn(`docs browser test skipped: ${CHROMIUM} is absent (apt-get install -y chromium)`);
}

describe.skipIf(!hasChromium)('docs in a browser', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    server = await startTestServer({ listen: true });
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
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    // A CSP violation or a failed asset shows up here; the pages must produce none.
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('response', (response) => {
      if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
    });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  test('a page renders with its stylesheet, navigation and highlighted code', async () => {
    await page.goto(`${server.docsUrl}/en/docs/quickstart`);
    expect(await page.locator('h1').textContent()).toBe('Quickstart');
    expect(await page.title()).toContain('Quickstart');
    // The stylesheet applied: the sidebar sits beside the content on a wide screen.
    const sidebar = await page.locator('nav.sidebar').boundingBox();
    const main = await page.locator('main').boundingBox();
    expect(sidebar && main && sidebar.x + sidebar.width <= main.x).toBe(true);
    expect(await page.locator('nav.sidebar a[aria-current="page"]').textContent()).toBe(
      'Quickstart',
    );
    expect(
      await page.locator('pre code .hljs-string, pre code .hljs-comment').count(),
    ).toBeGreaterThan(0);
    const alternate = await page
      .locator('link[rel="alternate"][type="text/markdown"]')
      .getAttribute('href');
    expect(alternate).toBe('/en/docs/quickstart.mdx');
    await page.screenshot({ path: path.join(SHOTS, 'quickstart-en.png'), fullPage: false });
  });

  test('tabs switch without any script', async () => {
    const panels = page.locator('.tabs').first().locator('.tab-panel');
    expect(await panels.nth(0).isVisible()).toBe(true);
    expect(await panels.nth(1).isVisible()).toBe(false);
    await page.locator('.tabs').first().getByText('JavaScript', { exact: true }).click();
    expect(await panels.nth(1).isVisible()).toBe(true);
    expect(await panels.nth(0).isVisible()).toBe(false);
    await panels.nth(1).scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SHOTS, 'quickstart-tabs.png') });
  });

  test('the language switch leads to the twin page', async () => {
    await page.locator('nav.lang').getByText('Español').click();
    await page.waitForURL(`${server.docsUrl}/es/docs/quickstart`);
    expect(await page.locator('h1').textContent()).toBe('Inicio rápido');
    expect(await page.locator('html').getAttribute('lang')).toBe('es');
    await page.locator('nav.lang').getByText('English').click();
    await page.waitForURL(`${server.docsUrl}/en/docs/quickstart`);
    await page.locator('nav.lang').getByText('Español').click();
    await page.waitForURL(`${server.docsUrl}/es/docs/quickstart`);
  });

  test('links lead to pages and sections', async () => {
    await page.locator('nav.sidebar').getByText('Errores', { exact: true }).click();
    await page.waitForURL(`${server.docsUrl}/es/docs/errors`);
    expect(await page.locator('h1').textContent()).toBe('Errores');
    // An in-text link to another page's section: authentication → errors#missing_api_key.
    await page.goto(`${server.docsUrl}/en/docs/authentication`);
    await page.locator('article a[href="/en/docs/errors#missing_api_key"]').first().click();
    await page.waitForURL(`${server.docsUrl}/en/docs/errors#missing_api_key`);
    // The browser scrolled the section to the top, below the sticky header.
    const box = await page.locator('#missing_api_key').boundingBox();
    expect(box && box.y >= 0 && box.y < 300).toBe(true);
    await page.screenshot({ path: path.join(SHOTS, 'errors-en.png') });
  });

  test('the API reference shows the OpenAPI operations', async () => {
    await page.goto(`${server.docsUrl}/en/docs/api-reference`);
    expect(await page.locator('h2', { hasText: 'GET /api/v1/inventory/items' }).count()).toBe(1);
    expect(await page.locator('table code', { hasText: 'cursor' }).first().isVisible()).toBe(true);
    await page.screenshot({ path: path.join(SHOTS, 'api-reference-en.png') });
  });

  test('a phone-sized screen gets a single column', async () => {
    const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
    try {
      await phone.goto(`${server.docsUrl}/es/docs/inventory-items`);
      const width = await phone.evaluate(() => document.documentElement.scrollWidth);
      expect(width).toBeLessThanOrEqual(390);
      await phone.screenshot({
        path: path.join(SHOTS, 'inventory-items-es-phone.png'),
        fullPage: false,
      });
    } finally {
      await phone.close();
    }
  });

  test('no page of either language overflows the narrowest phone', async () => {
    // Long headings (`ORGANIZATION_NOT_FOUND`, `GET /api/v1/inventory/items`) must wrap; wide
    // code blocks and tables scroll inside their own box instead of widening the page.
    const narrow = await browser.newPage({ viewport: { width: 320, height: 640 } });
    const overflowing: string[] = [];
    try {
      for (const locale of ['en', 'es']) {
        for (const slug of PAGE_ORDER) {
          await narrow.goto(`${server.docsUrl}/${locale}/docs/${slug}`);
          const width = await narrow.evaluate(() => document.documentElement.scrollWidth);
          if (width > 320) overflowing.push(`${locale}/${slug}: ${width}px`);
        }
      }
      await narrow.goto(`${server.docsUrl}/en/docs/errors#organization_not_found`);
      await narrow.screenshot({ path: path.join(SHOTS, 'errors-en-320.png') });
    } finally {
      await narrow.close();
    }
    expect(overflowing).toEqual([]);
  });

  test('no console errors, CSP violations or failed requests', () => {
    expect(problems).toEqual([]);
  });
});
