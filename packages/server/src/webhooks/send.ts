import http from 'node:http';
import https from 'node:https';
import ipaddr from 'ipaddr.js';
import {
  type DestinationPolicy,
  guardedLookup,
  hostOf,
  parseWebhookUrl,
  refusedAddress,
} from './destination.js';

export interface SendResult {
  /** A 2xx answer arrived in time. */
  ok: boolean;
  /** The answer's HTTP status; null when none arrived. */
  status: number | null;
  /** What went wrong, for the delivery's record; null on success. */
  error: string | null;
}

/** Bytes of an answer read (and dropped) before the connection is closed. */
const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * POSTs one delivery. Never follows a redirect (a 3xx is a failure that names the Location:
 * following it would let a public URL bounce the request inward). The destination policy is
 * applied to the address actually connected to. Resolves, never rejects.
 */
export function sendWebhook(
  rawUrl: string,
  headers: Record<string, string>,
  body: string,
  options: { policy: DestinationPolicy; timeoutMs: number },
): Promise<SendResult> {
  let url: URL;
  try {
    url = parseWebhookUrl(rawUrl);
  } catch (error) {
    return Promise.resolve({ ok: false, status: null, error: (error as Error).message });
  }
  const host = hostOf(url);
  if (ipaddr.isValid(host)) {
    const refused = refusedAddress(host, options.policy);
    if (refused) return Promise.resolve({ ok: false, status: null, error: refused });
  }
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const request = (url.protocol === 'https:' ? https : http).request(url, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      lookup: guardedLookup(options.policy),
      // A connection per delivery: nothing is kept open to receivers between deliveries.
      agent: false,
    });
    const timer = setTimeout(() => {
      request.destroy(new Error(`no answer within ${options.timeoutMs / 1000} s`));
    }, options.timeoutMs);
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      let read = 0;
      const done = () => {
        if (status >= 200 && status < 300) finish({ ok: true, status, error: null });
        else if (status >= 300 && status < 400) {
          const location = response.headers.location;
          finish({
            ok: false,
            status,
            error: `redirects are not followed${location ? ` (Location: ${location.slice(0, 200)})` : ''}; give the webhook its final URL`,
          });
        } else finish({ ok: false, status, error: `the endpoint answered HTTP ${status}` });
      };
      response.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > MAX_ANSWER_BYTES) {
          response.destroy();
          done();
        }
      });
      response.on('end', done);
      response.on('error', done);
    });
    request.on('error', (error) => {
      finish({ ok: false, status: null, error: error.message });
    });
    request.end(body);
  });
}
