import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresStore } from '../store/postgres/postgres-store.js';
import type { Store } from '../store/types.js';
import { BIN, createCliSandbox, expectSuccess } from '../testing/cli-harness.js';
import { createTestSchema, postgresUnavailable, type TestSchema } from '../testing/postgres.js';

/**
 * `stockroom items import` as built, stopped by a real SIGINT (Ctrl-C) or SIGTERM midway
 * through a large file: it finishes the batch in flight, records what it committed as an
 * `items.imported` event with `stopped`, prints its one line and exits 1, and what it says it
 * committed is what the database holds. (cli/items-stopped.test.ts drives the same listener
 * in process.)
 */

const ROWS = 300_000;
const sandbox = createCliSandbox();
const file = sandbox.file(
  'large.ndjson',
  `${Array.from({ length: ROWS }, (_, i) => `{"name":"Item ${i + 1}","sku":"S-${i + 1}","quantity":${i % 50}}`).join('\n')}\n`,
);
afterAll(() => sandbox.cleanup());

const pgSkip = await postgresUnavailable();
let schema: TestSchema | undefined;
beforeAll(async () => {
  if (!pgSkip) schema = await createTestSchema();
});
afterAll(() => schema?.drop());

const ENGINES = [
  { name: 'sqlite', skip: null, url: () => sandbox.dbPath, store: (): Store => sandbox.store() },
  {
    name: 'postgres',
    skip: pgSkip,
    url: () => schema?.url as string,
    store: (): Store => new PostgresStore(schema?.url as string, { poolSize: 2 }),
  },
];

let n = 0;

for (const engine of ENGINES) {
  describe.skipIf(engine.skip !== null)(
    `stockroom items import interrupted (${engine.name})`,
    () => {
      let store: Store;
      beforeAll(async () => {
        const env = { env: { DATABASE_URL: engine.url() } };
        expectSuccess(await sandbox.runBinary(['migrate'], env));
        store = engine.store();
      });
      afterAll(async () => {
        if (engine.name === 'postgres') await store?.close();
      });

      for (const signal of ['SIGINT', 'SIGTERM'] as const) {
        it(`by ${signal}: finishes the batch in flight, records it, prints one line, exits 1`, async () => {
          n++;
          const env = { env: { DATABASE_URL: engine.url() } };
          const created = await sandbox.runBinary(
            ['org', 'create', '--name', `Stop ${n}`, '--json'],
            env,
          );
          expectSuccess(created, { json: true });
          const orgId: string = created.json.id;
          const child = spawn(process.execPath, [BIN, 'items', 'import', file, '--org', orgId], {
            cwd: sandbox.dir,
            env: { ...process.env, DATABASE_URL: engine.url() },
            stdio: ['ignore', 'pipe', 'pipe'],
          });
          let stdout = '';
          let stderr = '';
          child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
          child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
          const exited = once(child, 'close') as Promise<[number | null, NodeJS.Signals | null]>;
          // Midway: once the first batch is committed (the condition is polled, not timed).
          let committedBefore = 0;
          while (committedBefore === 0 && child.exitCode === null) {
            await delay(20);
            committedBefore = await store.countItems(orgId);
          }
          expect(committedBefore, 'the import ended before it could be interrupted').toBeLessThan(
            ROWS,
          );
          child.kill(signal);
          const [status, killedBy] = await exited;
          expect({ status, killedBy, stdout }).toEqual({ status: 1, killedBy: null, stdout: '' });
          const lines = stderr.split('\n');
          expect(lines, stderr).toHaveLength(2);
          const match =
            /^stockroom: (.+): the import stopped after line (\d+): interrupted by (\w+); committed before it: (\d+) created, 0 updated, 0 unchanged, 0 failed \(recorded in the audit log as items\.imported\)$/.exec(
              lines[0] as string,
            );
          expect(match, lines[0]).not.toBeNull();
          const [, named, line, by, count] = match as RegExpExecArray;
          expect({ named, by }).toEqual({ named: file, by: signal });
          const committed = Number(count);
          // Every row up to the line it stopped after is in the database, and nothing past it.
          expect(Number(line)).toBe(committed);
          expect(committed).toBeGreaterThanOrEqual(committedBefore);
          expect(committed).toBeLessThan(ROWS);
          expect(await store.countItems(orgId)).toBe(committed);
          const events = (await store.listAuditEvents(orgId)).filter(
            (e) => e.action === 'items.imported',
          );
          expect(events.map((e) => e.details)).toEqual([
            {
              file: 'large.ndjson',
              created: committed,
              updated: 0,
              unchanged: 0,
              failed: 0,
              stopped: `interrupted by ${signal}`,
            },
          ]);
        });
      }
    },
  );
}
