import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';

/**
 * A `fetch` that hands each request to a Fastify app through `inject`, without a socket: the
 * tests of a host and of the client library talk to the app as they would over HTTP, with the
 * headers Node's fetch adds (so content negotiation and compression behave as over the network)
 * and the body decompressed as fetch does. Relative URLs are taken against `base`.
 */
export type FetchFunction = (
  input: string | URL | Request,
  init?: RequestInit,
) => Promise<Response>;

export function injectFetch(
  app: FastifyInstance | (() => Promise<FastifyInstance>),
  base = 'http://127.0.0.1',
): FetchFunction {
  return async (input, init) => {
    const request = new Request(
      typeof input === 'string' && input.startsWith('/') ? base + input : input,
      init,
    );
    request.signal.throwIfAborted();
    const url = new URL(request.url);
    const headers: Record<string, string> = {
      host: url.host,
      accept: '*/*',
      'accept-language': '*',
      'sec-fetch-mode': 'cors',
      'user-agent': 'node',
      'accept-encoding': 'gzip, deflate',
    };
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const body = request.body === null ? undefined : Buffer.from(await request.arrayBuffer());
    const host = typeof app === 'function' ? await app() : app;
    const answer = host.inject({
      method: request.method as 'GET',
      url: url.pathname + url.search,
      headers,
      ...(body === undefined ? {} : { payload: body }),
    });
    const response = await new Promise<Awaited<typeof answer>>((resolve, reject) => {
      const abort = () => reject(request.signal.reason);
      request.signal.addEventListener('abort', abort, { once: true });
      answer.then(resolve, reject).finally(() => {
        request.signal.removeEventListener('abort', abort);
      });
    });
    const responseHeaders = new Headers();
    for (const [name, value] of Object.entries(response.headers)) {
      if (value === undefined) continue;
      for (const one of Array.isArray(value) ? value : [value]) {
        responseHeaders.append(name, String(one));
      }
    }
    const nullBody = [101, 103, 204, 205, 304].includes(response.statusCode);
    const payload = decode(response.rawPayload, responseHeaders.get('content-encoding'));
    return new Response(nullBody || request.method === 'HEAD' ? null : new Uint8Array(payload), {
      status: response.statusCode,
      statusText: response.statusMessage,
      headers: responseHeaders,
    });
  };
}

/** The body as fetch hands it over: decompressed, the encoding header kept. */
function decode(raw: Buffer, encoding: string | null): Buffer {
  if (raw.length === 0) return raw;
  switch (encoding?.trim().toLowerCase()) {
    case 'br':
      return brotliDecompressSync(raw);
    case 'gzip':
    case 'x-gzip':
      return gunzipSync(raw);
    case 'deflate':
      return inflateSync(raw);
    default:
      return raw;
  }
}

/**
 * One fetch for several hosts, each named by its origin (`http://api.stockroom.test`): a URL of
 * another origin fails as a refused connection would, with fetch's TypeError.
 */
export function injectFetchByOrigin(
  hosts: Record<string, () => Promise<FastifyInstance>>,
): FetchFunction {
  const fetches = new Map(
    Object.entries(hosts).map(([origin, host]) => [origin, injectFetch(host, origin)]),
  );
  return (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const hostFetch = fetches.get(url.origin);
    if (!hostFetch) return Promise.reject(new TypeError('fetch failed', { cause: url.origin }));
    return hostFetch(input, init);
  };
}
