import { ApiPromise } from './api-promise.js';
import { env, isBrowser } from './environment.js';
import { ConfigurationError, type RateLimitError } from './errors.js';
import { callLimits, numberOption } from './options.js';
import { InventoryResource } from './resources/inventory.js';
import { LocationsResource } from './resources/locations.js';
import { OrganizationResource } from './resources/organization.js';
import { DEFAULT_RETRY_POLICY, type RetryEvent } from './retry.js';
import { type FetchLike, Transport } from './transport.js';
import type { HealthReport, KeyVerification, RequestOptions } from './types.js';

export interface StockroomOptions {
  /**
   * An organization (`sr_org_…`) or user (`sr_usr_…`) API key. Defaults to the
   * `STOCKROOM_API_KEY` environment variable where there is one. Without either, the
   * constructor throws a `ConfigurationError` (`MISSING_API_KEY`); pass `null` for a client
   * without a key, whose only use is `health()`.
   */
  apiKey?: string | null;
  /**
   * Base URL of the API host, e.g. `https://stock.example.com` (a trailing `/api/v1` is
   * accepted). Defaults to the `STOCKROOM_BASE_URL` environment variable.
   */
  baseUrl?: string;
  /** Time allowed for each attempt, response body included. Default 30 000. */
  timeoutMs?: number;
  /** Retries after a connection failure, a timeout, a 5xx or a rate limit. Default 2. */
  maxRetries?: number;
  /** First backoff delay; it doubles on each retry. Default 500. */
  retryDelayMs?: number;
  /** Ceiling of the backoff delay. Default 8 000. */
  maxRetryDelayMs?: number;
  /**
   * The longest wait before a retry, in milliseconds. When the server's `Retry-After` (or the
   * backoff delay) is longer, the error (a `RateLimitError`, …) is thrown at once instead of
   * waited out. Default 10 000.
   */
  maxRetryWait?: number;
  /** @deprecated Use `maxRetryWait`, which it stands for when that is not given. */
  maxRetryAfterMs?: number;
  /**
   * Called before each wait for a retry (a connection failure, a timeout, a 5xx, a rate
   * limit) with the attempt, the delay and the failure. Synchronous; throwing from it rejects
   * the call with what it threw, without the retry.
   */
  onRetry?: (event: RetryEvent) => void;
  /** Like `onRetry`, for rate-limited calls only (`RATE_LIMITED`, `Retry-After` included). */
  onRateLimit?: (event: RetryEvent<RateLimitError>) => void;
  /** A `fetch` implementation; default `globalThis.fetch`. */
  fetch?: FetchLike;
  /**
   * Organization keys read the whole organization's data and must stay on servers. In a browser
   * the client refuses one unless this is true (a user key needs no such opt-in).
   */
  dangerouslyAllowBrowser?: boolean;
}

const DEFAULT_TIMEOUT_MS = 30_000;
/** Visible ASCII only: what an HTTP header value can carry unchanged. */
const HEADER_SAFE_KEY = /^[\x21-\x7e]+$/;
const DEFAULT_MAX_RETRIES = 2;

function callback<T>(name: string, value: T | undefined): T | undefined {
  if (value !== undefined && typeof value !== 'function') {
    throw new TypeError(`Stockroom: ${name} must be a function, got ${typeof value}.`);
  }
  return value;
}

function normalizeBaseUrl(raw: string | undefined): string {
  if (raw === undefined) {
    throw new TypeError(
      'Stockroom: no baseUrl. Pass the API host, e.g. new Stockroom({ baseUrl: "https://stock.example.com", apiKey }), or set STOCKROOM_BASE_URL.',
    );
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TypeError(`Stockroom: baseUrl must be an absolute http(s) URL, got "${raw}".`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`Stockroom: baseUrl must be an absolute http(s) URL, got "${raw}".`);
  }
  if (url.search || url.hash) {
    throw new TypeError('Stockroom: baseUrl must not carry a query string or a fragment.');
  }
  return url
    .toString()
    .replace(/\/+$/, '')
    .replace(/\/api\/v1$/, '');
}

/** A key's display prefix (type prefix + 4 characters): what the server itself shows of a key. */
function displayPrefix(key: string): string {
  const match = /^(sr_(?:org|usr)_)(.{4})/.exec(key);
  return match ? `${match[1]}${match[2]}…` : '[redacted]';
}

/**
 * The Stockroom API client.
 *
 * ```ts
 * const stockroom = new Stockroom({ baseUrl: 'https://stock.example.com', apiKey });
 * for await (const item of stockroom.inventory.all({ fields: ['name', 'sku'] })) { … }
 * ```
 */
export class Stockroom {
  readonly baseUrl: string;
  readonly timeoutMs: number;
  readonly maxRetries: number;
  readonly organization: OrganizationResource;
  readonly inventory: InventoryResource;
  /** The organization's locations, where its items' stock is kept. */
  readonly locations: LocationsResource;
  readonly #transport: Transport;
  /** What may be shown of the key: never the key itself. */
  readonly #keyHint: string | null;

