import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { GENERATED_PATH, renderTypes } from '../packages/client/scripts/openapi-types.mjs';
import { startTestServer, type TestServer } from '../packages/server/src/testing/harness.js';

/**
 * The client's types come from the server's OpenAPI document. This regenerates them in memory
 * from the document the real docs host serves and fails when the checked-in file differs, so a
 * server schema change cannot land without the client's types following it.
 */

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ listen: true });
});
afterAll(() => server?.close());

it('src/generated/openapi.ts matches the served /openapi.json', async () => {
  const response = await fetch(`${server.docsUrl}/openapi.json`);
  expect(response.status).toBe(200);
  const expected = await renderTypes(await response.json());
  const actual = await readFile(GENERATED_PATH, 'utf8');
  expect(
    actual === expected,
    'packages/client/src/generated/openapi.ts is stale: run `npm run generate -w @stockroom/client` and commit the result',
  ).toBe(true);
});
