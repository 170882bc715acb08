import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A route that exists only to refuse its methods with a 405 (so that the answer is given
     * before the body is read and its log line names the route): its methods are not the
     * path's, and the Allow header and preflights never name them.
     */
    refusesMethods?: boolean;
  }
}

/** The usual order of methods in an Allow header; others follow, alphabetically. */
const ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

function inOrder(methods: Iterable<string>): string[] {
  const rank = (method: string) => {
    const at = ORDER.indexOf(method);
    return at === -1 ? ORDER.length : at;
  };
  return [...methods].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
}

/** A route template and what its routes do with each method. */
export interface RouteEntry {
  /** As registered: `/admin/v1/organizations/:org/keys`. */
  url: string;
  /** The methods its routes answer, in the usual order (GET, HEAD, POST, …, OPTIONS). */
  methods: string[];
  /** Every method with a route, those that only refuse (`refusesMethods`) included. */
  routed: string[];
}

/**
 * The routes of a host, by route template: the one source of what a path answers. The host
 * shell fills it from Fastify's onRoute (every route, whoever registers it and whenever), and
 * answers from it a method no route takes on a known path (405 with the Allow header) and
 * CONNECT (every method the host has); the API derives its preflights from it.
 */
export class RouteMethods {
  readonly #routes: Array<{
    url: string;
    pattern: RegExp;
    methods: Set<string>;
    routed: Set<string>;
  }> = [];
  readonly #ignored: readonly string[];

  /** `ignored`: catch-all routes a plugin adds (CORS's `*`), which name no path. */
  constructor(ignored: readonly string[] = []) {
    this.#ignored = ignored;
  }

  add(url: string, method: string | readonly string[], refuses = false): void {
    if (this.#ignored.includes(url)) return;
    const pattern = templatePattern(url);
    let entry = this.#routes.find((route) => route.pattern.source === pattern.source);
    if (!entry) {
      entry = { url, pattern, methods: new Set(), routed: new Set() };
      this.#routes.push(entry);
    }
    for (const one of [method].flat()) {
      entry.routed.add(one);
      if (!refuses) entry.methods.add(one);
    }
  }

  /** The methods of the first route whose template matches `path`; none if no route does. */
  at(path: string): string[] {
    const route = this.#routes.find((candidate) => candidate.pattern.test(path));
    return route ? inOrder(route.methods) : [];
  }

  /** Every method of every route. */
  all(): string[] {
    return inOrder(new Set(this.#routes.flatMap((route) => [...route.methods])));
  }

  /** Every route template that answers some method, in the order they were registered. */
  entries(): RouteEntry[] {
    return this.#routes
      .filter((route) => route.methods.size > 0)
      .map((route) => ({
        url: route.url,
        methods: inOrder(route.methods),
        routed: inOrder(route.routed),
      }));
  }
}

/** The table of each host built by the shell (http/host.ts). */
const TABLES = new WeakMap<FastifyInstance, RouteMethods>();

export function keepRouteTable(app: FastifyInstance, table: RouteMethods): void {
  TABLES.set(app, table);
}

/** The routes of a host built by the shell, as registered so far. */
export function routeTable(app: FastifyInstance): RouteEntry[] {
  const table = TABLES.get(app);
  if (!table) throw new Error('routeTable: this app was not built by createHost');
  return table.entries();
}

/** `/admin/v1/organizations/:org/keys` → a pattern matching any concrete path of that route. */
function templatePattern(url: string): RegExp {
  const escaped = url
    .split('/')
    .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${escaped}$`);
}
