import { maskKeys } from '../keys/format.js';

/** The most characters of a name (a column, a field, a parameter) an error message echoes. */
export const MAX_SHOWN_NAME = 100;

/** Code points, counted without building an array (a header may be megabytes long). */
function codePoints(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    // The low half of a surrogate pair was counted with its high half.
    if (unit < 0xdc00 || unit > 0xdfff || i === 0) count++;
    else {
      const previous = text.charCodeAt(i - 1);
      if (previous < 0xd800 || previous > 0xdbff) count++;
    }
  }
  return count;
}

function cut(name: string): { shown: string; total: number } | null {
  if (name.length <= MAX_SHOWN_NAME) return null;
  let shown = name.slice(0, MAX_SHOWN_NAME);
  // Never half of a surrogate pair.
  if (/[\uD800-\uDBFF]$/.test(shown)) shown = shown.slice(0, -1);
  return { shown: maskKeys(shown), total: codePoints(name) };
}

/**
 * A name a client or a file supplied, as an error echoes it unquoted (the `param` of an error):
 * anything shaped like an API key cut to its display prefix, and past 100 characters cut there
 * with an ellipsis and the full length, so a 10 MB column name gives a one-line error.
 */
export function shownName(name: string): string {
  const long = cut(name);
  return long ? `${long.shown}… (${long.total} characters)` : maskKeys(name);
}

/** The same, quoted as JSON for a message: `"colour"`, or `"aaaa…" (10485760 characters)`. */
export function quotedName(name: string): string {
  const long = cut(name);
  return long
    ? `${JSON.stringify(`${long.shown}…`)} (${long.total} characters)`
    : JSON.stringify(maskKeys(name));
}
