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
  return new TopLevelKeyCutter(names).cut(text);
}

/** withoutTopLevelKeys for one set of names, made once (a key view's) and used per item. */
export class TopLevelKeyCutter {
  /** Each name as JSON.stringify spells it, then a colon: how it starts its member. */
  private readonly needles: string[];

  constructor(names: ReadonlySet<string>) {
    this.needles = [...names].map((name) => `${JSON.stringify(name)}:`);
  }

  cut(text: string): string {
    let wanted = 0;
    for (const needle of this.needles) if (text.includes(needle)) wanted++;
    if (wanted === 0) return text;
    let i = skipSpace(text, text.indexOf('{') + 1);
    if (text[i] === '}') return text;
    const first = i;
    /** Spans [start, end) to leave out, in order, commas included. */
    const drop: Array<[number, number]> = [];
    /** The end of the last member kept (its comma follows), or -1 while none is kept. */
    let keptEnd = -1;
    for (;;) {
      const memberStart = i;
      const needle = this.needles.find((n) => text.startsWith(n, i));
      // A key the names do not spell is skipped as a string.
      const keyEnd = needle === undefined ? stringEnd(text, i) : i + needle.length - 1;
      i = skipSpace(text, skipSpace(text, keyEnd) + 1);
      i = skipSpace(text, valueEnd(text, i));
      const last = text[i] !== ',';
      if (needle !== undefined) {
        if (!last) {
          // The member and the comma after it.
          drop.push([memberStart, skipSpace(text, i + 1)]);
        } else {
          // The last member goes with the comma after the last member kept, which covers
          // the members dropped since.
          const start = keptEnd >= 0 ? keptEnd : first;
          while (drop.length > 0 && (drop[drop.length - 1] as [number, number])[0] >= start) {
            drop.pop();
          }
          drop.push([start, i]);
        }
        wanted--;
      } else {
        keptEnd = i;
      }
      if (last || wanted === 0) break;
      i = skipSpace(text, i + 1);
    }
    let out = '';
    let from = 0;
    for (const [start, end] of drop) {
      out += text.slice(from, start);
      from = end;
    }
    return out + text.slice(from);
  }
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
