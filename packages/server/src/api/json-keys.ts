/**
 * Top-level keys removed from the JSON text of an object without parsing it: what a key view
 * does to every item's stored customFields when it hides some of them. Parsing and serializing
 * each item's ~1 KiB of custom fields cost 0.6 ms per page of 100 (bench: a view's list page
 * three times the same page without one); this scanner reads only the structure, jumping over
 * strings and nested values natively, stops once every name is found, and leaves every other
 * byte as it was stored.
 *
 * The text must be a JSON object as JSON.stringify writes it, which is how the store keeps
 * customFields (items/validate.ts): no key twice, and a key spelled exactly as
 * JSON.stringify spells it, so a name whose spelling is nowhere in the text is not a key of it.
 */
export function withoutTopLevelKeys(text: string, names: ReadonlySet<string>): string {
  let wanted = 0;
  for (const name of names) if (text.includes(`${JSON.stringify(name)}:`)) wanted++;
  if (wanted === 0) return text;
  let i = skipSpace(text, text.indexOf('{') + 1);
  if (text[i] === '}') return text;
  /** Spans [start, end) of the members to drop, commas included. */
  const drop: Array<[number, number]> = [];
  let previousEnd = -1;
  for (;;) {
    const memberStart = i;
    const keyEnd = stringEnd(text, i);
    const raw = text.slice(i + 1, keyEnd - 1);
    const key = raw.includes('\\') ? (JSON.parse(text.slice(i, keyEnd)) as string) : raw;
    i = skipSpace(text, skipSpace(text, keyEnd) + 1);
    i = skipSpace(text, valueEnd(text, i));
    const last = text[i] !== ',';
    if (names.has(key)) {
      // A member and the comma after it; the last member, with the comma before it.
      if (!last) drop.push([memberStart, skipSpace(text, i + 1)]);
      else if (previousEnd >= 0) drop.push([previousEnd, i]);
      else drop.push([memberStart, i]);
      wanted--;
    } else {
      previousEnd = i;
    }
    if (last || wanted === 0) break;
    i = skipSpace(text, i + 1);
  }
  if (drop.length === 0) return text;
  let out = '';
  let from = 0;
  for (const [start, end] of merged(drop)) {
    out += text.slice(from, start);
    from = end;
  }
  return out + text.slice(from);
}

/** Spans in order, overlapping ones joined (a dropped last member after a dropped one). */
function merged(spans: Array<[number, number]>): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const span of spans.sort((a, b) => a[0] - b[0])) {
    const last = out[out.length - 1];
    if (last && span[0] <= last[1]) last[1] = Math.max(last[1], span[1]);
    else out.push([...span]);
  }
  return out;
}

function skipSpace(text: string, i: number): number {
  let k = i;
  for (;;) {
    const c = text.charCodeAt(k);
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return k;
    k++;
  }
}

/** The index after the string that opens at `i` (a `"`). */
function stringEnd(text: string, i: number): number {
  let from = i + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    if (quote < 0) throw new SyntaxError('unterminated string in stored JSON');
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

/** The characters that open or close a string, an object or an array. */
const STRUCTURE = /["{}[\]]/g;

/** The index after the value that starts at `i`. */
function valueEnd(text: string, i: number): number {
  const c = text[i];
  if (c === '"') return stringEnd(text, i);
  if (c === '{' || c === '[') {
    let depth = 0;
    STRUCTURE.lastIndex = i;
    for (;;) {
      const found = STRUCTURE.exec(text);
      if (found === null) throw new SyntaxError('unterminated value in stored JSON');
      const ch = found[0];
      if (ch === '"') {
        STRUCTURE.lastIndex = stringEnd(text, found.index);
        continue;
      }
      if (ch === '{' || ch === '[') depth++;
      else if (--depth === 0) return found.index + 1;
    }
  }
  // A number, true, false or null: up to the next delimiter.
  let k = i;
  for (;;) {
    const ch = text[k];
    if (
      ch === undefined ||
      ch === ',' ||
      ch === '}' ||
      ch === ']' ||
      ch === ' ' ||
      ch === '\n' ||
      ch === '\r' ||
      ch === '\t'
    )
      return k;
    k++;
  }
}