  constructor(options: StockroomOptions = {}) {
    this.baseUrl = normalizeBaseUrl(options.baseUrl ?? env('STOCKROOM_BASE_URL'));
    // null: no key on purpose (health() only); undefined: the environment's, if any.
    const rawKey = options.apiKey === null ? null : (options.apiKey ?? env('STOCKROOM_API_KEY'));
    if (rawKey !== null && rawKey !== undefined && typeof rawKey !== 'string') {
      throw new TypeError('Stockroom: apiKey must be a string.');
    }
    // Keys never contain whitespace: a final newline read from a file is not part of the key.
    const apiKey = rawKey?.trim();
    if (rawKey !== null && !apiKey) {
      // Caught here, not by the first call's 401: `apiKey: process.env.X` with X unset, or an
      // empty key file, is a mistake in the configuration.
      throw new ConfigurationError({
        code: 'MISSING_API_KEY',
        message:
          rawKey === undefined
            ? 'Stockroom: no API key. Pass the apiKey option (sr_org_… or sr_usr_…) or set the STOCKROOM_API_KEY environment variable; for a client that only calls health(), pass apiKey: null.'
            : 'Stockroom: apiKey is empty. Pass the key (sr_org_… or sr_usr_…), e.g. apiKey: process.env.STOCKROOM_API_KEY with that variable set; for a client that only calls health(), pass apiKey: null.',
      });
    }
    // Checked here rather than left to fetch, whose "invalid header value" error quotes the
    // whole header (key included) and would otherwise surface as a retried ConnectionError.
    if (apiKey && !HEADER_SAFE_KEY.test(apiKey)) {
      throw new TypeError(
        'Stockroom: apiKey contains a character that cannot be sent in an HTTP header (a space, a line break, or a non-ASCII character such as "…"). Copy the whole key again: it is sr_org_ or sr_usr_ followed by 38 letters and digits.',
      );
    }
    if (apiKey?.startsWith('sr_org_') && isBrowser() && options.dangerouslyAllowBrowser !== true) {
      throw new Error(
        'Stockroom: refusing an organization API key in a browser: anyone who loads the page can read it and every item of the organization. Call the API from your server, or use a user key. If this page is private, pass dangerouslyAllowBrowser: true.',
      );
    }
    const limits = callLimits(options, {
      timeoutMs: DEFAULT_TIMEOUT_MS,
      maxRetries: DEFAULT_MAX_RETRIES,
    });
    this.timeoutMs = limits.timeoutMs;
    this.maxRetries = limits.maxRetries;
    this.#keyHint = apiKey ? displayPrefix(apiKey) : null;
    this.#transport = new Transport({
      baseUrl: this.baseUrl,
      apiKey: apiKey || undefined,
      timeoutMs: this.timeoutMs,
      maxRetries: this.maxRetries,
      retry: {
        initialDelayMs: numberOption(
          'retryDelayMs',
          options.retryDelayMs,
          DEFAULT_RETRY_POLICY.initialDelayMs,
          0,
        ),
        maxDelayMs: numberOption(
          'maxRetryDelayMs',
          options.maxRetryDelayMs,
          DEFAULT_RETRY_POLICY.maxDelayMs,
          0,
        ),
        maxRetryWait:
          options.maxRetryWait === undefined && options.maxRetryAfterMs !== undefined
            ? numberOption('maxRetryAfterMs', options.maxRetryAfterMs, 0, 0)
            : numberOption(
                'maxRetryWait',
                options.maxRetryWait,
                DEFAULT_RETRY_POLICY.maxRetryWait,
                0,
              ),
      },
      fetch: options.fetch,
      onRetry: callback('onRetry', options.onRetry),
      onRateLimit: callback('onRateLimit', options.onRateLimit),
    });
    this.organization = new OrganizationResource(this.#transport);
    this.inventory = new InventoryResource(this.#transport);
    this.locations = new LocationsResource(this.#transport);
  }

  /**
   * The service's health. Resolves with the report for `ok`, `degraded` and `unavailable`
   * (the API answers the last with 503) and rejects only when no report could be had.
   * Needs no key.
   *
   * A report is an answer, 503 included, so it is never retried. What is not a report (a
   * connection failure, a timeout, a proxy's 502, an INTERNAL_ERROR) is retried like any other
   * call, up to `maxRetries`: a probe that wants a single attempt passes `{ maxRetries: 0 }`.
   */
  health(options?: RequestOptions): ApiPromise<HealthReport> {
    return new ApiPromise(
      this.#transport.send<HealthReport>(
        { path: '/api/v1/health', resultStatuses: [503] },
        options,
      ),
    );
  }

  /** Describes the key in use (type, permissions, quota left, rate limit). Spends no quota. */
  verifyKey(options?: RequestOptions): ApiPromise<KeyVerification> {
    return new ApiPromise(
      this.#transport.send<KeyVerification>({ path: '/api/v1/auth/verify' }, options),
    );
  }

  /** A summary safe to log: the key is shown only by its display prefix. */
  toJSON(): Record<string, unknown> {
    return {
      baseUrl: this.baseUrl,
      apiKey: this.#keyHint,
      timeoutMs: this.timeoutMs,
      maxRetries: this.maxRetries,
    };
  }

  toString(): string {
    return `Stockroom(${this.baseUrl})`;
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `Stockroom ${JSON.stringify(this.toJSON())}`;
  }
}
