import { isBrowser } from './environment.js';
import {
  ConfigurationError,
  errorFromResponse,
  InvalidRequestError,
  StockroomError,
  type StockroomErrorInit,
} from './errors.js';
import { exchange, type FetchLike } from './exchange.js';
import type { paths } from './generated/admin-openapi.js';
import { numberOption } from './options.js';
import { parseRetryAfter } from './retry.js';
import { redactJson } from './secrets.js';
import { wrongHostHint } from './wrong-host.js';

/**
 * The admin API client: organizations, keys and bulk item writes on the admin port of a
 * Stockroom server started with ADMIN_TOKEN. Separate from `Stockroom` (the read API): another
 * host, another credential, and calls that change data, so nothing is retried automatically.
 * For servers only: the token can do anything to any organization.
 *
 * ```ts
 * const admin = createAdminClient({ baseUrl: 'http://127.0.0.1:3002', token: process.env.ADMIN_TOKEN });
 * const org = await admin.organizations.create({ name: 'Acme Supplies', slug: 'acme' });
 * const { key } = await admin.keys.create('acme', { name: 'Web shop', rateLimit: '120/1m' });
 * await admin.items.bulkUpsert('acme', [{ sku: 'TENT-1', name: 'Tent', quantity: 3 }]);
 * ```
 */

export interface AdminClientOptions {
  /** The admin host, e.g. `http://127.0.0.1:3002` (a trailing `/admin/v1` is accepted). */
  baseUrl: string;
  /** The server's ADMIN_TOKEN, sent as `Authorization: Bearer …`. */
  token: string;
  /** Time allowed for each call, response body included. Default 60 000. */
  timeoutMs?: number;
  /** A `fetch` implementation; default `globalThis.fetch`. */
  fetch?: FetchLike;
}

export interface AdminCallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

/*
 * The admin API's types are derived from the declarations generated from its OpenAPI document
 * (src/generated/admin-openapi.ts), so a change in the server's admin schemas reaches them
 * through `npm run generate` alone.
 */
type JsonBody<R> = R extends { content: { 'application/json': infer B } } ? B : never;
/** The `data` of an operation's answer with this status. */
type Data<Operation, Status extends number> = Operation extends {
  responses: { [S in Status]: infer R };
}
  ? JsonBody<R> extends { data: infer D }
    ? D
    : never
  : never;
type Body<Operation> = Operation extends { requestBody?: infer B } ? JsonBody<B> : never;

type Organizations = paths['/admin/v1/organizations'];
type Organization = paths['/admin/v1/organizations/{org}'];
type Keys = paths['/admin/v1/organizations/{org}/keys'];
type BulkUpsert = paths['/admin/v1/organizations/{org}/items/bulk-upsert']['post'];
type BulkDelete = paths['/admin/v1/organizations/{org}/items/bulk-delete']['post'];

export type AdminOrganization = Data<Organizations['get'], 200>[number];
export type AdminOrganizationDetail = Data<Organization['get'], 200>;
export type AdminOrganizationDeletion = Data<Organization['delete'], 200>;

export type AdminKey = Data<Keys['get'], 200>[number];
export type AdminKeyState = AdminKey['state'];
/** A key with its secret: returned once, by create and rotate. Store it now. */
export type AdminKeyWithSecret = Data<Keys['post'], 201>;

export type CreateOrganizationInput = Body<Organizations['post']>;
export type UpdateOrganizationInput = Body<Organization['patch']>;
export type CreateKeyInput = Body<Keys['post']>;
/** `{ view }`: the key's whole new view (`null` clears it). */
export type UpdateKeyInput = Body<paths['/admin/v1/organizations/{org}/keys/{keyId}']['patch']>;
export type AdminKeyView = AdminKey['view'];
export type RotateKeyInput = Body<
  paths['/admin/v1/organizations/{org}/keys/{keyId}/rotate']['post']
>;

/** One row of a bulk upsert: the fields of `stockroom items import`. */
export type AdminItemRow = Body<BulkUpsert>[number];

export type UpsertMode = NonNullable<NonNullable<BulkUpsert['parameters']['query']>['mode']>;

export interface BulkUpsertOptions extends AdminCallOptions {
  /** Default `all-or-nothing`: one rejected row writes nothing (`ItemsRejectedError`). */
  mode?: UpsertMode;
  /** Compute every outcome, write nothing. */
  dryRun?: boolean;
}

export type BulkUpsertResult = Data<BulkUpsert, 200>;
export type BulkUpsertRow = BulkUpsertResult['rows'][number];
export type BulkDeleteResult = Data<BulkDelete, 200>;

/**
 * An all-or-nothing bulk upsert with rejected rows (`ITEMS_REJECTED`, 422): nothing was
 * written. `result.rows` gives every row's outcome, with the reason of each rejected one.
 */
export class ItemsRejectedError extends InvalidRequestError {
  override readonly name: string = 'ItemsRejectedError';
  readonly result: BulkUpsertResult;

  constructor(init: StockroomErrorInit & { result: BulkUpsertResult }) {
    super(init);
    this.result = init.result;
  }
}

