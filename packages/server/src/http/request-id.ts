import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { looksLikeKey } from '../keys/format.js';

/** What an incoming `x-request-id` may be to be kept: short, and safe in a log line. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Fastify's `genReqId` for every host: the caller's `x-request-id` when it is a well-formed
 * one (1 to 128 of A-Z a-z 0-9 . _ : -, so one id follows a request through a proxy) and holds
 * no secret, else a new UUID. A secret is anything shaped like an API key, or one of `secrets`
 * (the admin token): pasted into the wrong header, it must not reach the logs or come back.
 * Only an id holding a whole secret is replaced, so the choice tells nothing about a part of one.
 */
export function requestIdReader(
  secrets: readonly string[] = [],
): (request: IncomingMessage) => string {
  const held = secrets.filter((secret) => secret !== '');
  return (request) => {
    const incoming = request.headers['x-request-id'];
    return typeof incoming === 'string' &&
      REQUEST_ID.test(incoming) &&
      !looksLikeKey(incoming) &&
      !held.some((secret) => incoming.includes(secret))
      ? incoming
      : randomUUID();
  };
}
