import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  chooseEncoding,
  compress,
  etagFor,
  matchesEtag,
  type PieceBody,
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

/**
 * From this size on, a body made of pieces is written piece by piece instead of being joined
 * first. Joining a 1.36 MB page copied it in one turn of the event loop (0.15-0.4 ms) and held
 * a second copy outside the heap until the collector freed both; under many large pages at once
 * that copy was part of the process's memory peak (BENCHMARKS.md). Smaller bodies are joined:
 * one write costs less than a stream.
 */
export const PIECEWISE_FROM_BYTES = 256 * 1024;

/** The body as one buffer of its own: pooled pieces are copied out and given back. */
export function joined(body: Buffer | PieceBody): Buffer {
  if (Buffer.isBuffer(body)) return body;
  const bytes = Buffer.concat(body.pieces as Buffer[], body.length);
  body.release();
  return bytes;
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
  body: Buffer | PieceBody,
  options: RepresentationOptions = {},
): Promise<FastifyReply> {
  const identityTag = options.etag ?? strongEtag(Buffer.isBuffer(body) ? body : body.pieces);
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
  if (unchanged) {
    if (!Buffer.isBuffer(body)) body.release();
    return reply.code(304).send();
  }
  reply.type(JSON_TYPE);
  // HEAD gets the headers GET would (Content-Length and Content-Encoding included).
  if (encoding === 'identity') {
    if (Buffer.isBuffer(body) || body.length < PIECEWISE_FROM_BYTES) {
      return reply.send(joined(body));
    }
    // Content-Length stated, so the pieces go out as one body, not chunked. 'finish' comes
    // once the last byte is with the operating system; a response cut short never gives its
    // pieces back (the socket may still hold them) and leaves them to the collector.
    reply.header('content-length', String(body.length));
    reply.raw.once('finish', body.release);
    return reply.send(Readable.from(body.pieces, { objectMode: false }));
  }
  reply.header('content-encoding', encoding);
  return reply.send(await compress(joined(body), encoding, 'fast'));
}
