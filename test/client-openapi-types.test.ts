import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  ADMIN_GENERATED_PATH,
  GENERATED_PATH,
  renderAdminTypes,
  renderTypes,
} from '../packages/client/scripts/openapi-types.mjs';
import {
  type AdminTestServer,
  startAdminTestServer,
} from '../packages/server/src/admin/testing.js';

/**
 * The client's types come from the server's OpenAPI documents. This regenerates them in memory
 * from the documents the real docs host and admin host serve, and fails when a checked-in file
 * differs, so a server schema change cannot land without the client's types following it.
 */

let server: AdminTestServer;

beforeAll(async () => {
  server = await startAdminTestServer();
});
afterAll(() => server?.close());

it('src/generated/openapi.ts matches the served /openapi.json', async () => {
  const response = await server.server.fetch(`${server.server.docsUrl}/openapi.json`);
  expect(response.status).toBe(200);
  const expected = await renderTypes(await response.json());
  const actual = await readFile(GENERATED_PATH, 'utf8');
  expect(
    actual === expected,
    'packages/client/src/generated/openapi.ts is stale: run `npm run generate -w @stockroom/client` and commit the result',
  ).toBe(true);
});

it('src/generated/admin-openapi.ts matches the served /admin/v1/openapi.json', async () => {
  const response = await server.admin('GET', '/admin/v1/openapi.json');
  expect(response.status).toBe(200);
  const expected = await renderAdminTypes(response.body);
  const actual = await readFile(ADMIN_GENERATED_PATH, 'utf8');
  expect(
    actual === expected,
    'packages/client/src/generated/admin-openapi.ts is stale: run `npm run generate -w @stockroom/client` and commit the result',
  ).toBe(true);
});
