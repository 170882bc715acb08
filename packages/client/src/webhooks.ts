import type { InventoryItem } from './types.js';

/**
 * Verifying the webhook deliveries a Stockroom server sends, by the Standard Webhooks scheme
 * (https://www.standardwebhooks.com): `webhook-signature` carries `v1,<base64 HMAC-SHA256>` of
 * `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64 part of the
 * `whsec_…` secret. Web Crypto only, so it runs wherever the client does: Node.js 20+, Deno,
 * Bun, browsers and edge runtimes.
 */

/** A new item, never sent to this webhook before (during a backlog, one changed again may come twice); `item` is its state now. */
export interface ItemCreatedEvent {
  type: 'item.created';
  /** When the change was made (ISO 8601, UTC, milliseconds). */
  occurredAt: string;
  item: InventoryItem;
}

/** An existing item changed; `item` is its latest state (several changes arrive as one). */
export interface ItemUpdatedEvent {
  type: 'item.updated';
  occurredAt: string;
  item: InventoryItem;
}

/** An item was deleted; only its `_id` is left. */
export interface ItemDeletedEvent {
  type: 'item.deleted';
  occurredAt: string;
  item: { _id: string };
}

/** One change of a delivery. Narrow on `type` to get the shape of `item`. */
export type WebhookEvent = ItemCreatedEvent | ItemUpdatedEvent | ItemDeletedEvent;
export type WebhookEventType = WebhookEvent['type'];

/** The body of a webhook delivery: up to 100 events of one organization, in change order. */
export interface WebhookDelivery {
  /** The delivery id, the same as the `webhook-id` header and stable across retries. */
  id: string;
  webhookId: string;
  organizationId: string;
  /** When the delivery was prepared (ISO 8601, UTC); retries keep it. */
  createdAt: string;
  events: WebhookEvent[];
}

/**
 * The request headers: a fetch `Headers` (Request.headers in Deno, Bun, edge runtimes, Hono…),
 * or a plain object such as Node's `IncomingMessage.headers` (names in any case, values a
 * string, a list of strings, or undefined).
 */
export type WebhookHeaders =
  | { get(name: string): string | null }
  | Readonly<Record<string, string | readonly string[] | undefined>>;

/** The raw request body, exactly as received: text, or bytes (a Node Buffer is a Uint8Array). */
export type WebhookPayload = string | ArrayBuffer | ArrayBufferView;

export interface VerifyWebhookOptions {
  /**
   * The raw request body, before any JSON parsing: the signature covers these exact bytes, and
   * re-serialized JSON (`JSON.stringify(req.body)`) does not match it.
   */
  payload: WebhookPayload;
  headers: WebhookHeaders;
  /**
   * The webhook's secret, `whsec_…`, as `stockroom webhook create` printed it. `undefined` (an
   * unset environment variable) is accepted by the type and rejected with `INVALID_SECRET`.
   */
  secret: string | undefined;
  /** How far `webhook-timestamp` may be from now, either way, in seconds. Default 300. */
  toleranceSeconds?: number;
  /** The current time, for tests. Default: the clock of this machine. */
  now?: Date;
}

export type WebhookVerificationErrorCode =
  /** `webhook-id`, `webhook-timestamp` or `webhook-signature` is missing, empty or malformed. */
  | 'MISSING_HEADERS'
  /** The secret is not a Stockroom webhook secret (`whsec_` followed by base64). */
  | 'INVALID_SECRET'
  /** The signature is valid but `webhook-timestamp` is further from now than the tolerance. */
  | 'TIMESTAMP_OUT_OF_RANGE'
  /** No `v1` signature of the header matches the body, id and timestamp with this secret. */
  | 'INVALID_SIGNATURE'
  /** The payload is not raw bytes or text, or (signed correctly) not a delivery's JSON. */
  | 'INVALID_PAYLOAD';

