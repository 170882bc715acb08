import { describe, expect, it } from 'vitest';
import { cell, itemColumns, lines, table } from './render.js';

describe('text renderings', () => {
  it('keeps a cell on one line, escapes pipes and cuts long values', () => {
    expect(cell('a | b\nc')).toBe('a \\| b c');
    expect(cell(null)).toBe('—');
    expect(cell(12.5)).toBe('12.5');
    expect(cell({ a: 1 })).toBe('{"a":1}');
    const long = cell('x'.repeat(500));
    expect(long).toHaveLength(80);
    expect(long.endsWith('…')).toBe(true);
  });

  it('writes a Markdown table of the given columns', () => {
    expect(table(['name', 'quantity'], [{ name: 'Saw', quantity: 0, sku: 'S' }])).toBe(
      '| name | quantity |\n| --- | --- |\n| Saw | 0 |',
    );
  });

  it('shows the default columns for whole items and the chosen fields otherwise', () => {
    const whole = {
      _id: '1',
      organizationId: '2',
      name: 'n',
      description: null,
      sku: null,
      barcode: null,
      status: 'Active',
      quantity: 1,
      customFields: {},
      createdAt: 't',
      updatedAt: 't',
    };
    expect(itemColumns([whole])).toEqual(['_id', 'name', 'sku', 'barcode', 'status', 'quantity']);
    expect(itemColumns([{ name: 'n', quantity: 1 }])).toEqual(['name', 'quantity']);
    expect(itemColumns([{ organizationId: '2', name: 'n' }])).toEqual(['name']);
    expect(itemColumns([{ organizationId: '2' }])).toEqual(['organizationId']);
    expect(itemColumns([])).toEqual(['_id', 'name', 'sku', 'barcode', 'status', 'quantity']);
  });

  it('writes a record as name: value lines', () => {
    expect(lines({ sku: 'S', barcode: null, customFields: { a: [1] } })).toBe(
      'sku: S\nbarcode: —\ncustomFields: {"a":[1]}',
    );
  });
});
