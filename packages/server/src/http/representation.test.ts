import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { HashedBody, strongEtag } from './representation.js';

describe('HashedBody', () => {
  // Whole characters: a page's pieces are whole items, never half a surrogate pair.
  test('gives the bytes of its pieces in order, and the strong ETag of the whole', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme' }), { maxLength: 20 }), (pieces) => {
        const body = new HashedBody();
        for (const piece of pieces) body.add(piece);
        const whole = Buffer.from(pieces.join(''));
        expect(body.finish()).toEqual({ body: whole, etag: strongEtag(whole) });
      }),
    );
  });
});
