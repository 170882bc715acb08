/**
 * Unicode simple case folding for search: both the stored search text and the needle go
 * through this, so matching is a plain substring test on every engine, with `%`, `_` and `\`
 * literal and accents significant. JavaScript has no simple-fold primitive; upper-then-lower
 * per code point approximates it (ς→σ, ſ→s, K→k) and we keep a character whose mapping would
 * change its length (ß, İ), which is what simple (not full) folding does.
 */
const cache = new Map<string, string>();

/**
 * The search rule both engines follow, so they return the same pages:
 * - a needle of 1–2 characters (code points), which no trigram index can serve: at most
 *   `scanBudget` rows of the organization after the cursor (with the status filter) are
 *   examined in `_id` order; when the budget runs out before the page is full, the page is
 *   short and resumes after the last row examined (ItemQuery.onPartialPage);
 * - a needle of 3+ characters: always a full page, the first `limit` matches after the cursor.
 */
export const DEFAULT_SCAN_BUDGET = 10_000;

/** Whether a (folded) needle is too short for a trigram index: 1–2 code points. */
export function isShortNeedle(needle: string): boolean {
  let chars = 0;
  for (const _ of needle) if (++chars >= 3) return false;
  return true;
}

function foldCodePoint(ch: string): string {
  const cached = cache.get(ch);
  if (cached !== undefined) return cached;
  let folded = ch;
  const viaUpper = ch.toUpperCase().toLowerCase();
  if ([...viaUpper].length === 1) folded = viaUpper;
  else {
    const lower = ch.toLowerCase();
    if ([...lower].length === 1) folded = lower;
  }
  cache.set(ch, folded);
  return folded;
}

export function foldCase(text: string): string {
  // Fast path: ASCII needs no table.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the range is the point
  if (/^[\x00-\x7f]*$/.test(text)) return text.toLowerCase();
  let out = '';
  for (const ch of text) out += foldCodePoint(ch);
  return out;
}

/** The text an item is searched by: its four searchable fields, folded, separated so no match spans two. */
export function searchText(fields: {
  name: string;
  description: string | null;
  sku: string | null;
  barcode: string | null;
}): string {
  return foldCase(
    [fields.name, fields.description ?? '', fields.sku ?? '', fields.barcode ?? ''].join('\u0000'),
  );
}
