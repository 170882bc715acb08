/**
 * How many bits of entropy a secret someone set (ADMIN_TOKEN) holds, estimated from the text
 * alone: a guard against tokens that are obviously weak, not a proof that one is strong (a
 * long sentence is rated above what it holds). The estimate is the smaller of
 *
 * - its length × log2 of the alphabet of the character classes it uses (lowercase 26,
 *   uppercase 26, digits 10, other printable ASCII 32): the most a random token like it holds;
 * - its length × the Shannon entropy of its characters' frequencies: what it holds if its
 *   characters were drawn as often as they appear (one repeated character holds nothing);
 *
 * both taken over one period of a token that repeats itself (`abcabcabc` counts as `abc`).
 * A random 32-byte token (`openssl rand -base64 32`: 44 characters, `-hex 32`: 64) is rated
 * well above 200 bits; 32 × `a` is rated 0.
 */

const CLASSES: ReadonlyArray<{ pattern: RegExp; size: number }> = [
  { pattern: /[a-z]/, size: 26 },
  { pattern: /[A-Z]/, size: 26 },
  { pattern: /[0-9]/, size: 10 },
  { pattern: /[^A-Za-z0-9]/, size: 32 },
];

/** The shortest prefix the text repeats (the whole text when it does not repeat one). */
function period(text: string): string {
  for (let length = 1; length < text.length; length++) {
    let repeats = true;
    for (let i = length; i < text.length && repeats; i++) repeats = text[i] === text[i - length];
    if (repeats) return text.slice(0, length);
  }
  return text;
}

function shannonBitsPerCharacter(text: string): number {
  const counts = new Map<string, number>();
  for (const character of text) counts.set(character, (counts.get(character) ?? 0) + 1);
  const length = [...text].length;
  let bits = 0;
  for (const count of counts.values()) {
    const p = count / length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

export function estimateEntropyBits(secret: string): number {
  const unit = period(secret);
  const length = [...unit].length;
  if (length === 0) return 0;
  const alphabet = CLASSES.filter((one) => one.pattern.test(unit)).reduce(
    (sum, one) => sum + one.size,
    0,
  );
  return Math.min(length * Math.log2(alphabet), length * shannonBitsPerCharacter(unit));
}
