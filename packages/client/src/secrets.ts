/**
 * Keeping the API key out of what the client reports. The key only ever travels in the
 * Authorization header; these helpers cover the ways it could come back: a server or proxy
 * quoting it in an error body, or a custom `fetch` whose error message echoes the headers.
 */

/**
 * Shorter strings are not treated as secrets. Stockroom keys are 45 characters; replacing a
 * short string (a test key such as "e") everywhere would mangle ordinary words in messages.
 */
export const MIN_SECRET_LENGTH = 16;

const REDACTED = '[redacted]';

/** `text` with every occurrence of the key replaced, when the key is long enough to be one. */
export function redact(text: string, apiKey: string | undefined): string {
  if (!apiKey || apiKey.length < MIN_SECRET_LENGTH) return text;
  return text.split(apiKey).join(REDACTED);
}

/**
 * A parsed JSON value with the key redacted from its strings (property names included). Works
 * on the parsed value rather than the text, so the structure survives whatever the key is.
 */
export function redactJson(value: unknown, apiKey: string | undefined): unknown {
  if (!apiKey || apiKey.length < MIN_SECRET_LENGTH) return value;
  if (typeof value === 'string') return redact(value, apiKey);
  if (Array.isArray(value)) return value.map((entry) => redactJson(entry, apiKey));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([name, entry]) => [
        redact(name, apiKey),
        redactJson(entry, apiKey),
      ]),
    );
  }
  return value;
}

/** How deep a chain of causes is copied: fetch's own error and the socket error under it. */
const MAX_CAUSE_DEPTH = 3;

function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null
    ? (value as Record<string, unknown>)[name]
    : undefined;
}

function describe(value: unknown): string {
  try {
    return String(value);
  } catch {
    // An object without a prototype has no toString.
    return Object.prototype.toString.call(value);
  }
}

/**
 * A copy of a thrown value that keeps what helps diagnose a failed request (name, message,
 * `code`, and the same for its causes) with the key redacted, and drops everything else: an
 * error from a custom fetch may carry the request, its headers or the key in any property.
 */
export function safeCause(
  cause: unknown,
  apiKey: string | undefined,
  depth = 1,
): Error & { code?: string } {
  const name = field(cause, 'name');
  const message = field(cause, 'message');
  const code = field(cause, 'code');
  const copy: Error & { code?: string } = new Error(
    redact(typeof message === 'string' ? message : describe(cause), apiKey),
  );
  copy.name = typeof name === 'string' ? redact(name, apiKey) : 'Error';
  if (typeof code === 'string' || typeof code === 'number') {
    copy.code = redact(String(code), apiKey);
  }
  // The copy's own stack would point into this file; the original's frames may quote the key.
  copy.stack = `${copy.name}: ${copy.message}`;
  const inner = field(cause, 'cause');
  if (inner !== undefined && depth < MAX_CAUSE_DEPTH) {
    copy.cause = safeCause(inner, apiKey, depth + 1);
  }
  return copy;
}
