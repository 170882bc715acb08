#!/usr/bin/env node
// Writes src/generated/openapi.ts and src/generated/admin-openapi.ts from the server's OpenAPI
// documents (the public API's and the admin API's).
//
//   npm run generate -w @stockroom/client                       both, from this repository's server
//   npm run generate -w @stockroom/client -- --from URL|FILE    the public types only, from a running
//                                                               docs host's /openapi.json or a saved document
//   npm run generate -w @stockroom/client -- --admin-from URL|FILE
//                                                               the admin types only, from a running admin
//                                                               host's /admin/v1/openapi.json (with the
//                                                               ADMIN_TOKEN environment variable) or a saved document
//
// Without --from or --admin-from it starts the server of this repository (its compiled dist, so
// it builds it first: the npm script does) on an in-memory database, with the admin API on, and
// reads /openapi.json from its docs host and /admin/v1/openapi.json from its admin host: the
// documents integrators see, and the ones the staleness test compares against.
import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import {
  ADMIN_GENERATED_PATH,
  GENERATED_PATH,
  renderAdminTypes,
  renderTypes,
} from './openapi-types.mjs';

async function fromServer() {
  const { loadConfig, startServer } = await import('stockroom');
  const adminToken = randomBytes(32).toString('hex');
  const config = loadConfig({
    DATABASE_URL: ':memory:',
    PORT: '0',
    DOCS_PORT: '0',
    ADMIN_PORT: '0',
    ADMIN_TOKEN: adminToken,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    NODE_ENV: 'test',
  });
  const server = await startServer(config);
  try {
    return {
      document: await fromSource(`${server.docsUrl}/openapi.json`),
      adminDocument: await fromSource(`${server.adminUrl}/admin/v1/openapi.json`, adminToken),
    };
  } finally {
    await server.close();
  }
}

async function fromSource(source, token) {
  if (/^https?:\/\//.test(source)) {
    const headers = token ? { authorization: `Bearer ${token}` } : {};
    const response = await fetch(source, { headers });
    if (!response.ok) throw new Error(`${source} answered ${response.status}`);
    return response.json();
  }
  return JSON.parse(await readFile(source, 'utf8'));
}

const { values } = parseArgs({
  options: { from: { type: 'string' }, 'admin-from': { type: 'string' } },
});
const adminFrom = values['admin-from'];
const documents =
  values.from === undefined && adminFrom === undefined
    ? await fromServer()
    : {
        document: values.from === undefined ? undefined : await fromSource(values.from),
        adminDocument:
          adminFrom === undefined
            ? undefined
            : await fromSource(adminFrom, process.env.ADMIN_TOKEN),
      };
for (const [document, path, render] of [
  [documents.document, GENERATED_PATH, renderTypes],
  [documents.adminDocument, ADMIN_GENERATED_PATH, renderAdminTypes],
]) {
  if (document === undefined) continue;
  await writeFile(path, await render(document));
  process.stdout.write(`wrote ${path.pathname}\n`);
}
