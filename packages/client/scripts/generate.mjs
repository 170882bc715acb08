#!/usr/bin/env node
// Writes src/generated/openapi.ts from the server's OpenAPI document.
//
//   npm run generate -w @stockroom/client                 from this repository's server
//   npm run generate -w @stockroom/client -- --from URL   from a running docs host's /openapi.json
//   npm run generate -w @stockroom/client -- --from FILE  from a saved document
//
// Without --from it starts the server of this repository (its compiled dist, so it builds it
// first: the npm script does) on an in-memory database and reads /openapi.json from its docs
// host: the document integrators see, and the one the staleness test compares against.
import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { GENERATED_PATH, renderTypes } from './openapi-types.mjs';

async function fromServer() {
  const { loadConfig, startServer } = await import('stockroom');
  const config = loadConfig({
    DATABASE_URL: ':memory:',
    PORT: '0',
    DOCS_PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    NODE_ENV: 'test',
  });
  const server = await startServer(config);
  try {
    return await fromSource(`${server.docsUrl}/openapi.json`);
  } finally {
    await server.close();
  }
}

async function fromSource(source) {
  if (/^https?:\/\//.test(source)) {
    const response = await fetch(source);
    if (!response.ok) throw new Error(`${source} answered ${response.status}`);
    return response.json();
  }
  return JSON.parse(await readFile(source, 'utf8'));
}

const { values } = parseArgs({ options: { from: { type: 'string' } } });
const document = values.from ? await fromSource(values.from) : await fromServer();
await writeFile(GENERATED_PATH, await renderTypes(document));
process.stdout.write(`wrote ${GENERATED_PATH.pathname}\n`);
