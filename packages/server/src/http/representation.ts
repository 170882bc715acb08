import { createHash, hash } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import Negotiator from 'negotiator';
import { bodyChunks, type ChunkPool } from './chunk-pool.js';

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

/** The strong validator of exact bytes (one buffer, or pieces in order), in the identity encoding. */
export function strongEtag(body: Buffer | string | readonly Buffer[]): string {
  if (typeof body === 'string' || Buffer.isBuffer(body)) {
    return tagOf(hash('sha256', body, 'base64url'));
  }
  const hasher = createHash('sha256');
  for (const piece of body) hasher.update(piece);
  return tagOf(hasher.digest('base64url'));
}

function tagOf(digest: string): string {
  return `"${digest.slice(0, 32)}"`;
}

/** A body as the pieces it was made of, in order, with their total length in bytes. */
export interface PieceBody {
  pieces: readonly Buffer[];
  length: number;
  /**
   * Gives the pieces' memory back for reuse (chunk-pool.ts): call once nothing will read them
   * again, or never (the collector then frees them). After it the pieces are written over.
   */
  release: () => void;
}

const utf8 = new TextEncoder();

/**
 * A body made piece by piece into pooled 64 KiB chunks, hashed as each chunk fills: the same
 * tag as strongEtag of the whole, without hashing a large body in one go once it is complete
 * (0.8 ms for a 1.36 MB page, all of it in one turn of the event loop), and without a buffer
 * or a joined string made per page. The chunks are kept apart: a large body is written as they
 * are (api/respond.ts) rather than copied into one buffer first, then given back.
 */
export class HashedBody {
  private readonly chunks: Buffer[] = [];
  private readonly pieces: Buffer[] = [];
  private chunk: Buffer | undefined;
  private used = 0;
  private length = 0;
  private readonly hasher = createHash('sha256');

  constructor(private readonly pool: ChunkPool = bodyChunks) {}

  add(text: string): void {
    let rest = text;
    for (;;) {
      if (this.chunk === undefined) {
        this.chunk = this.pool.take();
        this.chunks.push(this.chunk);
        this.used = 0;
      }
      const room = this.chunk.length - this.used;
      // A UTF-16 unit is at most 3 bytes of UTF-8: when that fits, one write does it all.
      if (rest.length * 3 <= room) {
        const written = this.chunk.write(rest, this.used);
        this.used += written;
        this.length += written;
        return;
      }
      const { read, written } = utf8.encodeInto(rest, this.chunk.subarray(this.used));
      this.used += written;
      this.length += written;
      if (read === rest.length) return;
      rest = rest.slice(read);
      this.seal();
    }
  }

  private seal(): void {
    if (this.chunk === undefined) return;
    const piece = this.chunk.subarray(0, this.used);
    this.hasher.update(piece);
    this.pieces.push(piece);
    this.chunk = undefined;
  }

  /** The pieces and the strong ETag of their bytes; call once. */
  finish(): { body: PieceBody; etag: string } {
    this.seal();
    const { chunks, pool } = this;
    let released = false;
    return {
      body: {
        pieces: this.pieces,
        length: this.length,
        release: () => {
          if (released) return;
          released = true;
          pool.give(chunks);
        },
      },
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
