import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { MIN_SECRET_LENGTH, redact, redactJson, safeCause } from './secrets.js';

const KEY = 'sr_org_0123456789abcdefghijABCDEFGHIJklmnop';

describe('redact', () => {
  it('replaces every occurrence of a key', () => {
    expect(redact(`a ${KEY} b ${KEY}`, KEY)).toBe('a [redacted] b [redacted]');
  });

  it('leaves text alone without a key, or with one too short to be a secret', () => {
    expect(redact('the error message', undefined)).toBe('the error message');
    expect(redact('the error message', 'e')).toBe('the error message');
    const short = 'x'.repeat(MIN_SECRET_LENGTH - 1);
    expect(redact(`key ${short}`, short)).toBe(`key ${short}`);
    const long = 'x'.repeat(MIN_SECRET_LENGTH);
    expect(redact(`key ${long}`, long)).toBe('key [redacted]');
  });
});

describe('redactJson', () => {
  it('redacts strings at any depth, property names included, and keeps the structure', () => {
    const body = {
      error: { code: 'INVALID_API_KEY', message: `The key ${KEY} is unknown.`, status: 401 },
      echoed: [KEY, { [KEY]: true }],
      count: 3,
      none: null,
    };
    expect(redactJson(body, KEY)).toEqual({
      error: { code: 'INVALID_API_KEY', message: 'The key [redacted] is unknown.', status: 401 },
      echoed: ['[redacted]', { '[redacted]': true }],
      count: 3,
      none: null,
    });
  });

  it('returns the very value when the key is too short to be a secret', () => {
    const body = { error: { code: 'INVALID_API_KEY', message: 'The key e is unknown.' } };
    expect(redactJson(body, 'e')).toBe(body);
  });
});

describe('safeCause', () => {
  it('keeps name, message and code, redacted, and drops every other property', () => {
    const raw = Object.assign(new TypeError(`invalid header: authorization: Bearer ${KEY}`), {
      code: 'ERR_INVALID_HEADER',
      request: { headers: { authorization: `Bearer ${KEY}` } },
    });
    const safe = safeCause(raw, KEY);
    expect(safe).toBeInstanceOf(Error);
    expect(safe.name).toBe('TypeError');
    expect(safe.message).toBe('invalid header: authorization: Bearer [redacted]');
    expect(safe.code).toBe('ERR_INVALID_HEADER');
    expect(Object.keys(safe).sort()).toEqual(['code', 'name']);
    expect(inspect(safe, { depth: 10, showHidden: true })).not.toContain(KEY);
  });

  it('copies the chain of causes, as far as fetch’s socket error', () => {
    const socket = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), {
      code: 'ECONNREFUSED',
    });
    const safe = safeCause(new TypeError('fetch failed', { cause: socket }), KEY);
    expect(safe.cause).toMatchObject({
      name: 'Error',
      message: 'connect ECONNREFUSED 127.0.0.1:9',
      code: 'ECONNREFUSED',
    });
    // A cycle (or a very long chain) ends after a few levels.
    const cycle: { message: string; cause?: unknown } = { message: 'loop' };
    cycle.cause = cycle;
    expect(inspect(safeCause(cycle, KEY), { depth: 20 })).toContain('loop');
  });

  it('describes thrown values that are not errors', () => {
    expect(safeCause(`token ${KEY} refused`, KEY)).toMatchObject({
      name: 'Error',
      message: 'token [redacted] refused',
    });
    expect(safeCause(Object.create(null), KEY).message).toBe('[object Object]');
  });
});
