import type { WithResponse } from './api-promise.js';
import { errorFromResponse, RateLimitError, StockroomError } from './errors.js';
import { type Exchange, exchange, type FetchLike, MAX_TIMER_MS } from './exchange.js';
import { callLimits } from './options.js';
import { NOT_MODIFIED, responseInfo } from './response.js';
import {
  parseRetryAfter,
  type RetryEvent,
  type RetryPolicy,
  retryDelay,
  retryEvent,
} from './retry.js';
import { redactJson } from './secrets.js';
import type { RequestOptions } from './types.js';
import { wrongHostHint } from './wrong-host.js';

export type Query = Record<string, string | number | boolean | readonly string[] | undefined>;

export type { FetchLike };

export interface TransportConfig {
  baseUrl: string;
  apiKey: string | undefined;
  timeoutMs: number;
  maxRetries: number;
  retry: RetryPolicy;
  fetch: FetchLike | undefined;
  /** Called before each wait for a retry. */
  onRetry?: ((event: RetryEvent) => void) | undefined;
  /** Called before each wait for a retry after `RATE_LIMITED` (after `onRetry`). */
  onRateLimit?: ((event: RetryEvent<RateLimitError>) => void) | undefined;
}

export interface Call {
  path: string;
  query?: Query;
  /** Statuses whose body is the result rather than an error (health answers 503 with a report). */
  resultStatuses?: readonly number[];
  /** Sent as `If-None-Match`; a 304 answer then resolves to `NOT_MODIFIED`. */
  ifNoneMatch?: string;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(
      () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      },
      Math.min(ms, MAX_TIMER_MS),
    );
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Sends GET requests with the key, a per-attempt timeout and retries; parses the answers. */
export class Transport {
  readonly #config: TransportConfig;

  constructor(config: TransportConfig) {
    this.#config = config;
  }

  #url(call: Call): string {
    const url = new URL(this.#config.baseUrl + call.path);
    for (const [name, value] of Object.entries(call.query ?? {})) {
      if (value === undefined) continue;
      url.searchParams.set(name, Array.isArray(value) ? value.join(',') : String(value));
    }
    return url.toString();
  }

  async send<T>(call: Call, options: RequestOptions = {}): Promise<WithResponse<T>> {
    // Checked before anything is sent: the call rejects with the RangeError.
    const { timeoutMs, maxRetries } = callLimits(options, this.#config);
    const url = this.#url(call);
    for (let attempt = 0; ; attempt++) {
      let error: StockroomError;
      try {
        const answer = await this.#attempt(url, call, timeoutMs, options.signal);
        const outcome = this.#read<T>(call, answer, attempt + 1);
        if (!(outcome instanceof StockroomError)) return outcome;
        error = outcome;
      } catch (caught) {
        // A caller's abort ends everything at once, with the caller's own reason.
        if (options.signal?.aborted) throw options.signal.reason;
        if (!(caught instanceof StockroomError)) throw caught;
        error = caught;
      }
      const delay = attempt < maxRetries ? retryDelay(error, attempt, this.#config.retry) : null;
      if (delay === null) throw error;
      const event = retryEvent(error, {
        attempt: attempt + 1,
        maxRetries,
        delayMs: delay,
        path: call.path,
      });
      this.#config.onRetry?.(event);
      if (error instanceof RateLimitError) {
        this.#config.onRateLimit?.(event as RetryEvent<RateLimitError>);
      }
      await sleep(delay, options.signal);
    }
  }

  #attempt(
    url: string,
    call: Call,
    timeoutMs: number,
    signal: AbortSignal | undefined,
  ): Promise<Exchange> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.#config.apiKey) headers.authorization = `Bearer ${this.#config.apiKey}`;
    if (call.ifNoneMatch !== undefined) headers['if-none-match'] = call.ifNoneMatch;
    return exchange({
      fetch: this.#config.fetch,
      url,
      method: 'GET',
      headers,
      timeoutMs,
      signal,
      secret: this.#config.apiKey,
    });
  }

  /** The result, or the error the answer stands for (returned, so the caller decides on retries). */
  #read<T>(call: Call, answer: Exchange, attempts: number): WithResponse<T> | StockroomError {
    const { status, headers } = answer;
    // Only an answer to If-None-Match: a 304 nobody asked for is not a result.
    if (status === 304 && call.ifNoneMatch !== undefined) {
      return { data: NOT_MODIFIED as T, response: responseInfo(status, headers, attempts) };
    }
    let body: unknown;
    try {
      body = answer.text === '' ? undefined : JSON.parse(answer.text);
    } catch {
      body = undefined;
    }
    const ok = status >= 200 && status < 300;
    const object = typeof body === 'object' && body !== null ? body : null;
    // A non-2xx result status counts only with a result body, not an error envelope or a proxy page.
    const isResult =
      ok || (call.resultStatuses?.includes(status) && object && !('error' in object));
    if (isResult && object) {
      return { data: body as T, response: responseInfo(status, headers, attempts) };
    }
    if (ok) {
      return new StockroomError({
        code: 'INVALID_RESPONSE',
        status,
        headers,
        requestId: headers.get('x-request-id'),
        message: `The API answered HTTP ${status} with a body that is not a JSON object; is baseUrl (${this.#config.baseUrl}) a Stockroom API?`,
      });
    }
    return errorFromResponse({
      status,
      headers,
      // Errors get logged: should the server or a proxy ever quote the key in one, it goes.
      // Results are the caller's data and stay as the server sent them.
      body: redactJson(body, this.#config.apiKey),
      retryAfter: parseRetryAfter(headers.get('retry-after')),
      hint: object ? null : wrongHostHint(answer, this.#config.baseUrl, 'api'),
    });
  }
}
