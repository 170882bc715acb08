// Turns the server's OpenAPI document into the TypeScript declarations the client is built on.
// Shared by the `generate` script (writes the file) and the staleness test (compares in memory),
// so both always produce byte-identical output from the same document.
import openapiTS, { astToString } from 'openapi-typescript';

export const GENERATED_PATH = new URL('../src/generated/openapi.ts', import.meta.url);

const HEADER = `/**
 * Generated from the Stockroom server's OpenAPI document by \`npm run generate -w @stockroom/client\`.
 * Do not edit by hand: a test fails when this file no longer matches the server.
 */

`;

/** @param {unknown} document an OpenAPI 3.x document (parsed JSON) */
export async function renderTypes(document) {
  // A deep copy: openapi-typescript annotates the object it is given.
  const ast = await openapiTS(structuredClone(document), { silent: true });
  return HEADER + astToString(ast);
}
