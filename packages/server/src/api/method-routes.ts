import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { routeTable } from '../http/route-methods.js';
import { answerPreflight } from './cors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The request headers a browser may send to this route, when not the API's usual ones. */
    corsHeaders?: readonly string[];
  }
}

/**
 * The methods that get a route of their own on a path that does not take them, refusing
 * them with 405 before any body is read (their log lines and metrics then name the route).
 * Any other method there (PROPFIND, TRACE…) is one no route takes: the host shell answers
 * it with the same 405, from the same table.
 */
const REFUSED = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

export interface MethodAnswers {
  /** The request headers a preflight allows on a route that names none (`corsHeaders`). */
  corsHeaders: readonly string[];
  /** Answers a method the path does not take; `allowed` is what it takes, OPTIONS included. */
  refuse(request: FastifyRequest, reply: FastifyReply, allowed: readonly string[]): void;
}

/**
 * Gives every path of the API its CORS preflight and its 405s, from the route table itself
 * (http/route-methods.ts), so that no route can be left out of either: a preflight allows the
 * methods the path's routes answer, plus OPTIONS, and the headers its route names. Call it
 * before the routes are registered; call what it returns once they are.
 */
export function deriveMethodRoutes(app: FastifyInstance, answers: MethodAnswers): () => void {
  const headersOf = new Map<string, readonly string[]>();
  app.addHook('onRoute', (route) => {
    const headers = route.config?.corsHeaders;
    if (headers !== undefined) headersOf.set(route.url, headers);
  });
  // A plugin of its own: it loads after those registered before it (/mcp's scope), so the
  // table then holds every route.
  return () =>
    void app.register(async (scope) => {
      for (const { url, methods, routed } of routeTable(app)) {
        const allowed = methods.includes('OPTIONS') ? methods : [...methods, 'OPTIONS'];
        if (!routed.includes('OPTIONS')) {
          const headers = headersOf.get(url) ?? answers.corsHeaders;
          // No key is asked for: browsers send none with a preflight.
          scope.options(url, { schema: { hide: true } as never }, (_request, reply) => {
            answerPreflight(reply, allowed, headers);
          });
        }
        const refused = REFUSED.filter((method) => !routed.includes(method));
        if (refused.length === 0) continue;
        scope.route({
          method: refused,
          url,
          config: { refusesMethods: true },
          schema: { hide: true } as never,
          // Replying from a hook ends the request there (done is not called, as Fastify asks).
          onRequest: (request, reply, _done) => answers.refuse(request, reply, allowed),
          handler: async (request, reply) => answers.refuse(request, reply, allowed),
        });
      }
    });
}
