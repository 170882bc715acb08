import { describe, expect, it } from 'vitest';
import type { ImportField } from './fields.js';
import { checkRecord, nestingDepth } from './validate.js';

function csv(header: Array<ImportField | null>, cells: string[]) {
  return checkRecord({ line: 2, kind: 'csv', columns: header, cells });
}

function json(value: unknown) {
  return checkRecord({ line: 5, kind: 'json', value });
}

describe('checkRecord (CSV)', () => {
  const all: ImportField[] = [
    'name',
    'description',
    'sku',
    'barcode',
    'status',
    'quantity',
    'customFields',
  ];

  it('converts a full row', () => {
    expect(
      csv(all, ['Tent', 'Two person', 'T-1', '0123', 'Active', '12.5', '{"b":1,"a":[1,2]}']),
    ).toEqual({
      fields: {
        name: 'Tent',
        description: 'Two person',
        sku: 'T-1',
        barcode: '0123',
        status: 'Active',
        quantity: 12.5,
        customFields: '{"b":1,"a":[1,2]}',
      },
    });
  });

  it('sets only the columns the file has', () => {
    expect(csv(['sku', 'quantity'], ['T-1', '3'])).toEqual({ fields: { sku: 'T-1', quantity: 3 } });
  });

  it('ignores read-only API columns', () => {
    expect(csv([null, 'name', null], ['65f0', 'Tent', '2026-01-01T00:00:00.000Z'])).toEqual({
      fields: { name: 'Tent' },
    });
  });

  it('reads an empty cell as null where null is allowed', () => {
    expect(csv(['name', 'description', 'sku', 'barcode'], ['Tent', '', '', ''])).toEqual({
      fields: { name: 'Tent', description: null, sku: null, barcode: null },
    });
  });

  it('rejects an empty name cell (a new item needs a name)', () => {
    expect(csv(['name'], [''])).toEqual({ reason: 'name is required and cannot be empty' });
  });

  it('reads an empty customFields cell as {}', () => {
    expect(csv(['name', 'customFields'], ['Tent', ''])).toEqual({
      fields: { name: 'Tent', customFields: '{}' },
    });
  });

  it('reads an empty status or quantity cell as absent (defaults on create, kept on update)', () => {
    expect(csv(['name', 'status', 'quantity'], ['Tent', '', ''])).toEqual({
      fields: { name: 'Tent' },
    });
  });

  it.each(['12', '-3', '+4', '12.5', '.5', '5.', '1e3', '2.5E-2', '0'])(
    'accepts the quantity %s',
    (cell) => {
      expect(csv(['quantity'], [cell])).toEqual({ fields: { quantity: Number(cell) } });
    },
  );

  it.each(['12abc', ' 12', '12 ', '0x1A', 'Infinity', 'NaN', '1,5', '--1'])(
    'rejects the quantity %j',
    (cell) => {
      const result = csv(['quantity'], [cell]);
      expect(result).toHaveProperty('reason');
      expect((result as { reason: string }).reason).toMatch(/^quantity must be a/);
    },
  );

  it.each(['1e400', '-1e400'])('rejects the quantity %j, beyond a double, saying so', (cell) => {
    expect(csv(['quantity'], [cell])).toEqual({
      reason: `quantity is beyond ${cell.startsWith('-') ? '-' : ''}1.7976931348623157e+308, the largest number a quantity can hold; give a smaller number`,
    });
  });

  it('rejects customFields that are not a JSON object', () => {
    expect(csv(['customFields'], ['{bad'])).toEqual({
      reason: expect.stringMatching(/^customFields is not valid JSON: /),
    });
    expect(csv(['customFields'], ['[1]'])).toEqual({
      reason: 'customFields must be a JSON object, got an array',
    });
    expect(csv(['customFields'], ['"x"'])).toEqual({
      reason: 'customFields must be a JSON object, got a string',
    });
  });

  it('keeps a customFields object that has a "reason" key as data', () => {
    expect(csv(['customFields'], ['{"reason":"gift"}'])).toEqual({
      fields: { customFields: '{"reason":"gift"}' },
    });
  });

  it('rejects a row of the wrong width', () => {
    expect(csv(['name', 'sku'], ['Tent'])).toEqual({
      reason: 'expected 2 fields (one per header column), found 1',
    });
  });

  it('reports every problem of a row, and its sku when that was fine', () => {
    expect(csv(['name', 'sku', 'status'], ['', 'T-1', 'active'])).toEqual({
      reason:
        'name is required and cannot be empty; status must be one of Draft, Active, Inactive, Discontinued (exact case), got "active"',
      sku: 'T-1',
    });
  });
});