/**
 * A delivery that did not verify: answer it with a 4xx and do not act on it. Not a
 * `StockroomError`: no request to the API failed, and there is no status or request id.
 */
export class WebhookVerificationError extends Error {
  override readonly name: string = 'WebhookVerificationError';
  readonly code: WebhookVerificationErrorCode;

  constructor(code: WebhookVerificationErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
  }

  /** What `JSON.stringify` and structured loggers show (an Error's message is not enumerable). */
  toJSON(): Record<string, unknown> {
    return { name: this.name, code: this.code, message: this.message };
  }
}

const SECRET_PREFIX = 'whsec_';
const DEFAULT_TOLERANCE_SECONDS = 300;
/** Stockroom's secrets hold 24 bytes, the least the Standard Webhooks specification allows. */
const MIN_KEY_BYTES = 24;
/** Standard base64, padding optional (as Standard Webhooks libraries write secrets). */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}(?:==)?|[A-Za-z0-9+/]{3}=?)?$/;
const RAW_BODY_HINT =
  'pass the raw request body (a string or bytes exactly as received), not JSON parsed and serialized again';

function fail(code: WebhookVerificationErrorCode, message: string, cause?: unknown): never {
  throw new WebhookVerificationError(code, `Webhook verification failed: ${message}`, { cause });
}

