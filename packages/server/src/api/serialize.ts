import type { Item, Organization } from '../store/types.js';
import { isoTime } from '../time.js';
import type { ItemField } from './item-fields.js';

/**
 * API shape of an item as an object, in the order of docs/architecture.md#items, narrowed to `fields`
 * when given. The routes answer through `itemJson` below; this is the reference it is tested
 * against (serialized through the TypeBox response schema, as Fastify would).
 */
export function serializeItem(item: Item, fields?: ItemField[]): Record<string, unknown> {
  const full: Record<ItemField, unknown> = {
    _id: item.id,
    organizationId: item.organizationId,
    name: item.name,
    description: item.description,
    sku: item.sku,
    barcode: item.barcode,
    status: item.status,
    quantity: item.quantity,
    stock: JSON.parse(item.stock),
    customFields: JSON.parse(item.customFields),
    createdAt: isoTime(item.createdAt),
    updatedAt: isoTime(item.updatedAt),
  };
  if (!fields) return full;
  const picked: Record<string, unknown> = {};
  for (const field of fields) picked[field] = full[field];
  return picked;
}

/*
 * The item fast path: JSON text written by hand. Items are most of every inventory response,
 * and the generic path (JSON.parse of the stored customFields, then the schema serializer
 * walking the parsed tree) cost more than the query. Here customFields is the stored text
 * spliced in as is, which also makes "returned byte-for-byte as stored" hold by construction;
 * strings go through JSON.stringify, which escapes exactly as the schema serializer does.
 */

function text(value: string | null): string {
  return value === null ? 'null' : JSON.stringify(value);
}

function number(value: number): string {
  // As the schema serializer writes numbers (quantity is finite by the store's contract).
  return Number.isFinite(value) ? `${value}` : 'null';
}

// Items written together share their timestamps (an import stamps a whole batch with one
// instant), so the last conversion is kept: toISOString is a large part of a page's cost.
let lastMs = Number.NaN;
let lastTime = '';

function time(ms: number): string {
  if (ms !== lastMs) {
    lastTime = `"${isoTime(ms)}"`;
    lastMs = ms;
  }
  return lastTime;
}

/** `"name":value` of one field; ids are 24 hex characters and need no escaping. */
const FIELD_JSON: Record<ItemField, (item: Item) => string> = {
  _id: (item) => `"_id":"${item.id}"`,
  organizationId: (item) => `"organizationId":"${item.organizationId}"`,
  name: (item) => `"name":${JSON.stringify(item.name)}`,
  description: (item) => `"description":${text(item.description)}`,
  sku: (item) => `"sku":${text(item.sku)}`,
  barcode: (item) => `"barcode":${text(item.barcode)}`,
  status: (item) => `"status":"${item.status}"`,
  quantity: (item) => `"quantity":${number(item.quantity)}`,
  stock: (item) => `"stock":${item.stock}`,
  customFields: (item) => `"customFields":${item.customFields}`,
  createdAt: (item) => `"createdAt":${time(item.createdAt)}`,
  updatedAt: (item) => `"updatedAt":${time(item.updatedAt)}`,
};

/** One item as JSON text, every field in the fixed order, or only `fields` (already in order). */
export function itemJson(item: Item, fields?: readonly ItemField[]): string {
  if (fields) {
    let out = '{';
    for (let i = 0; i < fields.length; i++) {
      if (i > 0) out += ',';
      out += FIELD_JSON[fields[i] as ItemField](item);
    }
    return `${out}}`;
  }
  return (
    `{"_id":"${item.id}","organizationId":"${item.organizationId}","name":${JSON.stringify(item.name)}` +
    `,"description":${text(item.description)},"sku":${text(item.sku)},"barcode":${text(item.barcode)}` +
    `,"status":"${item.status}","quantity":${number(item.quantity)},"stock":${item.stock}` +
    `,"customFields":${item.customFields}` +
    `,"createdAt":${time(item.createdAt)},"updatedAt":${time(item.updatedAt)}}`
  );
}

export function serializeOrganization(organization: Organization) {
  return {
    _id: organization.id,
    name: organization.name,
    slug: organization.slug,
    features: organization.features,
    createdAt: isoTime(organization.createdAt),
  };
}
