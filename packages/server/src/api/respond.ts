import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  chooseEncoding,
  compress,
  etagFor,
  matchesEtag,
  strongEtag,
  varyOnEncoding,
} from '../http/representation.js';
import { JSON_TYPE } from './schemas.js';

export interface RepresentationOptions {
  /** Epoch ms of the last change, for Last-Modified and If-Modified-Since (item detail). */
  lastModified?: number;
  /** The body's strong ETag when it is known already (HashedBody); computed otherwise. */
  etag?: string;
}

/** HTTP dates have whole seconds: a change within the second of the header is not newer. */
function notModifiedSince(header: string | undefined, lastModified: number): boolean {
  if (!header) return false;
  const since = Date.parse(header);
  return Number.isFinite(since) && Math.floor(lastModified / 1000) * 1000 <= since;
}

/**
 * Sends a JSON body built by a route as one representation: a strong ETag per encoding, 304
 * when the client already holds it (checked before anything is compressed; the request was
 * charged like any other), and brotli or gzip when the client accepts them and the body is
 * large enough to gain.
 */
export async function sendJson(
  request: FastifyRequest,
  reply: FastifyReply,
  body: Buffer,
  options: RepresentationOptions = {},
): Promise<FastifyReply> {
  const identityTag = options.etag ?? strongEtag(body);
  const encoding = chooseEncoding(request.headers['accept-encoding'], body.length);
  reply.header('etag', etagFor(identityTag, encoding));
  reply.header('vary', varyOnEncoding(reply.getHeader('vary')));
  if (options.lastModified !== undefined) {
    reply.header('last-modified', new Date(options.lastModified).toUTCString());
  }
  const ifNoneMatch = request.headers['if-none-match'];
  // If-Modified-Since counts only without If-None-Match (RFC 9110 13.1.3).
  const unchanged =
    ifNoneMatch !== undefined
      ? matchesEtag(ifNoneMatch, identityTag)
      : options.lastModified !== undefined &&
        notModifiedSince(request.headers['if-modified-since'], options.lastModified);
  if (unchanged) return reply.code(304).send();
  reply.type(JSON_TYPE);
  // HEAD gets the headers GET would (Content-Length and Content-Encoding included).
  if (encoding === 'identity') return reply.send(body);
  reply.header('content-encoding', encoding);
  return reply.send(await compress(body, encoding, 'fast'));
}
