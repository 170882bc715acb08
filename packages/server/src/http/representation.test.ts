import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { HashedBody, strongEtag } from './representation.js';

describe('HashedBody', () => {
  // Whole characters: a page's pieces are whole items, never half a surrogate pair.
  test('keeps its pieces in order, with their length and the strong ETag of the whole', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme' }), { maxLength: 20 }), (pieces) => {
        const body = new HashedBody();
        for (const piece of pieces) body.add(piece);
        const whole = Buffer.from(pieces.join(''));
        const { body: made, etag } = body.finish();
        expect(Buffer.concat(made.pieces)).toEqual(whole);
        expect(made.pieces).toHaveLength(pieces.length);
        expect(made.length).toBe(whole.length);
        expect(etag).toBe(strongEtag(whole));
      }),
    );
  });
});
