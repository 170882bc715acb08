/**
 * Type tests, checked by `tsc -p packages/client` (npm run typecheck) and, within `npm test`, by
 * test/client-typecheck.e2e.test.ts; vitest does not execute this file.
 * Each assertion fails to compile when inference breaks, and each `@ts-expect-error` fails when
 * the error it expects goes away.
 */
import { expectTypeOf } from 'vitest';
import type { paths } from './generated/openapi.js';
import {
  type ConfigurationError,
  type DeletedItem,
  type InventoryItem,
  type ItemField,
  type ItemPage,
  type KeyVerification,
  type KeyView,
  type Location,
  NOT_MODIFIED,
  type NotModified,
  type Organization,
  type RateLimitError,
  type RateLimitInfo,
  type RetryEvent,
  Stockroom,
  type StockroomError,
  type StockroomOptions,
  type SyncExpiredError,
  type SyncPage,
  type VerifyWebhookOptions,
  verifyWebhook,
  type WebhookDelivery,
  type WebhookEvent,
  type WebhookEventType,
  type WebhookVerificationError,
  type WebhookVerificationErrorCode,
} from './index.js';
import type { GetItemParams, ItemQuery, ItemsQuery, ListItemsParams } from './types.js';

declare const stockroom: Stockroom;

// The full item, exactly as docs/architecture.md#items lists its fields.
expectTypeOf<InventoryItem>().toEqualTypeOf<{
  _id: string;
  organizationId: string;
  name: string;
  description: string | null;
  sku: string | null;
  barcode: string | null;
  status: 'Draft' | 'Active' | 'Inactive' | 'Discontinued';
  quantity: number;
  stock: { location: string; quantity: number }[];
  customFields: { [key: string]: unknown };
  createdAt: string;
  updatedAt: string;
}>();

// Locations (issue 31).
expectTypeOf<Location>().toEqualTypeOf<{ _id: string; code: string; name: string }>();
expectTypeOf(stockroom.locations.list()).resolves.toEqualTypeOf<{
  data: Location[];
  organizationId: string;
  count: number;
}>();

// Without fields: full items.
const page = await stockroom.inventory.list();
expectTypeOf(page).toEqualTypeOf<ItemPage<InventoryItem>>();
expectTypeOf(page.data).toEqualTypeOf<InventoryItem[]>();
expectTypeOf(page.nextCursor).toEqualTypeOf<string | null>();
expectTypeOf(page.count).toEqualTypeOf<number>();
expectTypeOf(page.organizationId).toEqualTypeOf<string>();
expectTypeOf(await stockroom.inventory.list({ limit: 5, status: 'Active' })).toEqualTypeOf<
  ItemPage<InventoryItem>
>();
expectTypeOf(await stockroom.inventory.get('id')).toEqualTypeOf<InventoryItem>();

// A literal fields list narrows each item to exactly those properties, no `as const` needed.
const narrow = await stockroom.inventory.list({ fields: ['name', 'sku'] });
expectTypeOf(narrow.data[0]).toEqualTypeOf<{ name: string; sku: string | null } | undefined>();
// @ts-expect-error quantity was not selected
narrow.data[0]?.quantity;

expectTypeOf(
  await stockroom.inventory.get('id', { fields: ['_id', 'quantity', 'status'] }),
).toEqualTypeOf<{ _id: string; quantity: number; status: InventoryItem['status'] }>();

const readonlyFields = ['barcode'] as const;
expectTypeOf(await stockroom.inventory.get('id', { fields: readonlyFields })).toEqualTypeOf<{
  barcode: string | null;
}>();

for await (const item of stockroom.inventory.all({ fields: ['_id', 'createdAt'], limit: 500 })) {
  expectTypeOf(item).toEqualTypeOf<{ _id: string; createdAt: string }>();
}
for await (const item of stockroom.inventory.all()) {
  expectTypeOf(item).toEqualTypeOf<InventoryItem>();
}

// A list known only at run time may have selected any of its fields: all optional.
declare const chosen: ItemField[];
expectTypeOf(await stockroom.inventory.get('id', { fields: chosen })).toEqualTypeOf<
  Partial<InventoryItem>
>();
declare const someOf: Array<'name' | 'quantity'>;
expectTypeOf(await stockroom.inventory.get('id', { fields: someOf })).toEqualTypeOf<{
  name?: string;
  quantity?: number;
}>();