function decodeBase64(text: string): Uint8Array<ArrayBuffer> | null {
  if (text === '' || !BASE64.test(text)) return null;
  let binary: string;
  try {
    binary = atob(text);
  } catch {
    return null;
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** The HMAC key: the base64 part of `whsec_…`. */
function secretKey(secret: unknown): Uint8Array<ArrayBuffer> {
  if (typeof secret !== 'string' || secret.trim() === '') {
    fail(
      'INVALID_SECRET',
      `no secret (got ${secret === '' ? 'an empty string' : typeof secret}). Pass the webhook's secret, the whsec_… value \`stockroom webhook create\` printed, e.g. from an environment variable that is set where this code runs.`,
    );
  }
  // A final newline read from a file or a secret store is not part of the secret.
  const trimmed = secret.trim();
  if (!trimmed.startsWith(SECRET_PREFIX)) {
    const what = /^sr_(?:org|usr)_/.test(trimmed)
      ? 'this is an API key, not a webhook secret.'
      : 'a Stockroom webhook secret starts with "whsec_".';
    fail(
      'INVALID_SECRET',
      `${what} Pass the secret \`stockroom webhook create\` printed, whole, "whsec_" included.`,
    );
  }
  const key = decodeBase64(trimmed.slice(SECRET_PREFIX.length));
  if (key === null) {
    fail(
      'INVALID_SECRET',
      'the part of the secret after "whsec_" is not base64: it was probably cut short or changed when copied. Copy the whole secret again.',
    );
  }
  if (key.length < MIN_KEY_BYTES) {
    fail(
      'INVALID_SECRET',
      `the secret holds ${key.length} bytes, and a webhook secret has at least ${MIN_KEY_BYTES}: it was probably cut short when copied. Copy the whole secret again.`,
    );
  }
  return key;
}

/** The body's exact bytes, and its text when it was given as text. */
function payloadBytes(payload: unknown): { bytes: Uint8Array<ArrayBuffer>; text: string | null } {
  if (typeof payload === 'string') {
    return { bytes: new TextEncoder().encode(payload), text: payload };
  }
  // Copies: Web Crypto takes only ArrayBuffer-backed views, and the caller's bytes stay theirs.
  // (instanceof alone would miss an ArrayBuffer made in another realm: a vm context, a frame.)
  if (
    payload instanceof ArrayBuffer ||
    Object.prototype.toString.call(payload) === '[object ArrayBuffer]'
  ) {
    return { bytes: new Uint8Array(payload as ArrayBuffer).slice(), text: null };
  }
  if (ArrayBuffer.isView(payload)) {
    return {
      bytes: new Uint8Array(payload.buffer, payload.byteOffset, payload.byteLength).slice(),
      text: null,
    };
  }
  if (payload === undefined || payload === null) {
    fail('INVALID_PAYLOAD', `no payload (got ${String(payload)}): ${RAW_BODY_HINT}.`);
  }
  fail(
    'INVALID_PAYLOAD',
    `the payload is ${typeof payload === 'object' ? 'an object (an already parsed body?)' : `a ${typeof payload}`}: ${RAW_BODY_HINT}. With Express, use express.raw({ type: 'application/json' }) on the webhook route; with Fastify, parse application/json as a buffer; with fetch-style handlers, await request.text().`,
  );
}

function isHeadersObject(headers: unknown): headers is { get(name: string): string | null } {
  return (
    typeof headers === 'object' &&
    headers !== null &&
    typeof (headers as { get?: unknown }).get === 'function'
  );
}

/** Every value given for a header, whatever the case of its name. */
function headerValues(headers: WebhookHeaders, name: string): string[] {
  const values: unknown[] = [];
  if (isHeadersObject(headers)) {
    values.push(headers.get(name));
  } else {
    for (const [key, value] of Object.entries(headers)) {
      if (key.toLowerCase() !== name) continue;
      if (Array.isArray(value)) values.push(...value);
      else values.push(value);
    }
  }
  return values
    .filter((value): value is string => typeof value === 'string')
    .map((value) => value.trim())
    .filter((value) => value !== '');
}

function missingHeader(name: string): never {
  fail(
    'MISSING_HEADERS',
    `the request has no ${name} header. Stockroom sends webhook-id, webhook-timestamp and webhook-signature with every delivery: pass the request's own headers, and check that no proxy in front of this endpoint removes them.`,
  );
}

/** A header that must have exactly one value (repeats of the same value are tolerated). */
function singleHeader(headers: WebhookHeaders, name: string): string {
  const values = [...new Set(headerValues(headers, name))];
  if (values.length === 0) missingHeader(name);
  if (values.length > 1) {
    fail(
      'MISSING_HEADERS',
      `the ${name} header was sent ${values.length} times with different values.`,
    );
  }
  return values[0] as string;
}

/** Constant time for equal lengths: the time taken says nothing about where bytes differ. */
function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return difference === 0;
}

function subtleCrypto(): SubtleCrypto {
  const subtle = (globalThis as { crypto?: { subtle?: SubtleCrypto } }).crypto?.subtle;
  if (!subtle) {
    // Not a verification failure: this runtime cannot verify anything.
    throw new Error(
      'Stockroom verifyWebhook: Web Crypto (globalThis.crypto.subtle) is not available here. It needs Node.js 20 or newer, Deno, Bun, an edge runtime, or a browser page served over HTTPS (a secure context).',
    );
  }
  return subtle;
}

function describeSeconds(seconds: number): string {
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min`;
  return `${Math.round(seconds / 3600)} h`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Verifies a webhook delivery and returns its parsed body. Throws a `WebhookVerificationError`
 * (see its `code`) when the request is not an authentic, recent Stockroom delivery: answer it
 * with a 4xx and do not act on it.
 *
 * ```ts
 * const delivery = await verifyWebhook({
 *   payload: rawBody, // string or bytes, exactly as received
 *   headers: request.headers,
 *   secret: process.env.STOCKROOM_WEBHOOK_SECRET,
 * });
 * for (const event of delivery.events) { … }
 * ```
 */
export async function verifyWebhook(options: VerifyWebhookOptions): Promise<WebhookDelivery> {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('verifyWebhook takes one object: { payload, headers, secret }.');
  }
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (typeof tolerance !== 'number' || Number.isNaN(tolerance) || tolerance < 0) {
    throw new TypeError('verifyWebhook: toleranceSeconds must be a number of seconds, 0 or more.');
  }
  const now = options.now ?? new Date();
  if (!(now instanceof Date) || Number.isNaN(now.getTime())) {
    throw new TypeError('verifyWebhook: now must be a valid Date.');
  }
  if (typeof options.headers !== 'object' || options.headers === null) {
    throw new TypeError(
      'verifyWebhook: headers must be the request headers (a Headers object or a plain object).',
    );
  }

  // What is wrong with the code comes before what is wrong with the request.
  const key = secretKey(options.secret);
  const body = payloadBytes(options.payload);

  const id = singleHeader(options.headers, 'webhook-id');
  const timestampText = singleHeader(options.headers, 'webhook-timestamp');
  const timestamp = /^\d{1,15}$/.test(timestampText) ? Number(timestampText) : Number.NaN;
  if (!Number.isSafeInteger(timestamp)) {
    fail('MISSING_HEADERS', 'the webhook-timestamp header is not a Unix time in whole seconds.');
  }
  const signatures: Uint8Array[] = [];
  let entries = 0;
  for (const value of headerValues(options.headers, 'webhook-signature')) {
    // Space-separated `version,base64` entries; a proxy joining repeated headers adds commas.
    for (const entry of value.split(/\s+/)) {
      const trimmed = entry.replace(/,+$/, '');
      if (trimmed === '') continue;
      entries++;
      const comma = trimmed.indexOf(',');
      if (comma === -1 || trimmed.slice(0, comma) !== 'v1') continue;
      const signature = decodeBase64(trimmed.slice(comma + 1));
      if (signature !== null) signatures.push(signature);
    }
  }
  if (entries === 0) missingHeader('webhook-signature');

  const subtle = subtleCrypto();
  const prefix = new TextEncoder().encode(`${id}.${timestampText}.`);
  const signed = new Uint8Array(prefix.length + body.bytes.length);
  signed.set(prefix, 0);
  signed.set(body.bytes, prefix.length);
  const hmacKey = await subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  const expected = new Uint8Array(await subtle.sign('HMAC', hmacKey, signed));
  // Compare with every entry, without stopping at the first match.
  let matched = false;
  for (const signature of signatures) matched = equalBytes(expected, signature) || matched;
  if (!matched) {
    fail(
      'INVALID_SIGNATURE',
      signatures.length === 0
        ? 'webhook-signature holds no v1 signature.'
        : `no signature matches. Check that the secret is this webhook's (each webhook has its own), and ${RAW_BODY_HINT}.`,
    );
  }

  // Checked once the signature holds, so that this error means "authentic, but not now".
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const age = nowSeconds - timestamp;
  if (Math.abs(age) > tolerance) {
    fail(
      'TIMESTAMP_OUT_OF_RANGE',
      age > 0
        ? `the delivery was signed ${describeSeconds(age)} ago, more than the ${tolerance} s allowed: it is a replay or was held up on the way, or this machine's clock is behind. Keep the clock synchronized (NTP).`
        : `the delivery was signed ${describeSeconds(-age)} in the future, more than the ${tolerance} s allowed: this machine's clock (or the server's) is wrong. Keep the clocks synchronized (NTP).`,
    );
  }

  let text = body.text;
  if (text === null) {
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(body.bytes);
    } catch (error) {
      fail('INVALID_PAYLOAD', 'the body is correctly signed but is not valid UTF-8.', error);
    }
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    fail(
      'INVALID_PAYLOAD',
      'the body is correctly signed but is not JSON: is this secret shared with a sender other than Stockroom?',
      error,
    );
  }
  if (!isRecord(parsed) || typeof parsed.id !== 'string' || !Array.isArray(parsed.events)) {
    fail(
      'INVALID_PAYLOAD',
      'the body is correctly signed JSON but not a Stockroom delivery ({ id, webhookId, organizationId, createdAt, events }).',
    );
  }
  return parsed as unknown as WebhookDelivery;
}
