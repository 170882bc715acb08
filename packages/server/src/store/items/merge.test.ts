import { describe, expect, it } from 'vitest';
import type { Item } from '../types.js';
import { planRowWrite, upsertKey } from './merge.js';

const stored: Item = {
  id: 'item_1',
  organizationId: 'org_1',
  name: 'Torch',
  description: null,
  sku: 'T-1',
  barcode: null,
  status: 'Active',
  quantity: 3,
  stock: '[]',
  customFields: '{}',
  createdAt: 1,
  updatedAt: 2,
};

describe('the upsert rules', () => {
  it('looks rows up by sku; a row without one always creates', () => {
    expect(upsertKey({ sku: 'T-1' })).toBe('T-1');
    expect(upsertKey({ sku: null })).toBeUndefined();
    expect(upsertKey({ name: 'x' })).toBeUndefined();
  });

  it('leaves a stored item untouched when the row gives what is stored, or nothing', () => {
    expect(planRowWrite({ sku: 'T-1', name: 'Torch', quantity: 3 }, stored, 9)).toBe('unchanged');
    expect(planRowWrite({ sku: 'T-1' }, stored, 9)).toBe('unchanged');
  });

  it('updates only the fields the row gives, stamps updatedAt, and never rewrites the sku', () => {
    expect(planRowWrite({ sku: 'T-1', quantity: 4 }, stored, 9)).toEqual({
      update: { ...stored, quantity: 4, updatedAt: 9 },
    });
    expect(planRowWrite({ sku: 'T-1', description: null, barcode: '123' }, stored, 9)).toEqual({
      update: { ...stored, barcode: '123', updatedAt: 9 },
    });
  });

  it('creates with the defaults of what the row leaves out, and needs a name to', () => {
    expect(planRowWrite({ name: 'Lamp' }, undefined, 9)).toEqual({
      create: {
        name: 'Lamp',
        description: null,
        sku: null,
        barcode: null,
        status: 'Draft',
        quantity: 0,
        stock: '[]',
        customFields: '{}',
      },
    });
    expect(planRowWrite({ sku: 'L-1' }, undefined, 9)).toEqual({
      error: 'name is required to create an item (no item has this sku yet)',
    });
  });

  it('refuses a row holding U+0000 before anything else', () => {
    expect(planRowWrite({ sku: 'T-1', name: 'a\u0000b' }, stored, 9)).toEqual({
      error: 'name contains the NUL character (U+0000), which cannot be stored',
    });
  });
});