// An empty selection does not compile: the API answers it with 400.
// @ts-expect-error fields must name at least one field
await stockroom.inventory.list({ fields: [] });
// @ts-expect-error fields must name at least one field
await stockroom.inventory.get('id', { fields: [] });
// @ts-expect-error fields must name at least one field
stockroom.inventory.all({ fields: [] });

// A list declared `as const` narrows like a literal.
const constFields = ['name', 'sku'] as const;
expectTypeOf(await stockroom.inventory.list({ fields: constFields })).toEqualTypeOf<
  ItemPage<{ name: string; sku: string | null }>
>();
// A plain `string[]` (the same list without `as const`) is rejected: its names are unchecked.
const looseFields = ['name', 'sku'];
// @ts-expect-error string[] is not a list of item fields
await stockroom.inventory.list({ fields: looseFields });

// Parameters built apart, typed without a type argument, compile; their items may then hold
// any subset of the fields, since the annotation no longer says which were selected.
const listParams: ListItemsParams = { fields: ['name'], limit: 5 };
expectTypeOf(await stockroom.inventory.list(listParams)).toEqualTypeOf<
  ItemPage<Partial<InventoryItem>>
>();
const getParams: GetItemParams = { fields: ['sku'] };
expectTypeOf(await stockroom.inventory.get('id', getParams)).toEqualTypeOf<
  Partial<InventoryItem>
>();
// @ts-expect-error fields must name at least one field
const _emptyParams: ListItemsParams<readonly []> = { fields: [] };
// With the type argument, the selection is kept.
const typedParams: ListItemsParams<readonly ['_id']> = { fields: ['_id'] };
expectTypeOf(await stockroom.inventory.list(typedParams)).toEqualTypeOf<
  ItemPage<{ _id: string }>
>();

// Unknown fields and statuses do not compile.
// @ts-expect-error colour is not an item field
await stockroom.inventory.list({ fields: ['name', 'colour'] });
// @ts-expect-error status values are case-sensitive
await stockroom.inventory.list({ status: 'active' });
// @ts-expect-error limit is a number
await stockroom.inventory.list({ limit: '5' });
// @ts-expect-error itemId is required
await stockroom.inventory.get();

// The other methods.
expectTypeOf(await stockroom.organization.get()).toEqualTypeOf<Organization>();
expectTypeOf(await stockroom.verifyKey()).toEqualTypeOf<KeyVerification>();
expectTypeOf((await stockroom.health()).status).toEqualTypeOf<'ok' | 'degraded' | 'unavailable'>();

// The key's view (docs: "Key views"): null for a key that sees every item whole.
expectTypeOf((await stockroom.verifyKey()).key.view).toEqualTypeOf<KeyView | null>();
expectTypeOf<KeyView>().toEqualTypeOf<{
  where: string[];
  hideFields: string[];
  quantityCap: number | null;
}>();

const { data, response } = await stockroom.inventory.list({ fields: ['name'] }).withResponse();
expectTypeOf(data.data).toEqualTypeOf<Array<{ name: string }>>();
expectTypeOf(response.requestId).toEqualTypeOf<string | null>();
expectTypeOf(response.rateLimit).toEqualTypeOf<{
  limit: number;
  remaining: number;
  reset: number;
} | null>();
expectTypeOf(stockroom.inventory.get('id')).toExtend<Promise<InventoryItem>>();

// The exact filters and the sync parameters.
expectTypeOf(
  await stockroom.inventory.list({
    sku: 'DRL-1',
    barcode: '4006381333931',
    ids: ['6740a1f2c3d4e5f6a7b8c9d0'],
    status: 'Active',
  }),
).toEqualTypeOf<ItemPage<InventoryItem>>();
const someIds: readonly string[] = [];
await stockroom.inventory.list({ ids: someIds, updatedSince: new Date(), includeDeleted: true });
await stockroom.inventory.list({ updatedSince: '2026-11-24T08:00:00Z' });
// @ts-expect-error ids is a list, not a comma-separated string
await stockroom.inventory.list({ ids: '6740a1f2c3d4e5f6a7b8c9d0' });
// @ts-expect-error includeDeleted is a boolean
await stockroom.inventory.list({ updatedSince: new Date(), includeDeleted: 'true' });
// On a page of a sync, the envelope's optional parts.
expectTypeOf(page.nextSince).toEqualTypeOf<string | undefined>();
expectTypeOf(page.deleted).toEqualTypeOf<DeletedItem[] | undefined>();
expectTypeOf<DeletedItem>().toEqualTypeOf<{ _id: string; deletedAt: string }>();

