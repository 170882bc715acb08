import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngine } from '../testing/harness.js';
import { createTestSchema, type TestSchema } from '../testing/postgres.js';
import { childPids, type ServeProcess, startServeProcess } from '../testing/serve-process.js';
import { ADMIN_TOKEN } from './testing.js';

/**
 * `stockroom serve` with ADMIN_TOKEN, as a real process (the built binary) on the engine of
 * the vitest project: the banner names the admin URL, and under `--workers N` every worker
 * serves the admin port (the cluster shares it, as it shares the API's).
 */

let dir: string;
let schema: TestSchema | null = null;
let databaseUrl: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'stockroom-admin-serve-'));
  if (testEngine() === 'postgres') {
    schema = await createTestSchema();
    databaseUrl = schema.url;
  } else {
    databaseUrl = path.join(dir, 'stockroom.db');
  }
});

afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await schema?.drop();
});

/** One request on a connection of its own, so that a cluster may hand it to any worker. */
function call(
  url: string,
  method: string,
  body?: unknown,
): Promise<{ status: number; body: { data?: unknown; error?: { code: string } } }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const request = http.request(
      url,
      {
        method,
        agent: false,
        headers: {
          authorization: `Bearer ${ADMIN_TOKEN}`,
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8').on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }),
        );
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

async function adminUrlOf(serve: ServeProcess): Promise<string> {
  // The banner ends with this line (no demo): every line before it has arrived.
  await serve.waitForLine(/Create a key with/);
  const line = serve.lines.find((l) => /^\s+Admin:/.test(l));
  const url = line ? /Admin:\s+(http\S+)\/admin\/v1/.exec(line)?.[1] : undefined;
  if (!url) throw new Error(`no admin URL in the banner:\n${serve.lines.join('\n')}`);
  return url;
}

describe('stockroom serve with ADMIN_TOKEN', () => {
  it('prints the admin URL in the banner and serves it; without the token there is none', async () => {
    const plain = await startServeProcess({ DATABASE_URL: databaseUrl, ADMIN_PORT: '0' });
    try {
      await plain.waitForLine(/Create a key with/);
      expect(plain.lines.some((l) => /Admin:/.test(l))).toBe(false);
    } finally {
      expect(await plain.stop()).toBe(0);
    }

    const serve = await startServeProcess({
      DATABASE_URL: databaseUrl,
      ADMIN_TOKEN,
      ADMIN_PORT: '0',
    });
    try {
      const url = await adminUrlOf(serve);
      expect(new URL(url).hostname).toBe('127.0.0.1');
      const created = await call(`${url}/admin/v1/organizations`, 'POST', {
        name: 'Served',
        slug: 'served',
      });
      expect(created.status).toBe(201);
      expect(serve.lines.join('\n')).not.toContain(ADMIN_TOKEN);
    } finally {
      expect(await serve.stop()).toBe(0);
    }
  });

  it('refuses a short ADMIN_TOKEN at start, without printing it', async () => {
    const short = 'too-short-token';
    const failure = await startServeProcess({
      DATABASE_URL: databaseUrl,
      ADMIN_TOKEN: short,
      ADMIN_PORT: '0',
    }).then(
      async (serve) => {
        await serve.stop();
        throw new Error('serve started with a 15-character ADMIN_TOKEN');
      },
      (error: Error) => error.message,
    );
    expect(failure).toMatch(
      /ADMIN_TOKEN must be 32 to 512 visible ASCII characters[^\n]*15 characters long/,
    );
    expect(failure).not.toContain(short);
  });

  it('under --workers 2 every worker serves the admin port, and SIGTERM drains them', async () => {
    const serve = await startServeProcess(
      { DATABASE_URL: databaseUrl, ADMIN_TOKEN, ADMIN_PORT: '0', LOG_LEVEL: 'info' },
      ['--workers', '2'],
    );
    try {
      const url = await adminUrlOf(serve);
      const workers = await childPids(serve.pid);
      expect(workers).toHaveLength(2);
      const slugs: string[] = [];
      for (let i = 0; i < 8; i++) {
        const slug = `cluster-${i}`;
        const created = await call(`${url}/admin/v1/organizations`, 'POST', {
          name: `Cluster ${i}`,
          slug,
        });
        expect(created.status).toBe(201);
        slugs.push(slug);
      }
      // Whichever worker answers sees what the others wrote (one database).
      for (const slug of slugs) {
        expect((await call(`${url}/admin/v1/organizations/${slug}`, 'GET')).status).toBe(200);
      }
      const adminPids = new Set(
        serve.lines
          .filter((line) => line.startsWith('{'))
          .map((line) => JSON.parse(line) as { app?: string; pid?: number })
          .filter((line) => line.app === 'admin')
          .map((line) => line.pid),
      );
      expect([...adminPids].sort()).toEqual(workers);
    } finally {
      expect(await serve.stop()).toBe(0);
    }
  });
});
