import { describe, expect, it } from 'vitest';
import { ApiError } from './errors.js';
import { type RouteQuery, routeQuery } from './query-validator.js';

type Validate = (input: unknown) => { value?: unknown; error?: ApiError };

/** The validator Fastify compiles for a part of a request to the route. */
function validatorOf(query: RouteQuery<unknown>, httpPart = 'querystring'): Validate {
  return query.validatorCompiler({ schema: {}, method: 'GET', url: '/test', httpPart }) as Validate;
}

describe('routeQuery', () => {
  it('hands the handler what the reader makes of the parameters', () => {
    const query = routeQuery({
      optional: ['limit', 'fields'],
      read: (raw) => ({ value: { limit: raw.limit === undefined ? 100 : Number(raw.limit) } }),
    });
    expect(validatorOf(query)({ limit: '50' })).toEqual({ value: { limit: 50 } });
    expect(validatorOf(query)({})).toEqual({ value: { limit: 100 } });
  });

  it('hands the handler the parameters as sent when the route has no reader', () => {
    const query = routeQuery({ optional: ['organizationId'] });
    const input = { organizationId: '0123456789abcdef01234567' };
    expect(validatorOf(query)(input)).toEqual({ value: input });
  });

  it('shows the reader only the parameters that passed their own check', () => {
    const seen: Array<{ raw: object; limit: boolean; search: boolean; status: boolean }> = [];
    const query = routeQuery({
      optional: ['limit', 'search', 'status'],
      read: (raw, usable) => {
        seen.push({
          raw: { ...raw },
          limit: usable('limit'),
          search: usable('search'),
          status: usable('status'),
        });
        return { value: raw };
      },
    });
    const answer = validatorOf(query)({ limit: 'ten', search: ['a', 'b'], status: 'Active' });
    expect(answer.error).toBeInstanceOf(ApiError);
    expect(seen).toEqual([
      { raw: { status: 'Active' }, limit: false, search: false, status: true },
    ]);
  });

  it('reports a reader’s problem after the parameters’ own, in one message', () => {
    const query = routeQuery({
      optional: ['limit', 'search', 'sku'],
      read: (raw) =>
        raw.search !== undefined && raw.sku !== undefined
          ? { problem: { param: 'search', message: 'search cannot be combined with sku.' } }
          : { value: raw },
    });
    const alone = validatorOf(query)({ search: 'tent', sku: 'TENT-1' }).error;
    expect(alone?.code).toBe('INVALID_PARAMETER');
    expect(alone?.param).toBe('search');
    expect(alone?.message).toBe('search cannot be combined with sku.');

    const both = validatorOf(query)({ limit: '0', search: 'tent', sku: 'TENT-1' }).error;
    expect(both?.param).toBe('limit');
    expect(both?.message).toMatch(/^Invalid limit "0": .* search cannot be combined with sku\.$/);
  });

  it('checks nothing but the querystring', () => {
    const query = routeQuery({ optional: [] });
    expect(validatorOf(query, 'body')({ anything: true })).toEqual({ value: undefined });
  });
});
