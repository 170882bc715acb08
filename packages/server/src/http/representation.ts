import { createHash, hash } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import Negotiator from 'negotiator';

/**
 * Conditional requests and compression, shared by the API and the docs host.
 *
 * Written here rather than taken from @fastify/compress because the two must agree: a strong
 * ETag names exact bytes, so each encoding of a body has its own tag (`"h"`, `"h-br"`,
 * `"h-gzip"`, RFC 9110 8.8.3), and `If-None-Match` is judged against the body before it is
 * encoded (so a 304 costs no compression). The plugin compresses in a later hook and leaves the
 * tag alone. Compression runs on libuv's thread pool (zlib's async API), never on the event loop.
 */

/** Bodies smaller than this are sent as they are: compressing them saves less than it costs. */
export const COMPRESSION_THRESHOLD = 1024;

export type ContentEncoding = 'br' | 'gzip' | 'identity';

/** Preferred first when the client accepts both equally. */
const ENCODINGS: ContentEncoding[] = ['br', 'gzip', 'identity'];
const SUFFIX = /-(br|gzip)"$/;

/** The strong validator of exact bytes, in the identity encoding. */
export function strongEtag(body: Buffer | string): string {
  return tagOf(hash('sha256', body, 'base64url'));
}

function tagOf(digest: string): string {
  return `"${digest.slice(0, 32)}"`;
}

/** A body as the pieces it was made of, in order, with their total length in bytes. */
export interface PieceBody {
  pieces: readonly Buffer[];
  length: number;
}

/**
 * A body made piece by piece, hashed as each piece is added: the same tag as strongEtag of the
 * whole, without hashing a large body in one go once it is complete (0.8 ms for a 1.36 MB page,
 * all of it in one turn of the event loop). The pieces are kept apart: a large body is written
 * as they are (api/respond.ts) rather than copied into one buffer first.
 */
export class HashedBody {
  private readonly pieces: Buffer[] = [];
  private length = 0;
  private readonly hasher = createHash('sha256');

  add(text: string): void {
    const bytes = Buffer.from(text);
    this.pieces.push(bytes);
    this.length += bytes.length;
    this.hasher.update(bytes);
  }

  /** The pieces and the strong ETag of their bytes; call once. */
  finish(): { body: PieceBody; etag: string } {
    return {
      body: { pieces: this.pieces, length: this.length },
      etag: tagOf(this.hasher.digest('base64url')),
    };
  }
}

/** The tag of `body` sent in `encoding`, from the identity tag. */
export function etagFor(identityTag: string, encoding: ContentEncoding): string {
  return encoding === 'identity' ? identityTag : `${identityTag.slice(0, -1)}-${encoding}"`;
}

/**
 * If-None-Match, with the weak comparison RFC 9110 13.1.2 asks for (`W/"x"` matches `"x"`).
 * A tag of another encoding of the same body matches too: the client holds the same content.
 */
export function matchesEtag(header: string | undefined, identityTag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((raw) => {
    const tag = raw.trim().replace(/^W\//, '');
    return tag === identityTag || tag.replace(SUFFIX, '"') === identityTag;
  });
}

/** The encoding to send a body of `size` bytes in, as Accept-Encoding allows. */
export function chooseEncoding(acceptEncoding: string | undefined, size: number): ContentEncoding {
  if (size < COMPRESSION_THRESHOLD || !acceptEncoding) return 'identity';
  // The `preferred` option (negotiator ≥ 1, missing from its type declarations) breaks ties of
  // equal q-values in our order rather than the client's.
  const negotiator = new Negotiator({ headers: { 'accept-encoding': acceptEncoding } });
  const encodings = negotiator.encodings as (
    available: readonly string[],
    options: { preferred: readonly string[] },
  ) => string[];
  const chosen = encodings.call(negotiator, ENCODINGS, { preferred: ENCODINGS })[0];
  return (chosen as ContentEncoding | undefined) ?? 'identity';
}

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * `fast` for bodies made per request (brotli 4 and gzip 6: most of the saving for a small
 * share of the time), `small` for bodies made once and served many times (the docs).
 */
export function compress(
  body: Buffer,
  encoding: Exclude<ContentEncoding, 'identity'>,
  effort: 'fast' | 'small',
): Promise<Buffer> {
  if (encoding === 'gzip') return gzip(body, { level: effort === 'fast' ? 6 : 9 });
  return brotli(body, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: effort === 'fast' ? 4 : 11,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
    },
  });
}

/** Adds Accept-Encoding to a Vary header that may already name other request headers. */
export function varyOnEncoding(current: unknown): string {
  const value = typeof current === 'string' ? current : '';
  if (/(^|,)\s*accept-encoding\s*(,|$)/i.test(value)) return value;
  return value === '' ? 'Accept-Encoding' : `${value}, Accept-Encoding`;
}
