import type { CodedError } from './coded-error.js';
import type { Header } from './connect.js';
import type { ErrorRepresentation } from './host.js';

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * The representation of the hosts that answer errors in the JSON envelope (coded-error.ts):
 * the public API and the admin API. `body` makes the envelope (each host's docUrl); `headersOf`
 * the headers that come with an error (its own, then WWW-Authenticate on a 401, Allow on a 405).
 */
export function envelopeAnswers<E extends CodedError<string>>(
  body: (error: E, requestId: string) => unknown,
  headersOf: (error: E) => readonly Header[],
): ErrorRepresentation<E> {
  return {
    send(request, reply, error) {
      for (const [name, value] of headersOf(error)) reply.header(name, value);
      // JSON.stringify keeps the envelope's documented key order (`param` before `docUrl`); the
      // schema serializer would move the optional `param` last.
      return reply
        .code(error.status)
        .type(JSON_TYPE)
        .serializer(JSON.stringify)
        .send(body(error, request.id));
    },
    raw(error, requestId) {
      return {
        status: error.status,
        headers: headersOf(error),
        type: JSON_TYPE,
        body: JSON.stringify(body(error, requestId)),
      };
    },
  };
}

/** An error's own headers (Retry-After, Allow…), then the realm of a 401 when it has one. */
export function codedErrorHeaders(error: CodedError<string>, wwwAuthenticate: string): Header[] {
  return [
    ...Object.entries(error.headers),
    ...(error.status === 401 ? [['www-authenticate', wwwAuthenticate] as const] : []),
  ];
}
