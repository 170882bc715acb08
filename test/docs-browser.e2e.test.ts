import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { NAV_SECTIONS, PAGE_ORDER } from '../packages/server/src/docs/build/content.js';
import { STRINGS } from '../packages/server/src/docs/i18n.js';
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

  test.each(['light', 'dark'] as const)(
    'no page of either language overflows the narrowest phone, %s',
    async (colorScheme) => {
      // Long headings (`ORGANIZATION_NOT_FOUND`, `GET /api/v1/inventory/items`) must wrap; wide
      // code blocks and tables scroll inside their own box instead of widening the page, and
      // no code line is cut off: a block too wide for its box scrolls.
      const narrow = await browser.newPage({ viewport: { width: 320, height: 640 }, colorScheme });
      const overflowing: string[] = [];
      try {
        for (const locale of ['en', 'es']) {
          for (const slug of PAGE_ORDER) {
            await narrow.goto(`${server.docsUrl}/${locale}/docs/${slug}`);
            const width = await narrow.evaluate(() => document.documentElement.scrollWidth);
            if (width > 320) overflowing.push(`${locale}/${slug}: ${width}px`);
            const cut = await narrow.evaluate(() =>
              [...document.querySelectorAll('pre')]
                .filter((pre) => pre.getClientRects().length > 0)
                .filter((pre) => {
                  const box = pre.getBoundingClientRect();
                  const scrolls = ['auto', 'scroll'].includes(getComputedStyle(pre).overflowX);
                  const parentBox = (pre.closest('.tabs') ?? pre).getBoundingClientRect();
                  return (
                    box.right > 320 ||
                    box.right > parentBox.right + 0.5 ||
                    (pre.scrollWidth > pre.clientWidth && !scrolls)
                  );
                })
                .map((pre) => (pre.textContent ?? '').slice(0, 40)),
            );
            for (const block of cut) overflowing.push(`${locale}/${slug}: code cut off: ${block}`);
          }
        }
        const background = await narrow.evaluate(
          () => getComputedStyle(document.body).backgroundColor,
        );
        expect(background).toBe(colorScheme === 'dark' ? 'rgb(13, 17, 23)' : 'rgb(255, 255, 255)');
        await narrow.goto(`${server.docsUrl}/en/docs/errors#organization_not_found`);
        await narrow.screenshot({ path: path.join(SHOTS, `errors-en-320-${colorScheme}.png`) });
      } finally {
        await narrow.close();
      }
      expect(overflowing).toEqual([]);
    },
  );

  test('the sidebar is grouped into its sections', async () => {
    await page.goto(`${server.docsUrl}/es/docs/webhooks`);
    const headings = await page.locator('nav.sidebar h2').allTextContents();
    expect(headings).toEqual(NAV_SECTIONS.map((section) => STRINGS.es.sections[section.id]));
    const guides = page.locator('nav.sidebar section', { hasText: STRINGS.es.sections.guides });
    expect(await guides.locator('a[aria-current="page"]').textContent()).toBe(
      'Notificaciones por webhook',
    );
  });

  test('previous and next links walk the pages in sidebar order', async () => {
    await page.goto(`${server.docsUrl}/en/docs/quickstart`);
    await page.locator('nav.pager a[rel="next"]').click();
    await page.waitForURL(`${server.docsUrl}/en/docs/${PAGE_ORDER[2]}`);
    await page.locator('nav.pager a[rel="prev"]').click();
    await page.waitForURL(`${server.docsUrl}/en/docs/quickstart`);
    await page.locator('nav.pager a[rel="prev"]').click();
    await page.waitForURL(`${server.docsUrl}/en/docs/introduction`);
    // The first page has no previous one, the last no next one.
    expect(await page.locator('nav.pager a[rel="prev"]').count()).toBe(0);
    await page.goto(`${server.docsUrl}/en/docs/${PAGE_ORDER.at(-1)}`);
    expect(await page.locator('nav.pager a[rel="next"]').count()).toBe(0);
  });

  test('search finds a page by a word of its body, without asking the server again', async () => {
    await page.goto(`${server.docsUrl}/en/docs/introduction`);
    const input = page.locator('#search input');
    expect(await input.isVisible()).toBe(true);
    const requests: string[] = [];
    const listener = (request: { url(): string }) => void requests.push(request.url());
    page.on('request', listener);
    try {
      // In the body of the webhooks page only (its delivery headers), not in any title.
      await input.fill('webhook-id');
      const result = page.locator('#search-results a').first();
      await result.waitFor();
      expect(await result.getAttribute('href')).toMatch(/^\/en\/docs\/webhooks(#|$)/);
      const fetched = requests.length;
      expect(requests).toEqual([`${server.docsUrl}/en/search-index.json`]);
      await input.fill('hmac signature');
      await page.locator('#search-results a').first().waitFor();
      await input.fill('zzzz-no-such-word');
      await page.getByText(STRINGS.en.search.noResults).waitFor();
      expect(requests).toHaveLength(fetched);
      await input.fill('webhook-id');
      await page.screenshot({ path: path.join(SHOTS, 'search-en.png') });
      await input.press('Enter');
      await page.waitForURL(/\/en\/docs\/webhooks/);
    } finally {
      page.off('request', listener);
    }
    // Spanish pages search the Spanish index.
    await page.goto(`${server.docsUrl}/es/docs/introduction`);
    await page.locator('#search input').fill('firma');
    const first = page.locator('#search-results a').first();
    await first.waitFor();
    expect(await first.getAttribute('href')).toMatch(/^\/es\/docs\//);
  });

  test('on a phone, the search box and its results fit the screen', async () => {
    const phone = await browser.newPage({ viewport: { width: 320, height: 640 } });
    try {
      await phone.goto(`${server.docsUrl}/es/docs/quickstart`);
      await phone.locator('#search input').fill('firma');
      const result = phone.locator('#search-results a').first();
      await result.waitFor();
      const box = await result.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= 320).toBe(true);
      const width = await phone.evaluate(() => document.documentElement.scrollWidth);
      expect(width).toBeLessThanOrEqual(320);
      await phone.screenshot({ path: path.join(SHOTS, 'search-es-320.png') });
    } finally {
      await phone.close();
    }
  });

  test('a copy button copies its code block', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: server.docsUrl,
    });
    const tab = await context.newPage();
    try {
      await tab.goto(`${server.docsUrl}/en/docs/quickstart`);
      const block = tab.locator('.code-block').nth(1);
      const code = ((await block.locator('pre').textContent()) ?? '').replace(/\n$/, '');
      await block.locator('button.copy').click();
      await block.getByText(STRINGS.en.copy.done).waitFor();
      expect(await tab.evaluate(() => navigator.clipboard.readText())).toBe(code);
      // Every code block has one.
      expect(await tab.locator('article pre').count()).toBe(
        await tab.locator('button.copy').count(),
      );
    } finally {
      await context.close();
    }
  });

  test('examples use the live API URL', async () => {
    await page.goto(`${server.docsUrl}/en/docs/quickstart`);
    const code = (await page.locator('article pre').allInnerTexts()).join('\n');
    expect(code).toContain(`${server.apiUrl}/api/v1/inventory/items`);
    expect(code).not.toContain('curl "http://127.0.0.1:3000');
  });

  test('without script: every page reads and navigates, the search box stays hidden', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const tab = await context.newPage();
    try {
      await tab.goto(`${server.docsUrl}/en/docs/quickstart`);
      expect(await tab.locator('#search').isVisible()).toBe(false);
      expect(await tab.locator('button.copy').count()).toBe(0);
      await tab.locator('nav.pager a[rel="next"]').click();
      await tab.waitForURL(`${server.docsUrl}/en/docs/${PAGE_ORDER[2]}`);
      expect(await tab.locator('nav.sidebar a').count()).toBe(PAGE_ORDER.length);
    } finally {
      await context.close();
    }
  });

  test('no console errors, CSP violations or failed requests', () => {
    expect(problems).toEqual([]);
  });
});