// sync(): pages with items narrowed by fields, deletions always a list, nextSince always there.
for await (const syncPage of stockroom.inventory.sync({
  since: new Date(0),
  fields: ['_id', 'quantity'],
  limit: 1000,
})) {
  expectTypeOf(syncPage).toEqualTypeOf<SyncPage<{ _id: string; quantity: number }>>();
  expectTypeOf(syncPage.data).toEqualTypeOf<Array<{ _id: string; quantity: number }>>();
  expectTypeOf(syncPage.deleted).toEqualTypeOf<DeletedItem[]>();
  expectTypeOf(syncPage.nextSince).toEqualTypeOf<string>();
  expectTypeOf(syncPage.nextCursor).toEqualTypeOf<string | null>();
}
for await (const syncPage of stockroom.inventory.sync({ since: 'sToken', includeDeleted: true })) {
  expectTypeOf(syncPage.data).toEqualTypeOf<InventoryItem[]>();
}
// @ts-expect-error since is required: new Date(0) for a full sync
stockroom.inventory.sync({ includeDeleted: true });
// @ts-expect-error sync follows the cursors itself
stockroom.inventory.sync({ since: new Date(0), cursor: 'c' });
// @ts-expect-error fields must name at least one field
stockroom.inventory.sync({ since: new Date(0), fields: [] });

// Conditional requests: NOT_MODIFIED is a possible result only when ifNoneMatch is given.
declare const etag: string;
declare const maybeEtag: string | undefined;
expectTypeOf(await stockroom.inventory.list({}, { signal: AbortSignal.timeout(1) })).toEqualTypeOf<
  ItemPage<InventoryItem>
>();
expectTypeOf(await stockroom.inventory.list({}, { ifNoneMatch: undefined })).toEqualTypeOf<
  ItemPage<InventoryItem>
>();
expectTypeOf(
  await stockroom.inventory.list({ fields: ['name'] }, { ifNoneMatch: etag }),
).toEqualTypeOf<ItemPage<{ name: string }> | NotModified>();
const conditional = await stockroom.inventory.get(
  'id',
  { fields: ['sku'] },
  { ifNoneMatch: maybeEtag },
);
expectTypeOf(conditional).toEqualTypeOf<{ sku: string | null } | NotModified>();
if (conditional !== NOT_MODIFIED) expectTypeOf(conditional).toEqualTypeOf<{ sku: string | null }>();
const withEtag = await stockroom.inventory.get('id', {}, { ifNoneMatch: etag }).withResponse();
expectTypeOf(withEtag.data).toEqualTypeOf<InventoryItem | NotModified>();
expectTypeOf(withEtag.response.etag).toEqualTypeOf<string | null>();
expectTypeOf(withEtag.response.notModified).toEqualTypeOf<boolean>();
// all() and sync() take no ifNoneMatch: a 304 has no page to walk.
// @ts-expect-error ifNoneMatch is for list and get
stockroom.inventory.all({}, { ifNoneMatch: etag });
// @ts-expect-error ifNoneMatch is for list and get
stockroom.inventory.sync({ since: new Date(0) }, { ifNoneMatch: etag });

// Errors.
expectTypeOf<RateLimitError>().toExtend<StockroomError>();
expectTypeOf<SyncExpiredError>().toExtend<StockroomError>();
expectTypeOf<RateLimitError['retryAfter']>().toEqualTypeOf<number | null>();
expectTypeOf<StockroomError['status']>().toEqualTypeOf<number | null>();
expectTypeOf<StockroomError['requestId']>().toEqualTypeOf<string | null>();

// The parameters match what the server's OpenAPI document accepts, name for name: a parameter
// added to or removed from the server fails here until the client follows.
expectTypeOf<keyof ListItemsParams>().toEqualTypeOf<keyof ItemsQuery>();
expectTypeOf<keyof ItemQuery>().toEqualTypeOf<'itemId' | 'organizationId' | 'fields'>();
expectTypeOf<ListItemsParams['status']>().toEqualTypeOf<ItemsQuery['status']>();
expectTypeOf<keyof paths>().toEqualTypeOf<
  | '/api/v1/health'
  | '/api/v1/auth/verify'
  | '/api/v1/organization'
  | '/api/v1/inventory/items'
  | '/api/v1/inventory/item'
  | '/api/v1/inventory/locations'
  // The probes are for load balancers and supervisors: the client has no method for them.
  | '/livez'
  | '/readyz'
