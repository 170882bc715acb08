import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadPages } from '../packages/server/src/docs/build/content.js';
import { curlExamples } from '../packages/server/src/docs/build/examples.js';
import { startTestServer, type TestServer } from '../packages/server/src/testing/harness.js';

/**
 * The docs cannot lie: every curl example of every page runs (bash and curl) against a live
 * server seeded with the demo organization, and must answer the status written under it
 * (`# → 200`). That each states a status and uses the documented placeholders only:
 * docs-examples.test.ts.
 */

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '..');
const examples = curlExamples(await loadPages(path.join(ROOT, 'docs'))).map((example) => ({
  ...example,
  where: path.relative(ROOT, example.where),
}));

// The same command often appears in both languages; run it once, report every place.
const unique = new Map<string, { status: number | null; where: string[] }>();
for (const example of examples) {
  const seen = unique.get(example.command);
  if (seen && seen.status !== example.status) {
    throw new Error(
      `${example.where}: "${example.command}" promises ${example.status}, ${seen.where[0]} promises ${seen.status}`,
    );
  }
  if (seen) seen.where.push(example.where);
  else unique.set(example.command, { status: example.status, where: [example.where] });
}

let server: TestServer;
const EXAMPLE_ADMIN_TOKEN = 'docs-examples-admin-token-0123456789abcdef';
let env: NodeJS.ProcessEnv;
let scratch: string;
const docUrls = new Set<string>();

/** The body of a curl output file, without the headers `-i` puts before it. */
function bodyOf(output: string): string {
  if (!output.startsWith('HTTP/')) return output;
  const end = output.indexOf('\r\n\r\n');
  return end === -1 ? '' : output.slice(end + 4);
}

beforeAll(async () => {
  scratch = mkdtempSync(path.join(tmpdir(), 'stockroom-docs-examples-'));
  // With the admin API on, so the admin page's examples (port 3002, $ADMIN_TOKEN) run too.
  server = await startTestServer({
    listen: true,
    env: { ADMIN_TOKEN: EXAMPLE_ADMIN_TOKEN, ADMIN_PORT: '0' },
  });
  const first = await server.request('/api/v1/inventory/items?limit=2', { key: server.demo.key });
  expect(first.status).toBe(200);
  // A key of the demo organization for the examples that change one (its view).
  const spare = await server.createKey({
    organizationId: server.demo.organizationId,
    name: 'Docs examples',
  });
  env = {
    PATH: process.env.PATH,
    KEY_ID: spare.record.id,
    STOCKROOM_API_KEY: server.demo.key,
    ITEM_ID: server.demo.itemId,
    CURSOR: first.body.nextCursor,
    ADMIN_TOKEN: EXAMPLE_ADMIN_TOKEN,
  };
});

afterAll(async () => {
  await server?.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe('docs curl examples', () => {
  test.each([...unique.entries()].map(([command, info], index) => ({ command, index, ...info })))(
    '$where.0: $command',
    async ({ command, status, index }) => {
      const live = command
        .replaceAll('http://127.0.0.1:3000', server.apiUrl)
        .replaceAll('http://127.0.0.1:3001', server.docsUrl)
        .replaceAll('http://127.0.0.1:3002', server.server.adminUrl ?? 'http://admin-api-is-off');
      // The last -o wins: the example's output goes to a file, curl prints only the status.
      const output = path.join(scratch, `${index}.out`);
      const { stdout } = await run(
        'bash',
        ['-c', `${live} -s -S -o '${output}' -w '%{http_code}'`],
        {
          env,
        },
      );
      expect(Number(stdout)).toBe(status);
      if (Number(stdout) >= 400 && live.startsWith(`curl`) && live.includes(server.apiUrl)) {
        const body = JSON.parse(bodyOf(readFileSync(output, 'utf8')));
        expect(typeof body.error.docUrl).toBe('string');
        docUrls.add(body.error.docUrl);
      }
    },
  );

  test('every docUrl the examples got back lands on its section of the errors page', async () => {
    expect(docUrls.size).toBeGreaterThan(5);
    for (const docUrl of docUrls) {
      const url = new URL(docUrl);
      expect(url.origin).toBe(new URL(server.docsUrl).origin);
      const page = await fetch(url);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain(`id="${url.hash.slice(1)}"`);
    }
  });
});
