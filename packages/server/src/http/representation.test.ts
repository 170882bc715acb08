import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { CHUNK_BYTES, ChunkPool } from './chunk-pool.js';
import { HashedBody, strongEtag } from './representation.js';

describe('HashedBody', () => {
  // Whole characters: a page's pieces are whole items, never half a surrogate pair. Texts up
  // to twice a chunk, of one- to four-byte characters, so that many cross a chunk's end.
  const text = fc.oneof(
    fc.string({ unit: 'grapheme', maxLength: 40 }),
    fc
      .tuple(fc.constantFrom('a', 'é', '€', '😀'), fc.integer({ min: 1, max: 2 * CHUNK_BYTES }))
      .map(([unit, bytes]) => unit.repeat(Math.ceil(bytes / Buffer.byteLength(unit)))),
  );

  test('holds the bytes of its texts in order, their length and the strong ETag of the whole', () => {
    fc.assert(
      fc.property(fc.array(text, { maxLength: 12 }), (texts) => {
        const body = new HashedBody(new ChunkPool(0));
        for (const piece of texts) body.add(piece);
        const whole = Buffer.from(texts.join(''));
        const { body: made, etag } = body.finish();
        // equals, not toEqual: a deep comparison of MBs byte by byte takes seconds.
        expect(Buffer.concat(made.pieces).equals(whole)).toBe(true);
        expect(made.length).toBe(whole.length);
        expect(etag).toBe(strongEtag(whole));
        expect(strongEtag(made.pieces)).toBe(etag);
        for (const piece of made.pieces) expect(piece.length).toBeLessThanOrEqual(CHUNK_BYTES);
      }),
      { numRuns: 100 },
    );
  });

  test('gives its chunks back once, when released, for the next body to reuse', () => {
    const pool = new ChunkPool(64 * CHUNK_BYTES);
    const first = new HashedBody(pool);
    first.add('x'.repeat(CHUNK_BYTES + 10));
    const made = first.finish().body;
    expect(made.pieces).toHaveLength(2);
    expect(pool.idleBytes).toBe(0);
    made.release();
    made.release();
    expect(pool.idleBytes).toBe(2 * CHUNK_BYTES);

    const second = new HashedBody(pool);
    second.add('y');
    const reused = second.finish().body.pieces[0];
    expect(reused?.buffer).toBe(made.pieces[1]?.buffer);
    expect(reused?.toString()).toBe('y');
  });
});