describe('checkRecord (JSON)', () => {
  it('stores customFields as compact JSON in the given key order', () => {
    expect(json({ name: 'Tent', customFields: { z: 1, a: { y: [1, 'two'], b: null } } })).toEqual({
      fields: { name: 'Tent', customFields: '{"z":1,"a":{"y":[1,"two"],"b":null}}' },
    });
  });

  it('accepts null where allowed and ignores read-only API fields', () => {
    expect(
      json({
        _id: '65f000000000000000000000',
        organizationId: 'x',
        name: 'Tent',
        description: null,
        sku: null,
        barcode: null,
        createdAt: 'x',
        updatedAt: 'y',
      }),
    ).toEqual({ fields: { name: 'Tent', description: null, sku: null, barcode: null } });
  });

  it('checks types', () => {
    expect(json({ name: 5 })).toEqual({ reason: 'name must be a string, got a number' });
    expect(json({ quantity: '5' })).toEqual({
      reason: 'quantity must be a finite number, got "5"',
    });
    expect(json({ sku: 5 })).toEqual({ reason: 'sku must be a string or null, got a number' });
    expect(json({ status: 'Archived' })).toEqual({
      reason:
        'status must be one of Draft, Active, Inactive, Discontinued (exact case), got "Archived"',
    });
    expect(json({ customFields: null })).toEqual({
      reason: 'customFields cannot be empty; use {} for no custom fields',
    });
    expect(json({ name: null })).toEqual({ reason: 'name is required and cannot be empty' });
    expect(json({ sku: '' })).toEqual({ reason: 'sku cannot be an empty string' });
  });

  it('rejects elements that are not objects', () => {
    expect(json([1])).toEqual({ reason: 'expected a JSON object for the item, got an array' });
    expect(json(null)).toEqual({ reason: 'expected a JSON object for the item, got null' });
    expect(json('Tent')).toEqual({ reason: 'expected a JSON object for the item, got a string' });
  });

  it('enforces the length limits in characters (code points)', () => {
    expect(json({ name: '😀'.repeat(200) })).toEqual({ fields: { name: '😀'.repeat(200) } });
    expect(json({ name: 'x'.repeat(201) })).toEqual({
      reason: 'name is 201 characters long; the maximum is 200',
    });
    expect(json({ name: '' })).toEqual({ reason: 'name cannot be an empty string' });
    expect(json({ description: 'x'.repeat(5000) })).toHaveProperty('fields');
    expect(json({ description: 'x'.repeat(5001) })).toHaveProperty('reason');
    expect(json({ sku: 'x'.repeat(100), barcode: 'y'.repeat(100) })).toHaveProperty('fields');
    expect(json({ sku: 'x'.repeat(101) })).toHaveProperty('reason');
    expect(json({ barcode: 'x'.repeat(101) })).toHaveProperty('reason');
  });

  it('limits customFields to 16 KiB of compact JSON', () => {
    // {"k":"…"} is 8 bytes of punctuation and key around the value.
    expect(json({ customFields: { k: 'x'.repeat(16384 - 8) } })).toHaveProperty('fields');
    expect(json({ customFields: { k: 'x'.repeat(16384 - 7) } })).toEqual({
      reason: 'customFields is 16385 bytes as compact JSON; the maximum is 16384 (16 KiB)',
    });
  });

  it('rejects the row for an unknown field, naming it beside its other problems', () => {
    const allowed =
      'allowed: name, description, sku, barcode, status, quantity, stock, customFields (ignored: _id, organizationId, createdAt, updatedAt)';
    expect(json({ name: 'Tent', colour: 'red' })).toEqual({
      reason: `unknown field "colour"; ${allowed}`,
    });
    // Every problem in one reason; the sku still counts for duplicates.
    expect(json({ name: 7, colour: 'red', sku: 'T-1', size: 'L' })).toEqual({
      reason: `unknown fields "colour", "size"; ${allowed}; name must be a string, got a number`,
      sku: 'T-1',
    });
  });
});

describe('nestingDepth', () => {
  it('counts objects and arrays, without recursion, and stops past the limit', () => {
    expect(nestingDepth(1, 32)).toBe(0);
    expect(nestingDepth({}, 32)).toBe(1);
    expect(nestingDepth({ a: [1, { b: [] }], c: {} }, 32)).toBe(4);
    const deep = JSON.parse(`${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`);
    expect(nestingDepth(deep, 32)).toBe(33);
    expect(nestingDepth(deep, 2_000_000)).toBe(1_000_000);
  });
});

describe('stock in import records (issue 31)', () => {
  const csv = (columns: Array<string | null>, cells: string[]) =>
    checkRecord({ line: 2, kind: 'csv', columns: columns as never, cells });

  it('reads stock.CODE columns into one stock object; an empty cell is no row', () => {
    expect(csv(['sku', 'stock.WH', 'stock.SHOP'], ['A', '3', ''])).toEqual({
      fields: { sku: 'A', stock: '[{"location":"WH","quantity":3}]' },
    });
    expect(csv(['sku', 'stock.WH'], ['A', ''])).toEqual({ fields: { sku: 'A', stock: '[]' } });
    expect(csv(['sku', 'stock.WH'], ['A', 'lots'])).toEqual({
      reason: expect.stringMatching(/stock\.WH must be a number/),
      sku: 'A',
    });
  });

  it('takes the object form and the API array form in JSON, and refuses bad quantities', () => {
    const json = (value: unknown) => checkRecord({ line: 1, kind: 'json', value });
    expect(json({ sku: 'A', stock: { WH: 1, SHOP: 2 } })).toEqual({
      fields: {
        sku: 'A',
        stock: '[{"location":"SHOP","quantity":2},{"location":"WH","quantity":1}]',
      },
    });
    expect(json({ sku: 'A', stock: [{ location: 'WH', quantity: 1 }] })).toEqual({
      fields: { sku: 'A', stock: '[{"location":"WH","quantity":1}]' },
    });
    expect(json({ sku: 'A', stock: { WH: -1 } })).toMatchObject({
      reason: expect.stringMatching(/negative/),
    });
    expect(json({ sku: 'A', stock: { WH: '2' } })).toMatchObject({
      reason: expect.stringMatching(/finite number/),
    });
    expect(json({ sku: 'A', stock: { 'a b': 1 } })).toMatchObject({
      reason: expect.stringMatching(/not a location code/),
    });
    expect(json({ sku: 'A', stock: 5 })).toMatchObject({
      reason: expect.stringMatching(/JSON object/),
    });
  });
});
