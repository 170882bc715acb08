import { describe, expect, it } from 'vitest';
import type { Item } from '../types.js';
import { planRowWrite } from './merge.js';
import {
  isLocationCode,
  parseStock,
  stockProblem,
  stockSum,
  stockText,
  withoutLocation,
} from './stock.js';

const KNOWN = new Set(['WH', 'SHOP']);

const stored: Item = {
  id: 'item_1',
  organizationId: 'org_1',
  name: 'Torch',
  description: null,
  sku: 'T-1',
  barcode: null,
  status: 'Active',
  quantity: 5,
  stock: '[{"location":"SHOP","quantity":2},{"location":"WH","quantity":3}]',
  customFields: '{}',
  createdAt: 1,
  updatedAt: 2,
};

describe('stock rows', () => {
  it('writes one canonical text, ordered by code, whatever the input order or form', () => {
    const text = '[{"location":"SHOP","quantity":2},{"location":"WH","quantity":3}]';
    expect(stockText({ WH: 3, SHOP: 2 })).toBe(text);
    expect(
      stockText([
        { location: 'WH', quantity: 3 },
        { location: 'SHOP', quantity: 2 },
      ]),
    ).toBe(text);
    expect(stockText({})).toBe('[]');
    // Codes compare by code unit: upper case before lower case, as "C" and BINARY do.
    expect(parseStock(stockText({ b: 1, B: 1, a: 1 })).map((e) => e.location)).toEqual([
      'B',
      'a',
      'b',
    ]);
  });

  it('sums, and names the first problem: unknown code, non-finite or negative quantity', () => {
    expect(stockSum(parseStock(stored.stock))).toBe(5);
    expect(stockProblem(parseStock(stored.stock), KNOWN)).toBeNull();
    expect(stockProblem([{ location: 'X', quantity: 1 }], KNOWN)).toMatch(/"X".*does not have/);
    expect(stockProblem([{ location: 'WH', quantity: -1 }], KNOWN)).toMatch(/cannot be negative/);
    expect(stockProblem([{ location: 'WH', quantity: Number.NaN }], KNOWN)).toMatch(/finite/);
  });

  it('drops one location: the rows left and their sum (0 when none is left)', () => {
    expect(withoutLocation(stored.stock, 'SHOP')).toEqual({
      stock: '[{"location":"WH","quantity":3}]',
      quantity: 3,
    });
    expect(withoutLocation('[{"location":"WH","quantity":3}]', 'WH')).toEqual({
      stock: '[]',
      quantity: 0,
    });
  });

  it('checks codes', () => {
    expect(isLocationCode('WH-1.a_b')).toBe(true);
    expect(isLocationCode('')).toBe(false);
    expect(isLocationCode('a b')).toBe(false);
  });
});

describe('the upsert rules with stock', () => {
  it('gives a row with stock and no quantity the sum, and refuses another quantity', () => {
    expect(planRowWrite({ name: 'N', stock: stockText({ WH: 2 }) }, undefined, 9, KNOWN)).toEqual({
      create: expect.objectContaining({ quantity: 2, stock: '[{"location":"WH","quantity":2}]' }),
    });
    expect(
      planRowWrite({ name: 'N', quantity: 3, stock: stockText({ WH: 2 }) }, undefined, 9, KNOWN),
    ).toEqual({ error: expect.stringMatching(/differs from the sum of stock \(2\)/) });
  });

  it('leaves an equal row unchanged, stock included, and replaces stock when it differs', () => {
    expect(
      planRowWrite({ sku: 'T-1', stock: stockText({ SHOP: 2, WH: 3 }) }, stored, 9, KNOWN),
    ).toBe('unchanged');
    expect(planRowWrite({ sku: 'T-1', stock: stockText({ WH: 1 }) }, stored, 9, KNOWN)).toEqual({
      update: { ...stored, quantity: 1, stock: '[{"location":"WH","quantity":1}]', updatedAt: 9 },
    });
  });

  it('holds a quantity alone to the stored stock rows; an empty stock keeps the row own quantity', () => {
    expect(planRowWrite({ sku: 'T-1', quantity: 5 }, stored, 9, KNOWN)).toBe('unchanged');
    expect(planRowWrite({ sku: 'T-1', quantity: 6 }, stored, 9, KNOWN)).toEqual({
      error: expect.stringMatching(/sum of the item's stock rows \(5\)/),
    });
    expect(planRowWrite({ sku: 'T-1', quantity: 6, stock: '[]' }, stored, 9, KNOWN)).toEqual({
      update: { ...stored, quantity: 6, stock: '[]', updatedAt: 9 },
    });
  });

  it('refuses an unknown location', () => {
    expect(planRowWrite({ name: 'N', stock: stockText({ NOPE: 1 }) }, undefined, 9, KNOWN)).toEqual(
      {
        error: expect.stringContaining('"NOPE"'),
      },
    );
  });
});
