/**
 * The methods of a host's routes, by route template, to answer a method no route takes on a
 * known path with 405 and the Allow header (and CONNECT with every method the host has).
 */
export class RouteMethods {
  readonly #routes: Array<{ pattern: RegExp; methods: Set<string> }> = [];
  readonly #ignored: readonly string[];

  /** `ignored`: catch-all routes a plugin adds (CORS's `*`), which name no path. */
  constructor(ignored: readonly string[] = []) {
    this.#ignored = ignored;
  }

  add(url: string, method: string | readonly string[]): void {
    if (this.#ignored.includes(url)) return;
    const pattern = templatePattern(url);
    let entry = this.#routes.find((route) => route.pattern.source === pattern.source);
    if (!entry) {
      entry = { pattern, methods: new Set() };
      this.#routes.push(entry);
    }
    for (const one of [method].flat()) entry.methods.add(one);
  }

  /** The methods of the first route whose template matches `path`, sorted; none if no route does. */
  at(path: string): string[] {
    const route = this.#routes.find((candidate) => candidate.pattern.test(path));
    return route ? [...route.methods].sort() : [];
  }

  /** Every method of every route, sorted. */
  all(): string[] {
    return [...new Set(this.#routes.flatMap((route) => [...route.methods]))].sort();
  }
}

/** `/admin/v1/organizations/:org/keys` → a pattern matching any concrete path of that route. */
function templatePattern(url: string): RegExp {
  const escaped = url
    .split('/')
    .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${escaped}$`);
}
