import { ITEM_STATUSES, type ItemScope, type ItemStatus, type KeyView } from '../store/types.js';
import { DomainError } from './errors.js';
import { locationCodeProblem } from './location.js';

/**
 * Key views (docs/architecture.md#key-views): what one key may see. A view is kept and shown as
 * its operator wrote it, canonicalized (`KeyView`: `where` expressions, `hideFields`, a quantity
 * cap); `viewRules` reads it into what the store and the API apply.
 */

/** Item fields a view may hide: every field but `_id`, `organizationId` and `name`. */
export const HIDEABLE_FIELDS = [
  'description',
  'sku',
  'barcode',
  'status',
  'quantity',
  'stock',
  'customFields',
  'createdAt',
  'updatedAt',
] as const;
export type HideableField = (typeof HIDEABLE_FIELDS)[number];

/** Bounds that keep a view readable and its SQL small. */
export const MAX_WHERE = 10;
export const MAX_HIDDEN = 30;
export const MAX_CUSTOM_FIELD_NAME = 100;
export const MAX_CUSTOM_FIELD_VALUE = 200;
export const MAX_QUANTITY_CAP = 1_000_000_000;

const CUSTOM = 'customFields.';

function customFieldName(raw: string, field: string, expression: string): string {
  const name = raw.slice(CUSTOM.length);
  if (name.length === 0 || name.length > MAX_CUSTOM_FIELD_NAME || name.includes('\u0000')) {
    throw new DomainError(
      field,
      `${JSON.stringify(expression.slice(0, 60))}: a custom field is named customFields.NAME, NAME being 1-${MAX_CUSTOM_FIELD_NAME} characters (a top-level key of customFields)`,
    );
  }
  return name;
}

/** One `--where` expression, canonical: `status=A[,B…]`, `location=CODE`, `customFields.NAME=VALUE`. */
export function parseWhere(raw: string): string {
  const expression = raw.trim();
  const equals = expression.indexOf('=');
  const help =
    'write status=Active[,Draft…], location=CODE or customFields.NAME=VALUE (repeat --where for several; all must hold)';
  if (equals <= 0) {
    throw new DomainError(
      'where',
      `${JSON.stringify(expression.slice(0, 60))} is not a filter: ${help}`,
    );
  }
  const left = expression.slice(0, equals).trim();
  const value = expression.slice(equals + 1);
  if (left === 'status') {
    const statuses = value.split(',').map((s) => s.trim());
    for (const status of statuses) {
      if (!(ITEM_STATUSES as readonly string[]).includes(status)) {
        throw new DomainError(
          'where',
          `status=${value.slice(0, 60)}: ${JSON.stringify(status)} is not a status; use ${ITEM_STATUSES.join(', ')} (case-sensitive, comma-separated)`,
        );
      }
    }
    return `status=${[...new Set(statuses)].sort(byStatusOrder).join(',')}`;
  }
  if (left === 'location') {
    const code = value.trim();
    const problem = locationCodeProblem(code);
    if (problem) throw new DomainError('where', `location=${value.slice(0, 40)}: ${problem}`);
    return `location=${code}`;
  }
  if (left.startsWith(CUSTOM)) {
    const name = customFieldName(left, 'where', expression);
    if (value.length > MAX_CUSTOM_FIELD_VALUE || value.includes('\u0000')) {
      throw new DomainError(
        'where',
        `${left}=…: the value is compared as a string of at most ${MAX_CUSTOM_FIELD_VALUE} characters`,
      );
    }
    return `${CUSTOM}${name}=${value}`;
  }
  throw new DomainError(
    'where',
    `${JSON.stringify(left.slice(0, 60))} cannot be filtered on by a view: ${help}`,
  );
}

function byStatusOrder(a: string, b: string): number {
  return (
    (ITEM_STATUSES as readonly string[]).indexOf(a) -
    (ITEM_STATUSES as readonly string[]).indexOf(b)
  );
}

/** `--hide-fields LIST` (comma-separated; repeatable): item fields or `customFields.NAME`. */
export function parseHideFields(raw: string): string[] {
  const names = raw
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name.length > 0);
  if (names.length === 0) {
    throw new DomainError(
      'hideFields',
      `no field named: list item fields to hide, comma-separated (${HIDEABLE_FIELDS.join(', ')}, or customFields.NAME)`,
    );
  }
  return names.map((name) => {
    if (name === '_id' || name === 'organizationId' || name === 'name') {
      throw new DomainError(
        'hideFields',
        `${name} cannot be hidden: every item keeps _id, organizationId and name`,
      );
    }
    if (name.startsWith(CUSTOM)) return `${CUSTOM}${customFieldName(name, 'hideFields', name)}`;
    if (!(HIDEABLE_FIELDS as readonly string[]).includes(name)) {
      throw new DomainError(
        'hideFields',
        `${JSON.stringify(name.slice(0, 60))} is not an item field; hide ${HIDEABLE_FIELDS.join(', ')} or customFields.NAME`,
      );
    }
    return name;
  });
}

