import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../testing/harness.js';

/**
 * The API reference and /openapi.json of a real server (API and docs hosts of one process), as
 * opposed to the docs host's own tests, which use a fixture document.
 */

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server?.close();
});

async function docsGet(path: string, headers: Record<string, string> = {}) {
  const response = await fetch(server.docsUrl + path, { headers });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

describe('the API URL of the document', () => {
  test('is the address the server bound, not a default', async () => {
    // The harness binds port 0, so the API sits on whatever port the system gave it.
    const port = new URL(server.apiUrl).port;
    expect(port).not.toBe('3000');
    expect(server.apiUrl).toBe(`http://127.0.0.1:${port}`);
    const response = await docsGet('/openapi.json');
    expect(response.status).toBe(200);
    expect(JSON.parse(response.text).servers).toEqual([{ url: server.apiUrl }]);
    for (const [locale, label] of [
      ['en', 'Base URL'],
      ['es', 'URL base'],
    ]) {
      const md = await docsGet(`/${locale}/docs/api-reference.mdx`);
      expect(md.text).toContain(`**${label}:** \`${server.apiUrl}\``);
      const html = await docsGet(`/${locale}/docs/api-reference`);
      expect(html.text).toContain(`<strong>${label}:</strong> <code>${server.apiUrl}</code>`);
    }
  });

  test('is PUBLIC_API_URL when it is set', async () => {
    const proxied = await startTestServer({ env: { PUBLIC_API_URL: 'https://api.example.test/' } });
    try {
      const response = await fetch(`${proxied.docsUrl}/openapi.json`);
      const doc = (await response.json()) as { servers: unknown };
      expect(doc.servers).toEqual([{ url: 'https://api.example.test' }]);
      const md = await (await fetch(`${proxied.docsUrl}/en/docs/api-reference.mdx`)).text();
      expect(md).toContain('**Base URL:** `https://api.example.test`');
    } finally {
      await proxied.close();
    }
  });
});
