import Negotiator from 'negotiator';

export type Representation = 'markdown' | 'html';

// Offered bare: negotiator only matches a range whose every parameter the offer repeats, so
// offering `text/markdown; charset=utf-8` let `text/markdown; variant=GFM` (RFC 7763's own
// parameter) fall through to HTML. The charset is set on the response instead.
const HTML = 'text/html';
const MARKDOWN = 'text/markdown';

/** Splits on `separator`, leaving separators inside quoted strings (and escapes) alone. */
function split(value: string, separator: string): string[] {
  const out: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const char = value[i];
    if (char === '"') quoted = !quoted;
    if (char === '\\' && quoted) {
      current += char + (value[i + 1] ?? '');
      i++;
      continue;
    }
    if (char === separator && !quoted) {
      out.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  out.push(current);
  return out.map((part) => part.trim()).filter(Boolean);
}

/**
 * A range reduced to its media type and q-value (`text/markdown; variant=GFM; q=0.5` →
 * `text/markdown;q=0.5`): we have one Markdown and one HTML, so a media-type parameter can only
 * describe one of them, never rule it out.
 */
function bare(range: string): string {
  const [type = '', ...params] = split(range, ';');
  const q = params.find((param) => /^q\s*=/i.test(param));
  return q === undefined ? type : `${type};${q.replace(/\s+/g, '')}`;
}

function preferred(ranges: string[]): string | undefined {
  return new Negotiator({ headers: { accept: ranges.join(', ') } }).mediaType([HTML, MARKDOWN]);
}

/**
 * Markdown only when the client prefers it; HTML otherwise, never 406 (docs/architecture.md#documentation-host).
 *
 * negotiator ranks by q-value, then by specificity (`text/markdown` beats `*\/*`), then by the
 * order of the header, which RFC 9110 gives no meaning. So we ask twice, once with the ranges
 * reversed: markdown must win both ways. A tie that only header order decides
 * (`text/markdown, text/html`) therefore goes to HTML, as do `*\/*`, `text/*`, other types,
 * a missing header and one that accepts neither.
 */
export function negotiate(accept: string | undefined): Representation {
  if (accept === undefined || accept.trim() === '') return 'html';
  const ranges = split(accept, ',').map(bare);
  if (preferred(ranges) !== MARKDOWN) return 'html';
  return preferred(ranges.reverse()) === MARKDOWN ? 'markdown' : 'html';
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
