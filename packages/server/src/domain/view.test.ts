import { describe, expect, it } from 'vitest';
import { DomainError } from './errors.js';
import {
  HIDEABLE_FIELDS,
  MAX_HIDDEN,
  MAX_QUANTITY_CAP,
  MAX_WHERE,
  makeView,
  parseHideFields,
  parseQuantityCap,
  parseView,
  parseWhere,
  viewRules,
  viewText,
} from './view.js';

/** The DomainError a call throws: its field and message. */
function refusal(call: () => unknown): { field: string; message: string } {
  try {
    call();
  } catch (error) {
    if (error instanceof DomainError) return { field: error.field, message: error.message };
    throw error;
  }
  throw new Error('expected a DomainError');
}

describe('parseWhere', () => {
  it.each([
    ['status=Active', 'status=Active'],
    [' status = Active ', 'status=Active'],
    ['status=Active,Draft', 'status=Draft,Active'],
    ['status=Discontinued, Active ,Active', 'status=Active,Discontinued'],
    ['location=WH-1', 'location=WH-1'],
    ['location= WH-1 ', 'location=WH-1'],
    ['customFields.colour=red', 'customFields.colour=red'],
    // The expression is trimmed; inside it, the value is kept as written ('=' included).
    ['customFields.note= a=b ', 'customFields.note= a=b'],
    ['customFields.empty=', 'customFields.empty='],
  ])('%j → %j', (raw, canonical) => {
    expect(parseWhere(raw)).toBe(canonical);
  });

  it.each([
    ['', /is not a filter/],
    ['status', /is not a filter/],
    ['=Active', /is not a filter/],
    ['status=', /"" is not a status/],
    ['status=active', /"active" is not a status.*case-sensitive/],
    ['status=Active,,Draft', /"" is not a status/],
    ['location=', /location=/],
    ['location=a b', /location=/],
    ['customFields.=x', /customFields\.NAME/],
    [`customFields.${'n'.repeat(101)}=x`, /1-100 characters/],
    [`customFields.a=${'v'.repeat(201)}`, /at most 200 characters/],
    ['customFields.a=\u0000', /at most 200 characters/],
    ['name=Widget', /"name" cannot be filtered on by a view/],
    ['quantity=3', /cannot be filtered on/],
  ])('refuses %j', (raw, message) => {
    const { field, message: text } = refusal(() => parseWhere(raw));
    expect(field).toBe('where');
    expect(text).toMatch(message);
  });
});

describe('parseHideFields', () => {
  it('reads a comma-separated list, trimmed, empty entries skipped', () => {
    expect(parseHideFields(' barcode, stock,,customFields.cost ')).toEqual([
      'barcode',
      'stock',
      'customFields.cost',
    ]);
    for (const field of HIDEABLE_FIELDS) expect(parseHideFields(field)).toEqual([field]);
  });

  it.each([
    ['', /no field named/],
    [' , ', /no field named/],
    ['_id', /_id cannot be hidden/],
    ['organizationId', /organizationId cannot be hidden/],
    ['barcode,name', /name cannot be hidden/],
    ['colour', /"colour" is not an item field/],
    ['Barcode', /is not an item field/],
    ['customFields.', /customFields\.NAME/],
  ])('refuses %j', (raw, message) => {
    const { field, message: text } = refusal(() => parseHideFields(raw));
    expect(field).toBe('hideFields');
    expect(text).toMatch(message);
  });
});

describe('parseQuantityCap', () => {
  it.each([
    ['0', 0],
    [' 12 ', 12],
    [7, 7],
    [String(MAX_QUANTITY_CAP), MAX_QUANTITY_CAP],
  ])('%j → %j', (raw, cap) => {
    expect(parseQuantityCap(raw)).toBe(cap);
  });

  it.each(['', '-1', '1.5', '1e3', 'ten', String(MAX_QUANTITY_CAP + 1), -1, 2.5])(
    'refuses %j',
    (raw) => {
      const { field, message } = refusal(() => parseQuantityCap(raw));
      expect(field).toBe('quantityCap');
      expect(message).toMatch(/is not a quantity cap: use a whole number from 0 to 1000000000/);
    },
  );
});