/** `--quantity-cap N`: an integer from 0. */
export function parseQuantityCap(raw: string | number): number {
  const text = String(raw).trim();
  const cap = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(cap) || cap > MAX_QUANTITY_CAP) {
    throw new DomainError(
      'quantityCap',
      `${JSON.stringify(text.slice(0, 40))} is not a quantity cap: use a whole number from 0 to ${MAX_QUANTITY_CAP} (quantities above it are shown as it)`,
    );
  }
  return cap;
}

/**
 * A view from its parts, each already parsed, canonical (duplicates dropped, fields in item
 * order); null when it selects nothing (no filter, nothing hidden, no cap): every item, whole.
 */
export function makeView(parts: {
  where: readonly string[];
  hideFields: readonly string[];
  quantityCap: number | null;
}): KeyView | null {
  const where = [...new Set(parts.where)];
  if (where.length > MAX_WHERE) {
    throw new DomainError(
      'where',
      `a view takes at most ${MAX_WHERE} filters, got ${where.length}`,
    );
  }
  const hidden = new Set(parts.hideFields);
  const fields = HIDEABLE_FIELDS.filter((field) => hidden.has(field));
  const custom = [...hidden].filter((name) => name.startsWith(CUSTOM)).sort();
  // customFields.NAME adds nothing when all of customFields is hidden.
  const hideFields = [...fields, ...(hidden.has('customFields') ? [] : custom)];
  if (hideFields.length > MAX_HIDDEN) {
    throw new DomainError(
      'hideFields',
      `a view hides at most ${MAX_HIDDEN} fields, got ${hideFields.length}`,
    );
  }
  if (where.length === 0 && hideFields.length === 0 && parts.quantityCap === null) return null;
  return { where, hideFields, quantityCap: parts.quantityCap };
}

/**
 * A view given whole (the admin API's `view` object), checked and canonical: the same rules as
 * the CLI's flags, each message naming the member.
 */
export function parseView(input: {
  where?: readonly string[];
  hideFields?: readonly string[];
  quantityCap?: number | null;
}): KeyView | null {
  return makeView({
    where: (input.where ?? []).map(parseWhere),
    hideFields: (input.hideFields ?? []).flatMap(parseHideFields),
    quantityCap:
      input.quantityCap === undefined || input.quantityCap === null
        ? null
        : parseQuantityCap(input.quantityCap),
  });
}

/** The searchable fields (store/search.ts) a view may hide. */
const SEARCHABLE = ['name', 'description', 'sku', 'barcode'] as const;

/** What the store and the API apply of a view, read once per view. */
export interface ViewRules {
  /** The rows: applied inside every store query. */
  scope: ItemScope;
  /** Top-level item fields not shown (and not to be named in `fields` or lookups). */
  hiddenFields: ReadonlySet<string>;
  /** Keys of customFields not shown. */
  hiddenCustomFields: readonly string[];
  quantityCap: number | null;
}

const RULES = new WeakMap<KeyView, ViewRules>();

export function viewRules(view: KeyView): ViewRules {
  const known = RULES.get(view);
  if (known) return known;
  let statuses: ItemStatus[] | undefined;
  const locations: string[] = [];
  const customFields: Array<{ name: string; value: string }> = [];
  for (const expression of view.where) {
    const equals = expression.indexOf('=');
    const left = expression.slice(0, equals);
    const value = expression.slice(equals + 1);
    if (left === 'status') {
      const listed = value.split(',') as ItemStatus[];
      // Several status filters must all hold: their intersection.
      statuses = statuses === undefined ? listed : statuses.filter((s) => listed.includes(s));
    } else if (left === 'location') {
      if (!locations.includes(value)) locations.push(value);
    } else {
      customFields.push({ name: left.slice(CUSTOM.length), value });
    }
  }
  const hiddenFields = new Set(view.hideFields.filter((name) => !name.startsWith(CUSTOM)));
  const searchFields = SEARCHABLE.filter((field) => !hiddenFields.has(field));
  const scope: ItemScope = {
    ...(statuses === undefined ? {} : { statuses }),
    ...(locations.length === 0 ? {} : { locations }),
    ...(customFields.length === 0 ? {} : { customFields }),
    ...(searchFields.length === SEARCHABLE.length ? {} : { searchFields }),
  };
  const rules: ViewRules = {
    scope,
    hiddenFields,
    hiddenCustomFields: view.hideFields
      .filter((name) => name.startsWith(CUSTOM))
      .map((name) => name.slice(CUSTOM.length)),
    quantityCap: view.quantityCap,
  };
  RULES.set(view, rules);
  return rules;
}

/** The view as one line, for tables and logs: `where status=Active; hide barcode; cap 10`. */
export function viewText(view: KeyView | null): string {
  if (view === null) return 'all';
  const parts = [
    ...(view.where.length > 0 ? [`where ${view.where.join(' & ')}`] : []),
    ...(view.hideFields.length > 0 ? [`hide ${view.hideFields.join(',')}`] : []),
    ...(view.quantityCap === null ? [] : [`cap ${view.quantityCap}`]),
  ];
  return parts.join('; ');
}
