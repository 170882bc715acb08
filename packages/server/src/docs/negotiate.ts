import Negotiator from 'negotiator';

export type Representation = 'markdown' | 'html';

// What we actually send, parameters included, so a range such as
// `text/markdown; charset=utf-8` matches too.
const HTML = 'text/html; charset=utf-8';
const MARKDOWN = 'text/markdown; charset=utf-8';

/** Splits an Accept header into its ranges, leaving commas inside quoted parameters alone. */
function ranges(accept: string): string[] {
  const out: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < accept.length; i++) {
    const char = accept[i];
    if (char === '"') quoted = !quoted;
    if (char === '\\' && quoted) {
      current += char + (accept[i + 1] ?? '');
      i++;
      continue;
    }
    if (char === ',' && !quoted) {
      out.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  out.push(current);
  return out.map((range) => range.trim()).filter(Boolean);
}

function preferred(accept: string): string | undefined {
  return new Negotiator({ headers: { accept } }).mediaType([HTML, MARKDOWN]);
}

/**
 * Markdown only when the client prefers it; HTML otherwise, never 406 (DECISIONS.md).
 *
 * negotiator ranks by q-value, then by specificity (`text/markdown` beats `*\/*`), then by the
 * order of the header, which RFC 9110 gives no meaning. So we ask twice, once with the ranges
 * reversed: markdown must win both ways. A tie that only header order decides
 * (`text/markdown, text/html`) therefore goes to HTML, as do `*\/*`, `text/*`, other types,
 * a missing header and one that accepts neither.
 */
export function negotiate(accept: string | undefined): Representation {
  if (accept === undefined || accept.trim() === '') return 'html';
  if (preferred(accept) !== MARKDOWN) return 'html';
  const reversed = ranges(accept).reverse().join(', ');
  return preferred(reversed) === MARKDOWN ? 'markdown' : 'html';
}

/** The locale for `/`: the Accept-Language preference among ours, English by default. */
export function negotiateLocale<T extends string>(
  acceptLanguage: string | undefined,
  locales: readonly T[],
): T {
  const fallback = locales[0] as T;
  if (!acceptLanguage) return fallback;
  const chosen = new Negotiator({ headers: { 'accept-language': acceptLanguage } }).language([
    ...locales,
  ]);
  return (chosen as T | undefined) ?? fallback;
}
