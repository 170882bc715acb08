import { EventEmitter } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImportInterruptedError, ImportStoppedError } from '../items/errors.js';
import { cliActor } from '../operations/audit.js';
import { importItemsFile } from '../operations/items.js';
import Database from '../store/sqlite/driver.js';
import { createCliSandbox, expectFailure, expectSuccess } from '../testing/cli-harness.js';
import { listenForStop } from './interrupt.js';
import { stoppedError } from './items.js';
import { run } from './run.js';

/** A database error from the database itself, as an import meets it: a trigger refusing a row. */
function databaseError(): unknown {
  const db = new Database(':memory:');
  try {
    db.exec(
      "CREATE TABLE items (sku TEXT); CREATE TRIGGER boom BEFORE INSERT ON items BEGIN SELECT RAISE(ABORT, 'disk on fire'); END",
    );
    db.exec("INSERT INTO items VALUES ('BOOM')");
  } catch (error) {
    return error;
  } finally {
    db.close();
  }
  throw new Error('the trigger did not fire');
}

// How the CLI reports an import that stopped midway (items/import.test.ts stops real ones).
describe('an import that stops midway, in the CLI', () => {
  it("says so in one line with the cause's code, and that the audit log has what was kept", () => {
    const stopped = new ImportStoppedError(
      { created: 8, updated: 0, unchanged: 0, failed: 1 },
      'at line 10',
      databaseError(),
    );
    const cli = stoppedError('stop.ndjson', stopped);
    expect(cli.code).toBe('DATABASE_ERROR');
    expect(cli.exitCode).toBe(1);
    expect(cli.message).toBe(
      'stop.ndjson: the import stopped at line 10: disk on fire; committed before it: 8 created, 0 updated, 0 unchanged, 1 failed (recorded in the audit log as items.imported)',
    );
    expect(cli.message).not.toContain('\n');
    expect(cli.extra.details).toEqual({
      created: 8,
      updated: 0,
      unchanged: 0,
      failed: 1,
      stopped: true,
    });
  });

  it('with nothing kept, mentions no audit event', () => {
    const stopped = new ImportStoppedError(
      { created: 0, updated: 0, unchanged: 0, failed: 0 },
      undefined,
      databaseError(),
    );
    expect(stoppedError('stop.csv', stopped).message).toBe(
      'stop.csv: the import stopped: disk on fire; committed before it: 0 created, 0 updated, 0 unchanged, 0 failed',
    );
  });

  it('says when the audit event of what was kept could not be recorded either', () => {
    const stopped = new ImportStoppedError(
      { created: 2, updated: 1, unchanged: 0, failed: 0 },
      'after line 3',
      databaseError(),
    );
    stopped.auditFailure = databaseError();
    expect(stoppedError('s.json', stopped).message).toBe(
      's.json: the import stopped after line 3: disk on fire; committed before it: 2 created, 1 updated, 0 unchanged, 0 failed; the audit event for them could not be recorded either',
    );
  });
});

/**
 * SIGINT and SIGTERM during `stockroom items import` (cli/interrupt.ts): the signal aborts the
 * import, which finishes the batch in flight and stops. Here the signal is an emitter's event,
 * heard by the listener the binary installs on the process; items-interrupted.e2e.test.ts
 * sends real signals to the binary.
 */
