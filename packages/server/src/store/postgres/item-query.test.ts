import { describe, expect, it } from 'vitest';
import type { ItemQuery } from '../types.js';
import { changeListStatement, itemListStatement } from './item-query.js';
import { prepared } from './prepared.js';

const ORG = '000000000000000000000001';

/** Every combination of the filters a page may carry, with the given values. */
function everyShape(values: {
  limit: number;
  status: ItemQuery['status'];
  afterId: string;
  sku: string;
  barcode: string;
  ids: string[];
  search: string;
}): ItemQuery[] {
  const optional = ['status', 'afterId', 'sku', 'barcode', 'ids', 'search'] as const;
  return Array.from({ length: 2 ** optional.length }, (_, mask) => {
    const query: Record<string, unknown> = { limit: values.limit };
    optional.forEach((field, bit) => {
      if (mask & (2 ** bit)) query[field] = values[field];
    });
    return query as unknown as ItemQuery;
  });
}

describe('statement names (prepared statements on PostgreSQL)', () => {
  // node-postgres sends a name's text once per connection: a name whose text changed with the
  // values would run the wrong statement, or fail (prepared.ts refuses it).
  it('give one name one text, whatever the values, and name only exact lookups without a search', () => {
    const one = everyShape({
      limit: 1,
      status: 'Active',
      afterId: 'a'.repeat(24),
      sku: 'S-1',
      barcode: '4006381333931',
      ids: ['b'.repeat(24)],
      search: 'bolt',
    });
    const other = everyShape({
      limit: 1001,
      status: 'Discontinued',
      afterId: 'c'.repeat(24),
      sku: 'another sku',
      barcode: '5012345678900',
      ids: ['d'.repeat(24), 'e'.repeat(24), 'f'.repeat(24)],
      search: 'm8',
    });
    const texts = new Map<string, string>();
    let named = 0;
    for (const [i, query] of [...one, ...other].entries()) {
      const statement = itemListStatement(ORG, query);
      if (!statement) throw new Error(`no statement for ${JSON.stringify(query)}`);
      const exact = query.sku !== undefined || query.barcode !== undefined || query.ids;
      expect(statement.name !== undefined, `shape ${i % one.length}`).toBe(
        Boolean(exact) && query.search === undefined,
      );
      if (statement.name === undefined) continue;
      named++;
      expect(texts.get(statement.name) ?? statement.sql).toBe(statement.sql);
      texts.set(statement.name, statement.sql);
      expect(() => prepared(statement.name as string, statement.sql)).not.toThrow();
    }
    // 2 × (7 combinations of sku/barcode/ids × 4 of status/after): one name per shape.
    expect(named).toBe(2 * 7 * 4);
    expect(texts.size).toBe(7 * 4);
    expect(new Set(texts.values()).size).toBe(texts.size);
  });

  it('name the change feed without a status, one text each with or without deletions', () => {
    const page = (afterSeq: number, limit: number, includeDeleted: boolean, status?: 'Active') =>
      changeListStatement(ORG, { afterSeq, limit, includeDeleted, status });
    for (const includeDeleted of [false, true]) {
      const first = page(0, 1, includeDeleted);
      const later = page(123_456, 1000, includeDeleted);
      expect(first.name).toBeDefined();
      expect(later.name).toBe(first.name);
      expect(later.sql).toBe(first.sql);
      expect(page(0, 1, includeDeleted, 'Active').name).toBeUndefined();
    }
    expect(page(0, 1, true).name).not.toBe(page(0, 1, false).name);
  });

  it('refuse a second text under a name already declared', () => {
    prepared('test_only_statement', 'SELECT 1');
    expect(() => prepared('test_only_statement', 'SELECT 1')).not.toThrow();
    expect(() => prepared('test_only_statement', 'SELECT 2')).toThrow(
      'two prepared statements are named test_only_statement',
    );
  });
});
