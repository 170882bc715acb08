import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** What an incoming `x-request-id` may be to be kept: short, and safe in a log line. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Fastify's `genReqId` for the API and admin hosts: the caller's `x-request-id` when it is a
 * well-formed one (so one id follows a request through a proxy), else a new UUID.
 */
export function requestIdOf(request: IncomingMessage): string {
  const incoming = request.headers['x-request-id'];
  return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
}
