import pino from 'pino';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../testing/harness.js';
import { type RunningDocs, rawGet, startDocs } from './testing.js';

/** The docs host logs like the API: one line per request, its errors, and never a secret. */

const SECRET = 'sr_org_0123456789abcdefSECRETSECRETSECRET00';

function capture(): { lines: Record<string, unknown>[]; logger: pino.Logger } {
  const lines: Record<string, unknown>[] = [];
  const logger = pino(
    { level: 'info' },
    { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
  );
  return { lines, logger };
}

describe('request lines', () => {
  const { lines, logger } = capture();
  let docs: RunningDocs;

  beforeAll(async () => {
    docs = await startDocs({ logger });
  });
  afterAll(async () => {
    await docs.close();
  });

  test('one per request, with method, route, status and duration, whatever the outcome', async () => {
    // Lines from the start ("Server listening at …") are not about requests.
    const start = lines.length;
    expect((await fetch(`${docs.url}/en/docs/quickstart`)).status).toBe(200);
    expect((await fetch(`${docs.url}/es/docs/nada`)).status).toBe(404);
    expect((await rawGet(docs.url, '/en/docs/%zz')).status).toBe(400);
    expect((await rawGet(docs.url, `/en/docs/${'a'.repeat(300)}`)).status).toBe(404);
    const keyed = await fetch(`${docs.url}/llms.txt?key=${SECRET}`, {
      headers: { 'x-api-key': SECRET, authorization: `Bearer ${SECRET}` },
    });
    expect(keyed.status).toBe(200);
    await keyed.text();
    // Each line is written once its response has gone out; one more request, answered after
    // them, makes sure every line above is in.
    expect((await fetch(`${docs.url}/assets/docs.css`)).status).toBe(200);

    const written = lines.slice(start);
    const requests = written.filter((line) => line.msg === 'request');
    expect(requests.slice(0, 5)).toMatchObject([
      { method: 'GET', route: '/:locale/docs/:page', status: 200 },
      { method: 'GET', route: '/:locale/docs/:page', status: 404 },
      { method: 'GET', route: null, status: 400 },
      { method: 'GET', route: '/:locale/docs/:page', status: 404 },
      { method: 'GET', route: '/llms.txt', status: 200 },
    ]);
    for (const line of requests) {
      expect(line.level).toBe(30);
      expect(typeof line.durationMs).toBe('number');
      expect(typeof line.requestId).toBe('string');
    }
    // Only our line: Fastify's own "incoming request" / "request completed" are off.
    expect(written.filter((line) => line.msg !== 'request')).toEqual([]);
    const everything = JSON.stringify(written);
    expect(everything).not.toContain('SECRET');
    expect(everything.toLowerCase()).not.toContain('authorization');
    expect(everything.toLowerCase()).not.toContain('x-api-key');
  });
});

describe('errors', () => {
  test('a site without the OpenAPI document answers 503 without logging an error', async () => {
    const { lines, logger } = capture();
    const docs = await startDocs({ logger, openapi: undefined });
    try {
      expect((await fetch(`${docs.url}/openapi.json`)).status).toBe(503);
      expect((await fetch(`${docs.url}/llms.txt`)).status).toBe(200);
      // As above: a later answer means the lines of the earlier ones are written.
      expect((await fetch(`${docs.url}/assets/docs.css`)).status).toBe(200);
      const statuses = lines.filter((line) => line.msg === 'request').map((line) => line.status);
      expect(statuses.slice(0, 2)).toEqual([503, 200]);
      expect(lines.filter((line) => line.level === 50)).toHaveLength(0);
    } finally {
      await docs.close();
    }
  });
});

describe('in the server process', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ captureLogs: true });
  });
  afterAll(async () => {
    await server?.close();
  });

  test('the docs host writes to the process logger, its lines told apart from the API’s', async () => {
    expect((await server.fetch(`${server.docsUrl}/es/docs/errors`)).status).toBe(200);
    expect((await server.fetch(`${server.docsUrl}/es/docs/nada`)).status).toBe(404);
    // As above: a later answer means the lines of the earlier ones are written.
    expect((await server.fetch(`${server.docsUrl}/llms.txt`)).status).toBe(200);
    const docsLines = server.logs.filter((line) => line.app === 'docs' && line.msg === 'request');
    expect(docsLines.slice(0, 2)).toMatchObject([
      { route: '/:locale/docs/:page', status: 200 },
      { route: '/:locale/docs/:page', status: 404 },
    ]);
    const apiResponse = await server.request('/api/v1/health');
    expect(apiResponse.status).toBe(200);
    await server.request('/api/v1/health');
    const apiLines = server.logs.filter(
      (line) => line.msg === 'request' && line.route === '/api/v1/health',
    );
    expect(apiLines.length).toBeGreaterThan(0);
    for (const line of apiLines) expect(line.app).toBeUndefined();
  });
});
