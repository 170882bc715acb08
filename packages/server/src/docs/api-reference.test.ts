import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../testing/harness.js';

/**
 * The API reference and /openapi.json of a real server (API and docs hosts of one process), as
 * opposed to the docs host's own tests, which use a fixture document.
 */

let server: TestServer;

beforeAll(async () => {
  // Listening: the document names the address the API host is bound to.
  server = await startTestServer({ listen: true });
});

afterAll(async () => {
  await server?.close();
});

/** The API's operations and the query parameters of each, as the API spec defines them. */
const OPERATIONS: Record<string, string[]> = {
  'GET /api/v1/health': [],
  'GET /api/v1/auth/verify': [],
  'GET /api/v1/organization': ['organizationId'],
  'GET /api/v1/inventory/items': [
    'organizationId',
    'limit',
    'search',
    'status',
    'fields',
    'cursor',
    'sku',
    'barcode',
    'ids',
    'location',
    'updatedSince',
    'includeDeleted',
  ],
  'GET /api/v1/inventory/item': ['itemId', 'organizationId', 'fields'],
  'GET /api/v1/inventory/locations': ['organizationId'],
  'GET /livez': [],
  'GET /readyz': [],
};

const WORDS = {
  en: { query: 'query', none: 'No parameters.', parameters: '### Parameters' },
  es: { query: 'consulta', none: 'Sin parámetros.', parameters: '### Parámetros' },
} as const;

/** The Markdown of one `## METHOD /path` section, up to the next `##` heading. */
function section(markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  if (start === -1) return '';
  const end = markdown.indexOf('\n## ', start + 1);
  return markdown.slice(start, end === -1 ? undefined : end);
}

async function docsGet(path: string, headers: Record<string, string> = {}) {
  const response = await server.fetch(server.docsUrl + path, { headers });
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
      const response = await proxied.fetch(`${proxied.docsUrl}/openapi.json`);
      const doc = (await response.json()) as { servers: unknown };
      expect(doc.servers).toEqual([{ url: 'https://api.example.test' }]);
      const md = await (await proxied.fetch(`${proxied.docsUrl}/en/docs/api-reference.mdx`)).text();
      expect(md).toContain('**Base URL:** `https://api.example.test`');
    } finally {
      await proxied.close();
    }
  });
});

describe('the rendered API reference', () => {
  test('the document holds exactly the operations and query parameters of the API', () => {
    // Pins the expectations below to the real document, so they cannot drift apart.
    const doc = server.server.api.swagger() as {
      paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string }> }>>;
    };
    const found: Record<string, string[]> = {};
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        found[`${method.toUpperCase()} ${path}`] = (operation.parameters ?? [])
          .filter((p) => p.in === 'query')
          .map((p) => p.name);
      }
    }
    expect(found).toEqual(OPERATIONS);
  });

  test.each(['en', 'es'] as const)(
    'lists every operation with every query parameter, in %s',
    async (locale) => {
      const words = WORDS[locale];
      const md = (await docsGet(`/${locale}/docs/api-reference.mdx`)).text;
      const html = (await docsGet(`/${locale}/docs/api-reference`)).text;
      const headings = [...md.matchAll(/^## ((?:GET|HEAD|POST|PUT|PATCH|DELETE) \S+)$/gm)].map(
        (m) => m[1],
      );
      expect(headings).toEqual(Object.keys(OPERATIONS));
      for (const [operation, parameters] of Object.entries(OPERATIONS)) {
        const text = section(md, operation);
        expect(text, operation).toContain(words.parameters);
        if (parameters.length === 0) expect(text, operation).toContain(words.none);
        const rows = [...text.matchAll(/^\|`([^`]+)`\|([^|]+)\|/gm)]
          .filter((m) => m[2] === words.query)
          .map((m) => m[1]);
        expect(rows, operation).toEqual(parameters);
        expect(html, operation).toContain(`>${operation}<a class="anchor"`);
      }
    },
  );
});

describe('the real Spanish reference', () => {
  test('has none of the generator’s English, and links error codes to the Spanish errors page', async () => {
    const md = (await docsGet('/es/docs/api-reference.mdx')).text;
    // The OpenAPI document's own descriptions stay English (the page says so); these are the
    // generator's words, in the places the generator writes them.
    for (const english of [
      '(optional)',
      '`array of ',
      '|OK|',
      'Service Unavailable',
      '(pattern ',
      'minLength',
      'maxLength',
      '|query|',
      '**Base URL',
    ]) {
      expect(md, english).not.toContain(english);
    }
    expect(md).toMatch(/\|`200`\|Correcto\|/);
    expect(md).toMatch(/\|`503`\|Servicio no disponible\|/);
    const links = [...md.matchAll(/\[`([A-Z_]+)`\]\(([^)]+)\)/g)];
    expect(links.length).toBeGreaterThan(15);
    for (const [, code, url] of links) {
      expect(url).toBe(`${server.docsUrl}/es/docs/errors#${code?.toLowerCase()}`);
    }
    // Each code is linked the first time a response lists it, and named in code after that.
    const linked = links.map(([, code]) => code);
    expect(new Set(linked).size).toBe(linked.length);
    const listed = [...md.matchAll(/^\|`[1-5][0-9]{2}`\|Error: ([^|]+)\|/gm)].flatMap(([, list]) =>
      [...(list ?? '').matchAll(/`([A-Z_]+)`/g)].map(([, code]) => code),
    );
    expect(new Set(listed)).toEqual(new Set(linked));
    expect(md).not.toMatch(/Error: [A-Z]/);
  });
});

describe('/openapi.json on the docs host', () => {
  test('is the document the API app generates, with a strong ETag answered with 304', async () => {
    const response = await docsGet('/openapi.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(JSON.parse(response.text)).toEqual(server.server.api.swagger());
    const etag = response.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const again = await docsGet('/openapi.json');
    expect(again.text).toBe(response.text);
    expect(again.headers.get('etag')).toBe(etag);
    const cached = await docsGet('/openapi.json', { 'if-none-match': etag });
    expect(cached.status).toBe(304);
    expect(cached.headers.get('etag')).toBe(etag);
    expect(cached.text).toBe('');
  });
});
