import { describe, expect, it } from 'vitest';
import { StoreUnavailableError } from '../types.js';
import { DatabaseAvailability, databaseTarget } from './availability.js';
import { connectionLossCode, isUnavailable, toStoreError } from './errors.js';

function recorder() {
  const lines: Array<{ object: Record<string, unknown>; message: string }> = [];
  return {
    lines,
    log: {
      warn: (object: Record<string, unknown>, message: string) => lines.push({ object, message }),
    },
  };
}
const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
  code: 'ECONNREFUSED',
});
const shutdown = Object.assign(new Error('terminating connection due to administrator command'), {
  code: '57P01',
});

describe('connectionLossCode', () => {
  it('names a refused, reset, shut down or broken connection', () => {
    expect(connectionLossCode(refused)).toBe('ECONNREFUSED');
    expect(connectionLossCode(Object.assign(new Error('read'), { code: 'ECONNRESET' }))).toBe(
      'ECONNRESET',
    );
    expect(connectionLossCode(shutdown)).toBe('57P01');
    expect(
      connectionLossCode(
        Object.assign(new Error('the database system is starting up'), { code: '57P03' }),
      ),
    ).toBe('57P03');
    expect(connectionLossCode(Object.assign(new Error('x'), { code: '08006' }))).toBe('08006');
    expect(connectionLossCode(new Error('Connection terminated unexpectedly'))).toBe(
      'connection lost',
    );
    expect(
      connectionLossCode(
        new Error('Client has encountered a connection error and is not queryable'),
      ),
    ).toBe('connection lost');
  });

  it('looks through the StoreUnavailableError the store wraps it in', () => {
    const wrapped = toStoreError(refused);
    expect(wrapped).toBeInstanceOf(StoreUnavailableError);
    expect(connectionLossCode(wrapped)).toBe('ECONNREFUSED');
  });

  it('is null for a deadline, a lock, a serialization failure or a plain bug', () => {
    const timeout = Object.assign(new Error('canceling statement due to statement timeout'), {
      code: '57014',
    });
    expect(isUnavailable(timeout)).toBe(true);
    expect(connectionLossCode(timeout)).toBeNull();
    expect(connectionLossCode(toStoreError(timeout))).toBeNull();
    expect(connectionLossCode(Object.assign(new Error('lock'), { code: '55P03' }))).toBeNull();
    expect(connectionLossCode(Object.assign(new Error('serialize'), { code: '40001' }))).toBeNull();
    expect(connectionLossCode(new Error('Query read timeout'))).toBeNull();
    expect(connectionLossCode(new TypeError('x is undefined'))).toBeNull();
    expect(connectionLossCode(null)).toBeNull();
  });
});

describe('DatabaseAvailability', () => {
  it('logs one line when the database goes away and one when it is back, with the failed requests and the time', () => {
    let now = 1_000;
    const { lines, log } = recorder();
    const availability = new DatabaseAvailability('db.internal:5432', () => now);
    availability.setLog(log);
    availability.succeeded();
    expect(availability.down).toBe(false);
    now = 2_000;
    for (let i = 0; i < 50; i++) {
      availability.failed(i % 2 ? refused : shutdown, now);
      availability.requestFailed();
    }
    expect(availability.down).toBe(true);
    expect(lines).toHaveLength(1);
    expect(lines[0]?.message).toBe(
      'database went away: db.internal:5432 (57P01); answering 503 SERVICE_UNAVAILABLE until it is back',
    );
    now = 14_500;
    availability.succeeded();
    availability.succeeded();
    expect(availability.down).toBe(false);
    expect(lines).toHaveLength(2);
    expect(lines[1]?.message).toBe(
      'database is back: db.internal:5432 after 12.5 s; 50 request(s) failed meanwhile',
    );
    expect(lines[1]?.object).toMatchObject({ downForMs: 12_500, failedRequests: 50 });
  });

  it('does not count requests or open an outage for errors that are not a lost connection', () => {
    const { lines, log } = recorder();
    const availability = new DatabaseAvailability('h:1');
    availability.setLog(log);
    availability.succeeded();
    availability.failed(Object.assign(new Error('timeout'), { code: '57014' }));
    availability.requestFailed();
    expect(availability.down).toBe(false);
    expect(lines).toHaveLength(0);
  });

  it('ignores an operation that started before the database came back and failed after', () => {
    let now = 0;
    const { lines, log } = recorder();
    const availability = new DatabaseAvailability('h:1', () => now);
    availability.setLog(log);
    availability.succeeded();
    now = 10;
    availability.failed(refused, 10);
    now = 20;
    availability.succeeded();
    availability.failed(shutdown, 15);
    expect(availability.down).toBe(false);
    now = 30;
    availability.failed(refused, 25);
    expect(availability.down).toBe(true);
    expect(lines.map((line) => line.message.split(':')[0])).toEqual([
      'database went away',
      'database is back',
      'database went away',
    ]);
  });

  it('does not call it back on an operation that began before the outage and answered after', () => {
    let now = 0;
    const { lines, log } = recorder();
    const availability = new DatabaseAvailability('h:1', () => now);
    availability.setLog(log);
    availability.succeeded(0);
    now = 10;
    availability.failed(shutdown, 10);
    now = 11;
    availability.succeeded(9);
    expect(availability.down).toBe(true);
    availability.succeeded(11);
    expect(availability.down).toBe(false);
    expect(lines).toHaveLength(2);
  });

  it('stays quiet before the first success (the start retry speaks then)', () => {
    const { lines, log } = recorder();
    const availability = new DatabaseAvailability('h:1');
    availability.setLog(log);
    availability.failed(refused);
    expect(availability.down).toBe(false);
    expect(lines).toHaveLength(0);
  });

  it('names host:port of the URL, never its credentials', () => {
    expect(databaseTarget('postgres://app:secret@db.internal:6543/stock')).toBe('db.internal:6543');
    expect(databaseTarget('postgresql://db/stock')).toBe('db:5432');
  });
});