>();

// Webhooks: verifyWebhook resolves to the typed delivery; events narrow on `type`.
declare const rawBody: string;
declare const rawBytes: Uint8Array;
// What Node's IncomingMessage.headers is (IncomingHttpHeaders), without Node's types.
declare const nodeHeaders: {
  [name: string]: string | string[] | undefined;
  'set-cookie'?: string[];
};
declare const secretFromEnv: string | undefined;
const delivery = await verifyWebhook({
  payload: rawBody,
  headers: nodeHeaders,
  secret: secretFromEnv,
});
expectTypeOf(delivery).toEqualTypeOf<WebhookDelivery>();
expectTypeOf(delivery.events).toEqualTypeOf<WebhookEvent[]>();
expectTypeOf<WebhookEventType>().toEqualTypeOf<'item.created' | 'item.updated' | 'item.deleted'>();
for (const event of delivery.events) {
  if (event.type === 'item.deleted') expectTypeOf(event.item).toEqualTypeOf<{ _id: string }>();
  else expectTypeOf(event.item).toEqualTypeOf<InventoryItem>();
  expectTypeOf(event.occurredAt).toEqualTypeOf<string>();
}
await verifyWebhook({
  payload: rawBytes,
  headers: new Headers(),
  secret: 'whsec_…',
  toleranceSeconds: 60,
  now: new Date(),
});
await verifyWebhook({ payload: new ArrayBuffer(8), headers: { 'webhook-id': 'x' }, secret: '' });
// @ts-expect-error the payload is the raw body, not the parsed JSON
await verifyWebhook({ payload: delivery, headers: nodeHeaders, secret: secretFromEnv });
// @ts-expect-error the secret is required (undefined is accepted, and rejected when called)
await verifyWebhook({ payload: rawBody, headers: nodeHeaders });
expectTypeOf<VerifyWebhookOptions['now']>().toEqualTypeOf<Date | undefined>();
expectTypeOf<WebhookVerificationError['code']>().toEqualTypeOf<WebhookVerificationErrorCode>();
expectTypeOf<WebhookVerificationErrorCode>().toEqualTypeOf<
  | 'MISSING_HEADERS'
  | 'INVALID_SECRET'
  | 'TIMESTAMP_OUT_OF_RANGE'
  | 'INVALID_SIGNATURE'
  | 'INVALID_PAYLOAD'
>();
expectTypeOf<WebhookVerificationError>().toExtend<Error>();
expectTypeOf<WebhookVerificationError>().not.toExtend<StockroomError>();

// Retry callbacks: the event is typed, and onRateLimit's error is a RateLimitError.
new Stockroom({
  baseUrl: 'http://127.0.0.1:3000',
  apiKey: 'sr_org_…',
  maxRetryWait: 5_000,
  onRetry: (event) => {
    expectTypeOf(event).toEqualTypeOf<RetryEvent>();
    expectTypeOf(event.error).toEqualTypeOf<StockroomError>();
    expectTypeOf(event.attempt).toEqualTypeOf<number>();
    expectTypeOf(event.delayMs).toEqualTypeOf<number>();
    expectTypeOf(event.retryAfter).toEqualTypeOf<number | null>();
    expectTypeOf(event.status).toEqualTypeOf<number | null>();
    expectTypeOf(event.rateLimit).toEqualTypeOf<RateLimitInfo | null>();
  },
  onRateLimit: (event) => {
    expectTypeOf(event.error).toEqualTypeOf<RateLimitError>();
    expectTypeOf(event.error.retryAfter).toEqualTypeOf<number | null>();
  },
});
// A client without a key, on purpose: null (undefined means "from STOCKROOM_API_KEY").
expectTypeOf<StockroomOptions['apiKey']>().toEqualTypeOf<string | null | undefined>();
new Stockroom({ baseUrl: 'http://127.0.0.1:3000', apiKey: null });
// @ts-expect-error maxRetryWait is a number of milliseconds
new Stockroom({ baseUrl: 'http://127.0.0.1:3000', apiKey: 'k', maxRetryWait: '10s' });
expectTypeOf<ConfigurationError>().toExtend<StockroomError>();
