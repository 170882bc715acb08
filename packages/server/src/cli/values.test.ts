import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../domain/errors.js';
import {
  listParser,
  optionParser,
  parseExpiresIn,
  parseRateLimit,
  parseSlug,
  textParser,
} from './values.js';

// The rules themselves are tested beside them, in ../domain/*.test.ts.
describe('option values', () => {
  it("turns a domain rule's DomainError into commander's InvalidArgumentError, same message", () => {
    expect(() => parseRateLimit('600')).toThrow(
      new InvalidArgumentError(
        'use MAX/DURATION with a positive MAX, e.g. 600/1m or 10000/1d, or "none"',
      ),
    );
    expect(() => parseExpiresIn('0s')).toThrow(InvalidArgumentError);
    expect(() => parseSlug('Acme')).toThrow(InvalidArgumentError);
    expect(() => textParser(5)('')).toThrow(new InvalidArgumentError('must not be empty'));
    expect(parseRateLimit('600/1m')).toEqual({ max: 600, windowSeconds: 60 });
    // Anything else is a bug, not a bad value: it goes through as it is.
    const broken = optionParser(() => {
      throw new TypeError('boom');
    });
    expect(() => broken()).toThrow(TypeError);
    expect(() =>
      optionParser(() => {
        throw new DomainError('x', 'bad x');
      })(),
    ).toThrow(new InvalidArgumentError('bad x'));
  });

  it('parses lists of known names, with none for the empty list', () => {
    const parse = listParser(['inventory', 'reports'], 'feature');
    expect(parse('inventory')).toEqual(['inventory']);
    expect(parse('inventory, reports,inventory')).toEqual(['inventory', 'reports']);
    expect(parse('none')).toEqual([]);
    expect(() => parse('inventory,billing')).toThrow('unknown feature "billing"');
    expect(() => parse('')).toThrow(InvalidArgumentError);
  });
});