const DEFAULT_TIMEOUT_MS = 60_000;
const HEADER_SAFE = /^[\x21-\x7e]+$/;

function normalizeBaseUrl(raw: unknown): string {
  let url: URL;
  try {
    url = new URL(String(raw));
  } catch {
    throw new TypeError(
      `Stockroom admin: baseUrl must be the admin host's absolute http(s) URL (e.g. http://127.0.0.1:3002), got "${String(raw)}".`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`Stockroom admin: baseUrl must be an http(s) URL, got "${String(raw)}".`);
  }
  if (url.search || url.hash) {
    throw new TypeError('Stockroom admin: baseUrl must not carry a query string or a fragment.');
  }
  return url
    .toString()
    .replace(/\/+$/, '')
    .replace(/\/admin\/v1$/, '');
}

const segment = (value: string) => encodeURIComponent(value);

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** The admin API. Create one with `createAdminClient`. */
export class StockroomAdmin {
  readonly baseUrl: string;
  readonly timeoutMs: number;
  readonly organizations: {
    list(options?: AdminCallOptions): Promise<AdminOrganization[]>;
    create(input: CreateOrganizationInput, options?: AdminCallOptions): Promise<AdminOrganization>;
    /** By id or slug, with counts and members. */
    get(org: string, options?: AdminCallOptions): Promise<AdminOrganizationDetail>;
    update(
      org: string,
      input: UpdateOrganizationInput,
      options?: AdminCallOptions,
    ): Promise<AdminOrganization>;
    /** Deletes it with its items, keys and memberships; `dryRun` only counts them. */
    delete(
      org: string,
      options?: AdminCallOptions & { dryRun?: boolean },
    ): Promise<AdminOrganizationDeletion>;
  };
  readonly keys: {
    list(org: string, options?: AdminCallOptions): Promise<AdminKey[]>;
    create(
      org: string,
      input?: CreateKeyInput,
      options?: AdminCallOptions,
    ): Promise<AdminKeyWithSecret>;
    get(org: string, keyId: string, options?: AdminCallOptions): Promise<AdminKey>;
    /** Replaces what the key may see (`{ view: null }`: everything); its next requests see it. */
    update(
      org: string,
      keyId: string,
      input: UpdateKeyInput,
      options?: AdminCallOptions,
    ): Promise<AdminKey>;
    disable(org: string, keyId: string, options?: AdminCallOptions): Promise<AdminKey>;
    enable(org: string, keyId: string, options?: AdminCallOptions): Promise<AdminKey>;
    revoke(org: string, keyId: string, options?: AdminCallOptions): Promise<AdminKey>;
    /** A new secret; with `grace` (a DURATION up to `90d`) the old one keeps working until then. */
    rotate(
      org: string,
      keyId: string,
      input?: RotateKeyInput,
      options?: AdminCallOptions,
    ): Promise<AdminKeyWithSecret>;
  };
  readonly items: {
    /** Up to 1000 rows, upserted by sku. Rejects with `ItemsRejectedError` in all-or-nothing mode. */
    bulkUpsert(
      org: string,
      rows: readonly AdminItemRow[],
      options?: BulkUpsertOptions,
    ): Promise<BulkUpsertResult>;
    /** Up to 1000 items by `_id` and by sku; each deletion leaves a sync tombstone. */
    bulkDelete(
      org: string,
      refs: { ids?: readonly string[]; skus?: readonly string[] },
      options?: AdminCallOptions,
    ): Promise<BulkDeleteResult>;
  };
  readonly #token: string;
  readonly #fetch: FetchLike | undefined;

