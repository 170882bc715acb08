import { ConnectionError, TimeoutError } from './errors.js';
import { redact, safeCause } from './secrets.js';

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/** One answer, its body read whole. */
export interface Exchange {
  status: number;
  headers: Headers;
  text: string;
}

export interface ExchangeRequest {
  /** The caller's fetch, or the global one. */
  fetch: FetchLike | undefined;
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
  signal: AbortSignal | undefined;
  /** The credential sent, kept out of every error this raises. */
  secret: string | undefined;
  /** Added to the timeout's message (say, whether a change may have been made). */
  timeoutNote?: string;
  /** Added to the connection error's message (say, which port to check). */
  connectionHint?: string;
}

/** setTimeout fires at once for delays past 2^31 − 1 ms; longer waits are capped there. */
export const MAX_TIMER_MS = 2_147_483_647;

function describeCause(cause: Error & { code?: string }): string {
  // Node's fetch says only "fetch failed"; the useful part (ECONNREFUSED, …) is its cause.
  const inner = cause.cause as { code?: string } | undefined;
  const code = inner?.code ?? cause.code;
  return code ? `${cause.message} (${code})` : cause.message;
}

/**
 * One request and its whole body under a deadline, for the API client and the admin client
 * alike: a caller's abort rejects with the caller's own reason, the deadline with a
 * TimeoutError, anything else with a ConnectionError; none of them quotes the credential.
 */
export async function exchange(request: ExchangeRequest): Promise<Exchange> {
  const fetchImpl = request.fetch ?? globalThis.fetch;
  if (typeof fetchImpl !== 'function') {
    throw new TypeError('No fetch implementation: pass one as the `fetch` option.');
  }
  const { signal, url, method } = request;
  if (signal?.aborted) throw signal.reason;
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  let timedOut = false;
  const timer = setTimeout(
    () => {
      timedOut = true;
      controller.abort();
    },
    Math.min(request.timeoutMs, MAX_TIMER_MS),
  );
  try {
    // Called as a plain function: browsers reject `fetch` invoked with another `this`.
    const response = await fetchImpl(url, {
      method,
      headers: request.headers,
      ...(request.body === undefined ? {} : { body: request.body }),
      signal: controller.signal,
    });
    // The body is read under the same deadline: a server may stall after the headers.
    const text = await response.text();
    return { status: response.status, headers: response.headers, text };
  } catch (cause) {
    if (signal?.aborted) throw signal.reason;
    const target = new URL(url);
    const call = `${method} ${target.pathname}`;
    if (timedOut) {
      const note = request.timeoutNote ? `; ${request.timeoutNote}` : '';
      throw new TimeoutError({
        code: 'TIMEOUT',
        message: `No answer from ${target.origin} within ${request.timeoutMs} ms (${call})${note}.`,
      });
    }
    // Never the raw error: a custom fetch's error may quote the request's headers.
    const safe = safeCause(cause, request.secret);
    const hint = request.connectionHint ? `. ${request.connectionHint}` : '';
    throw new ConnectionError({
      code: 'CONNECTION_ERROR',
      message: redact(
        `Could not reach ${target.origin} (${call}): ${describeCause(safe)}${hint}`,
        request.secret,
      ),
      cause: safe,
    });
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}
