import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * CORS, written here rather than taken from @fastify/cors: the allowed origins are a fixed list
 * (or `*`), so nothing needs working out per request, while the plugin's hook copies its
 * options and builds the route's options object on every request. (On a bare Fastify health
 * route the plugin added about a quarter to the instructions per request, `npm run bench:instructions
 * -- --floor`; in the whole API the difference was within the run-to-run spread.)
 */

/** Response headers a browser script may read. */
export const EXPOSED_HEADERS = [
  'x-request-id',
  'retry-after',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'etag',
  'deprecation',
];
const EXPOSED = EXPOSED_HEADERS.join(', ');
/** How long a browser may keep a preflight's answer, in seconds. */
const PREFLIGHT_MAX_AGE = '600';

export type CorsOrigins = '*' | readonly string[];

/** The CORS headers of every answer (before routing too), for the configured origins. */
export function corsHeaders(origins: CorsOrigins) {
  return (request: FastifyRequest, reply: FastifyReply): void => {
    if (origins === '*') reply.header('access-control-allow-origin', '*');
    else {
      reply.header('vary', 'Origin');
      const origin = request.headers.origin;
      if (origin !== undefined && origins.includes(origin)) {
        reply.header('access-control-allow-origin', origin);
      }
    }
    reply.header('access-control-expose-headers', EXPOSED);
  };
}

/** The headers sent on socket answers, where there is no request to look at. */
export function socketCorsHeaders(origins: CorsOrigins): [string, string][] {
  return [
    ...(origins === '*' ? [['access-control-allow-origin', '*'] as [string, string]] : []),
    ['access-control-expose-headers', EXPOSED],
  ];
}

/**
 * The answer to a preflight on a path that takes `methods` and reads `headers` (the origin
 * headers come from corsHeaders, like every answer's). No key is asked for: browsers send none.
 */
export function answerPreflight(
  reply: FastifyReply,
  methods: readonly string[],
  headers: readonly string[],
): FastifyReply {
  reply.header('access-control-allow-methods', methods.join(', '));
  reply.header('access-control-allow-headers', headers.join(', '));
  reply.header('access-control-max-age', PREFLIGHT_MAX_AGE);
  return reply.code(204).header('content-length', '0').send();
}
