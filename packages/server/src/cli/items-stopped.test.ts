import { describe, expect, it } from 'vitest';
import { ImportStoppedError } from '../items/errors.js';
import Database from '../store/sqlite/driver.js';
import { stoppedError } from './items.js';

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
