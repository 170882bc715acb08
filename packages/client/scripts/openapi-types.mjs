// Turns the server's OpenAPI documents into the TypeScript declarations the client is built on.
// Shared by the `generate` script (writes the files) and the staleness test (compares in memory),
// so both always produce byte-identical output from the same document.
import openapiTS, { astToString } from 'openapi-typescript';

/** The public API's declarations, from the docs host's `/openapi.json`. */
export const GENERATED_PATH = new URL('../src/generated/openapi.ts', import.meta.url);
/** The admin API's declarations, from the admin host's `/admin/v1/openapi.json`. */
export const ADMIN_GENERATED_PATH = new URL('../src/generated/admin-openapi.ts', import.meta.url);

const HEADER = `/**
 * Generated from the Stockroom server's OpenAPI document by \`npm run generate -w @stockroom/client\`.
 * Do not edit by hand: a test fails when this file no longer matches the server.
 */

`;

const ADMIN_HEADER = `/**
 * Generated from the Stockroom admin API's OpenAPI document (\`GET /admin/v1/openapi.json\` on the
 * admin port) by \`npm run generate -w @stockroom/client\`.
 * Do not edit by hand: a test fails when this file no longer matches the server.
 */

`;

async function render(header, document) {
  // A deep copy: openapi-typescript annotates the object it is given.
  const ast = await openapiTS(structuredClone(document), { silent: true });
  return header + astToString(ast);
}

/** @param {unknown} document the public API's OpenAPI 3.x document (parsed JSON) */
export function renderTypes(document) {
  return render(HEADER, document);
}

/** @param {unknown} document the admin API's OpenAPI 3.x document (parsed JSON) */
export function renderAdminTypes(document) {
  return render(ADMIN_HEADER, document);
}