  constructor(options: AdminClientOptions) {
    if (isBrowser()) {
      throw new Error(
        'Stockroom admin: refusing to run in a browser: the admin token can change every organization, and anyone who loads the page could read it. Call the admin API from your server.',
      );
    }
    const token = typeof options?.token === 'string' ? options.token.trim() : undefined;
    if (!token) {
      // Caught here, not by the first call's 401: `token: process.env.ADMIN_TOKEN` with the
      // variable unset is a mistake in the configuration.
      throw new ConfigurationError({
        code: 'MISSING_ADMIN_TOKEN',
        message:
          'Stockroom admin: no token. Pass the server’s ADMIN_TOKEN as the token option, e.g. token: process.env.ADMIN_TOKEN with that variable set.',
      });
    }
    if (!HEADER_SAFE.test(token)) {
      throw new TypeError(
        'Stockroom admin: token contains a character that cannot be sent in an HTTP header (a space, a line break or a non-ASCII character).',
      );
    }
    this.#token = token;
    this.#fetch = options.fetch;
    this.baseUrl = normalizeBaseUrl(options.baseUrl);
    this.timeoutMs = numberOption('timeoutMs', options.timeoutMs, DEFAULT_TIMEOUT_MS, 1);

    const org = (ref: string) => `/admin/v1/organizations/${segment(ref)}`;
    const key = (ref: string, keyId: string) => `${org(ref)}/keys/${segment(keyId)}`;
    this.organizations = {
      list: (o) => this.#data('GET', '/admin/v1/organizations', undefined, o),
      create: (input, o) => this.#data('POST', '/admin/v1/organizations', input, o),
      get: (ref, o) => this.#data('GET', org(ref), undefined, o),
      update: (ref, input, o) => this.#data('PATCH', org(ref), input, o),
      delete: (ref, o) =>
        this.#data('DELETE', `${org(ref)}${o?.dryRun ? '?dryRun=true' : ''}`, undefined, o),
    };
    this.keys = {
      list: (ref, o) => this.#data('GET', `${org(ref)}/keys`, undefined, o),
      create: (ref, input, o) => this.#data('POST', `${org(ref)}/keys`, input ?? {}, o),
      get: (ref, id, o) => this.#data('GET', key(ref, id), undefined, o),
      update: (ref, id, input, o) => this.#data('PATCH', key(ref, id), input, o),
      disable: (ref, id, o) => this.#data('POST', `${key(ref, id)}/disable`, undefined, o),
      enable: (ref, id, o) => this.#data('POST', `${key(ref, id)}/enable`, undefined, o),
      revoke: (ref, id, o) => this.#data('POST', `${key(ref, id)}/revoke`, undefined, o),
      rotate: (ref, id, input, o) => this.#data('POST', `${key(ref, id)}/rotate`, input ?? {}, o),
    };
    this.items = {
      bulkUpsert: (ref, rows, o) => {
        const query = new URLSearchParams();
        if (o?.mode !== undefined) query.set('mode', o.mode);
        if (o?.dryRun !== undefined) query.set('dryRun', String(o.dryRun));
        const search = query.toString() === '' ? '' : `?${query.toString()}`;
        return this.#data('POST', `${org(ref)}/items/bulk-upsert${search}`, rows, o);
      },
      bulkDelete: (ref, refs, o) => this.#data('POST', `${org(ref)}/items/bulk-delete`, refs, o),
    };
  }

  /** The admin API's OpenAPI 3.1 document (served only on the admin port, behind the token). */
  openapi(options?: AdminCallOptions): Promise<Record<string, unknown>> {
    return this.#send('GET', '/admin/v1/openapi.json', undefined, options);
  }

  async #data<T>(
    method: Method,
    path: string,
    body: unknown,
    options?: AdminCallOptions,
  ): Promise<T> {
    const answer = await this.#send<{ data: T }>(method, path, body, options);
    return answer.data;
  }

  async #send<T>(
    method: Method,
    path: string,
    body: unknown,
    options: AdminCallOptions = {},
  ): Promise<T> {
    const timeoutMs = numberOption('timeoutMs', options.timeoutMs, this.timeoutMs, 1);
    const headers: Record<string, string> = {
      accept: 'application/json',
      authorization: `Bearer ${this.#token}`,
    };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const {
      status,
      headers: responseHeaders,
      text,
    } = await exchange({
      fetch: this.#fetch,
      url: this.baseUrl + path,
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      timeoutMs,
      signal: options.signal,
      secret: this.#token,
      timeoutNote: 'the change may or may not have been made',
      connectionHint: 'Is the server started with ADMIN_TOKEN, and is this its admin port?',
    });
    let parsed: unknown;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (status >= 200 && status < 300) {
      if (typeof parsed === 'object' && parsed !== null) return parsed as T;
      throw new StockroomError({
        code: 'INVALID_RESPONSE',
        status,
        headers: responseHeaders,
        requestId: responseHeaders.get('x-request-id'),
        message: `The admin API answered HTTP ${status} with a body that is not a JSON object; is baseUrl (${this.baseUrl}) a Stockroom admin host?`,
      });
    }
    const safeBody = redactJson(parsed, this.#token);
    const error = errorFromResponse({
      status,
      headers: responseHeaders,
      body: safeBody,
      retryAfter: parseRetryAfter(responseHeaders.get('retry-after')),
      hint:
        typeof parsed === 'object' && parsed !== null
          ? null
          : wrongHostHint({ status, headers: responseHeaders, text }, this.baseUrl, 'admin'),
    });
    const result = (safeBody as { result?: BulkUpsertResult } | undefined)?.result;
    if (error.code === 'ITEMS_REJECTED' && typeof result === 'object' && result !== null) {
      throw new ItemsRejectedError({
        code: error.code,
        message: error.message,
        status: error.status,
        requestId: error.requestId,
        docUrl: error.docUrl,
        param: error.param,
        headers: error.headers,
        result,
      });
    }
    throw error;
  }

  /** A summary safe to log: never the token. */
  toJSON(): Record<string, unknown> {
    return { baseUrl: this.baseUrl, token: '[redacted]', timeoutMs: this.timeoutMs };
  }

  toString(): string {
    return `StockroomAdmin(${this.baseUrl})`;
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `StockroomAdmin ${JSON.stringify(this.toJSON())}`;
  }
}

/** A client for the admin API of a server started with ADMIN_TOKEN. */
export function createAdminClient(options: AdminClientOptions): StockroomAdmin {
  return new StockroomAdmin(options);
}
