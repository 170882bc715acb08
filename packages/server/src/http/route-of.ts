import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * The route of a request, read once. Fastify builds a new object (and asks the router about
 * version constraints) on every read of `request.routeOptions`; the shell, the log line, the
 * auth hooks and tracing each need it, so the first read is kept on the request.
 */
type RouteOptions = FastifyRequest['routeOptions'];

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by routeOf on first use; never read it directly. */
    routeOnce: RouteOptions | null;
  }
}

/** Gives every request of `app` the slot routeOf fills (a fixed shape, set before requests). */
export function rememberRoutes(app: FastifyInstance): void {
  app.decorateRequest('routeOnce', null);
}

export function routeOf(request: FastifyRequest): RouteOptions {
  // A host built without rememberRoutes (none today) still gets the right answer.
  if (request.routeOnce === undefined) return request.routeOptions;
  if (request.routeOnce === null) request.routeOnce = request.routeOptions;
  return request.routeOnce;
}