describe('an import asked to stop by SIGINT or SIGTERM', () => {
  const sandbox = createCliSandbox();
  let n = 0;
  beforeAll(async () => {
    expectSuccess(await sandbox.run(['migrate']));
  });
  afterAll(() => sandbox.cleanup());

  async function newOrganization() {
    n++;
    const created = await sandbox.run(['org', 'create', '--name', `Stop ${n}`, '--json']);
    expectSuccess(created, { json: true });
    const store = sandbox.store();
    const found = await store.findOrganization(created.json.id);
    if (!found) throw new Error('the organization was not created');
    return { store, organization: found };
  }

  const ndjson = (count: number) =>
    `${Array.from({ length: count }, (_, i) => `{"name":"Item ${i + 1}","sku":"S-${i + 1}","quantity":${i}}`).join('\n')}\n`;

  for (const name of ['SIGINT', 'SIGTERM'] as const) {
    it(`${name} between batches: the batches written stay, the audit event has them, the rest is left`, async () => {
      const { store, organization } = await newOrganization();
      const file = sandbox.file(`between-${n}.ndjson`, ndjson(2500));
      const signals = new EventEmitter();
      const stop = listenForStop(signals);
      let error: unknown;
      try {
        await importItemsFile(store, cliActor(), organization, file, {
          batchSize: 1000,
          signal: stop.signal,
          // The first batch is committed when its progress is reported: the signal arrives then.
          onProgress: (p) => {
            if (p.phase === 'writing' && p.done === 1000) signals.emit(name);
          },
        });
      } catch (caught) {
        error = caught;
      } finally {
        stop.release();
      }
      expect(error).toBeInstanceOf(ImportStoppedError);
      const stopped = error as ImportStoppedError;
      expect(stopped.cause).toBeInstanceOf(ImportInterruptedError);
      expect(stopped.message).toBe(
        `the import stopped after line 1000: interrupted by ${name}; committed before it: 1000 created, 0 updated, 0 unchanged, 0 failed`,
      );
      expect(await store.countItems(organization.id)).toBe(1000);
      const events = await store.listAuditEvents(organization.id);
      expect(events.filter((e) => e.action === 'items.imported').map((e) => e.details)).toEqual([
        {
          file: `between-${n}.ndjson`,
          created: 1000,
          updated: 0,
          unchanged: 0,
          failed: 0,
          stopped: `interrupted by ${name}`,
        },
      ]);
      expect(signals.listenerCount(name)).toBe(0);
      // Importing the file again finishes the job: the rows already written are unchanged.
      const again = await importItemsFile(store, cliActor(), organization, file);
      expect(again).toMatchObject({ created: 1500, unchanged: 1000, failed: 0 });
    });
  }

  it('a signal after the last batch was written stops nothing: the import is complete', async () => {
    const { store, organization } = await newOrganization();
    const file = sandbox.file(`in-batch-${n}.ndjson`, ndjson(2500));
    const signals = new EventEmitter();
    const stop = listenForStop(signals);
    const rows = await importItemsFile(store, cliActor(), organization, file, {
      batchSize: 1000,
      signal: stop.signal,
      onProgress: (p) => {
        // After the second batch was written the file is done: a signal then stops nothing.
        if (p.phase === 'writing' && p.done === 2500) signals.emit('SIGINT');
      },
    }).finally(() => stop.release());
    expect(rows).toMatchObject({ created: 2500, failed: 0 });
  });

  it('in the CLI: exit 1, one line naming the signal and what was committed, listeners given back', async () => {
    const { store, organization } = await newOrganization();
    const file = sandbox.file(`cli-${n}.csv`, 'name,sku\nA,A\nB,B\n');
    const signals = new EventEmitter();
    // The signal arrives as soon as the import listens for it, before its first write.
    signals.on('newListener', (event) => {
      if (event === 'SIGTERM') queueMicrotask(() => signals.emit('SIGTERM'));
    });
    let stdout = '';
    let stderr = '';
    const status = await run(['items', 'import', file, '--org', organization.slug, '--json'], {
      stdout: { write: (text: string) => (stdout += text) },
      stderr: { write: (text: string) => (stderr += text) },
      env: { ...process.env, DATABASE_URL: sandbox.dbPath },
      cwd: sandbox.dir,
      signals,
    });
    const message = `${file}: the import stopped: interrupted by SIGTERM; committed before it: 0 created, 0 updated, 0 unchanged, 0 failed`;
    expectFailure(
      { status, stdout, stderr, json: JSON.parse(stdout) },
      { status: 1, code: 'INTERRUPTED', message: `stockroom: ${message}`, json: true },
    );
    expect(JSON.parse(stdout)).toEqual({
      error: { code: 'INTERRUPTED', message },
      created: 0,
      updated: 0,
      unchanged: 0,
      failed: 0,
      stopped: true,
    });
    expect(await store.countItems(organization.id)).toBe(0);
    expect(signals.listenerCount('SIGINT') + signals.listenerCount('SIGTERM')).toBe(0);
  });
});
