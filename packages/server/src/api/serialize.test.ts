import Fastify from 'fastify';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Item } from '../store/types.js';
import { ITEM_FIELDS, type ItemField } from './item-fields.js';
import { InventoryItem } from './schemas.js';
import { itemJson, serializeItem } from './serialize.js';

/**
 * The hand-written item JSON must be byte for byte what the generic path produced: the item
 * object (customFields parsed) serialized by Fastify through the TypeBox response schema.
 */

const BASE: Item = {
  id: '6740a1f2c3d4e5f6a7b8c9d0',
  organizationId: '6740a1f2c3d4e5f6a7b8c9d1',
  name: 'Widget',
  description: null,
  sku: null,
  barcode: null,
  status: 'Active',
  quantity: 0,
  stock: '[]',
  customFields: '{}',
  createdAt: Date.UTC(2026, 10, 22, 5, 1, 4, 123),
  updatedAt: Date.UTC(2026, 10, 22, 5, 1, 4, 123),
};

const CUSTOM_FIELDS: unknown[] = [
  {},
  { z: 1, a: { nested: [1, 'two', null] }, m: 'ünïcode' },
  { b: 2, 10: 'numeric keys first', 2: 'then', a: [true, false, 1.5e-7, -0, 1e21] },
  { quote: 'say "hi"', slash: 'a\\b', control: '\u0001\n\t', emoji: '🎉', bidi: '\u202e' },
  { deep: { er: { est: [{ x: [[]] }] } }, empty: '', big: 12345678901234567000 },
];

const ITEMS: Item[] = [
  BASE,
  {
    ...BASE,
    name: 'Crème "Brûlée" \\ Torch\n\u0007 🎉',
    description: 'x'.repeat(5000),
    sku: 'CBT-1',
    barcode: '4006381333931',
    status: 'Discontinued',
    quantity: 2.5,
    updatedAt: Date.UTC(1999, 0, 1),
  },
  { ...BASE, name: 'lone \ud800 surrogate \udfff', description: '', quantity: -3.25 },
  { ...BASE, name: 'n', sku: '', barcode: '0', status: 'Draft', quantity: 1e15 },
  { ...BASE, name: 'n', status: 'Inactive', quantity: 1e-7 },
  { ...BASE, quantity: 123456789.125, createdAt: 0 },
  ...CUSTOM_FIELDS.map((value) => ({ ...BASE, customFields: JSON.stringify(value) })),
];

const FIELD_SETS: Array<ItemField[] | undefined> = [
  undefined,
  ['_id'],
  ['name', 'customFields'],
  ['status', 'quantity', 'updatedAt'],
  [...ITEM_FIELDS],
];

describe('itemJson (the item fast path)', () => {
  const app = Fastify();
  let current: { item: Item; fields: ItemField[] | undefined } = { item: BASE, fields: undefined };

  beforeAll(async () => {
    app.addSchema(InventoryItem);
    app.get(
      '/reference',
      { schema: { response: { 200: Type.Object({ data: Type.Ref('InventoryItem') }) } } },
      async () => ({ data: serializeItem(current.item, current.fields) }),
    );
    await app.ready();
  });
  afterAll(() => app.close());

  it('writes the same bytes as the response schema, for every item and field selection', async () => {
    for (const item of ITEMS) {
      for (const fields of FIELD_SETS) {
        current = { item, fields };
        const reference = (await app.inject('/reference')).body;
        expect(`{"data":${itemJson(item, fields)}}`).toBe(reference);
      }
    }
  });

  it('returns customFields exactly as stored, even where a re-serialization would differ', () => {
    const stored = '{ "b" : 2,\n  "a" : 1e2, "a" : "dup" }';
    expect(itemJson({ ...BASE, customFields: stored }, ['customFields'])).toBe(
      `{"customFields":${stored}}`,
    );
  });

  it('writes valid JSON', () => {
    for (const item of ITEMS) {
      const parsed = JSON.parse(itemJson(item));
      expect(Object.keys(parsed)).toEqual([...ITEM_FIELDS]);
      expect(parsed.name).toBe(item.name);
      expect(parsed.customFields).toEqual(JSON.parse(item.customFields));
    }
  });
});