describe('makeView and parseView', () => {
  it('is null when nothing is filtered, hidden or capped', () => {
    expect(makeView({ where: [], hideFields: [], quantityCap: null })).toBeNull();
    expect(parseView({})).toBeNull();
    expect(parseView({ where: [], hideFields: [], quantityCap: null })).toBeNull();
  });

  it('keeps filters in the order given without duplicates, fields in item order', () => {
    expect(
      makeView({
        where: ['location=B', 'status=Active', 'location=B'],
        hideFields: ['customFields.z', 'stock', 'customFields.a', 'barcode', 'stock'],
        quantityCap: 0,
      }),
    ).toEqual({
      where: ['location=B', 'status=Active'],
      hideFields: ['barcode', 'stock', 'customFields.a', 'customFields.z'],
      quantityCap: 0,
    });
  });

  it('drops customFields.NAME when all of customFields is hidden', () => {
    expect(
      makeView({
        where: [],
        hideFields: ['customFields.cost', 'customFields'],
        quantityCap: null,
      })?.hideFields,
    ).toEqual(['customFields']);
  });

  it('parseView parses every part with the same rules', () => {
    expect(
      parseView({
        where: ['status=Active,Draft', ' location=WH-1'],
        hideFields: ['barcode, stock', 'barcode'],
        quantityCap: 5,
      }),
    ).toEqual({
      where: ['status=Draft,Active', 'location=WH-1'],
      hideFields: ['barcode', 'stock'],
      quantityCap: 5,
    });
    expect(refusal(() => parseView({ where: ['colour=red'] })).field).toBe('where');
    expect(refusal(() => parseView({ hideFields: ['name'] })).field).toBe('hideFields');
    expect(refusal(() => parseView({ quantityCap: -1 })).field).toBe('quantityCap');
  });

  it('bounds the number of filters and hidden fields, after duplicates are dropped', () => {
    const filters = Array.from({ length: MAX_WHERE }, (_, i) => `customFields.f${i}=x`);
    expect(
      makeView({ where: [...filters, filters[0] as string], hideFields: [], quantityCap: null }),
    ).not.toBeNull();
    expect(
      refusal(() =>
        makeView({ where: [...filters, 'status=Active'], hideFields: [], quantityCap: null }),
      ),
    ).toEqual({ field: 'where', message: `a view takes at most ${MAX_WHERE} filters, got 11` });
    const hidden = Array.from({ length: MAX_HIDDEN + 1 }, (_, i) => `customFields.h${i}`);
    expect(refusal(() => makeView({ where: [], hideFields: hidden, quantityCap: null }))).toEqual({
      field: 'hideFields',
      message: `a view hides at most ${MAX_HIDDEN} fields, got ${MAX_HIDDEN + 1}`,
    });
  });
});

describe('viewText and viewRules', () => {
  it('writes a view in one line; "all" for none', () => {
    expect(viewText(null)).toBe('all');
    expect(
      viewText({
        where: ['status=Active', 'location=WH-1'],
        hideFields: ['barcode', 'customFields.cost'],
        quantityCap: 3,
      }),
    ).toBe('where status=Active & location=WH-1; hide barcode,customFields.cost; cap 3');
    expect(viewText({ where: [], hideFields: [], quantityCap: 0 })).toBe('cap 0');
  });

  it('reads a view into the scope the store applies', () => {
    const rules = viewRules({
      where: ['status=Draft,Active', 'status=Active', 'location=A', 'customFields.c=x'],
      hideFields: ['barcode', 'customFields.cost'],
      quantityCap: null,
    });
    expect(rules.scope).toEqual({
      statuses: ['Active'],
      locations: ['A'],
      customFields: [{ name: 'c', value: 'x' }],
      searchFields: ['name', 'description', 'sku'],
    });
    expect([...rules.hiddenFields]).toEqual(['barcode']);
    expect(rules.hiddenCustomFields).toEqual(['cost']);
  });
});
