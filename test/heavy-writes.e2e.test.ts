import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildHeavyFixture,
  type HeavyFixture,
  type HeavyRun,
  type HeavyServer,
  importScenario,
  orgDeleteScenario,
  startHeavyServer,
} from '../bench/lib/heavy-writes.js';
import {
  createTestSchema,
  postgresUnavailable,
  type TestSchema,
} from '../packages/server/src/testing/postgres.js';

/**
 * Issue 41, point 9: heavy writes never hold a key with a quota. `stockroom serve` (the built
 * binary) answers item detail for a key with a quota (each request charges one use: a write),
 * 50 requests a second timed from when each was due, while another process deletes a
 * 200k-item organization, then imports 200k rows (bench/lib/heavy-writes.js; `npm run
 * bench:heavy-writes` prints the same table). Before, the charge queued behind the whole
 * write: seconds, and 503 past DATABASE_TIMEOUT_MS.
 *
 * What is asserted is what the lock sharing guarantees: every answer 200 (none waited
 * DATABASE_TIMEOUT_MS for the lock), and a p99 under BOUND_MS, or three times the p99 of the
 * same requests from a key without a quota (they write nothing) when the machine makes that
 * larger. Before, on SQLite: p99 6.8-15 s and 503s. The target, p99 ≤ 50 ms, is printed
 * beside and not yet met on SQLite: FTS5 merges its index segments inside some of the delete's
 * and the import's transactions (hundreds of ms; BENCHMARKS.md, "Heavy writes").
 */
const BOUND_MS = 1000;
const TARGET_P99_MS = 50;

function expectUnheld(name: string, run: HeavyRun): void {
  const line = (s: HeavyRun['item']) =>
    `p50 ${s.p50.toFixed(1)} ms, p99 ${s.p99.toFixed(1)} ms, max ${s.max.toFixed(1)} ms over ${s.count} (statuses ${JSON.stringify(s.statuses)}, ${s.errors} errors)`;
  const met = run.item.p99 <= TARGET_P99_MS ? 'met' : 'not met';
  const message = `${name} (${run.result.seconds.toFixed(1)} s): quota key ${line(run.item)}; key without quota ${line(run.reference)}; target p99 ≤ ${TARGET_P99_MS} ms ${met}`;
  console.log(message);
  expect(run.result.code, run.result.output).toBe(0);
  expect(run.item.errors, message).toBe(0);
  expect(run.item.count, message).toBeGreaterThan(0);
  expect(Object.keys(run.item.statuses), message).toEqual(['200']);
  expect(run.item.p99, message).toBeLessThanOrEqual(Math.max(BOUND_MS, 3 * run.reference.p99));
}

describe.each(['sqlite', 'postgres'] as const)(
  'item detail of a key with a quota on %s',
  (engine) => {
    let dir: string;
    let schema: TestSchema | undefined;
    let fixture: HeavyFixture;
    let server: HeavyServer;
    let skip: string | null = null;

    beforeAll(async () => {
      dir = mkdtempSync(path.join(tmpdir(), `stockroom-heavy-${engine}-`));
      if (engine === 'postgres') {
        skip = await postgresUnavailable();
        if (skip) return;
        schema = await createTestSchema();
      }
      fixture = await buildHeavyFixture(
        path.join(dir, 'fixture'),
        schema ? schema.url : path.join(dir, 'stockroom.db'),
      );
      server = await startHeavyServer(fixture);
    }, 300_000);

    afterAll(async () => {
      await server?.stop();
      await schema?.drop();
      rmSync(dir, { recursive: true, force: true });
    });

    it('while another process deletes a 200k-item organization', async (context) => {
      if (skip) context.skip();
      expectUnheld(`${engine} org delete`, await orgDeleteScenario(server, fixture));
    }, 600_000);

    it('while another process imports 200k rows', async (context) => {
      if (skip) context.skip();
      expectUnheld(`${engine} import`, await importScenario(server, fixture));
    }, 600_000);
  },
);
