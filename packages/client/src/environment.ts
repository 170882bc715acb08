/** What the client reads of the runtime it finds itself in. */

/** An environment variable, or undefined where there is none or it may not be read. */
export function env(name: string): string | undefined {
  // Read defensively: browsers and edge runtimes have no `process`, and Deno has one whose `env`
  // throws (NotCapable) without --allow-env. An unreadable variable is an unset one: the
  // options then name what is missing.
  try {
    const proc = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process;
    const value = proc?.env?.[name];
    return value === '' ? undefined : value;
  } catch {
    return undefined;
  }
}

interface BrowserGlobals {
  window?: { document?: unknown };
  WorkerGlobalScope?: unknown;
  importScripts?: unknown;
}

/**
 * True in a web page and in the Web Workers a page starts (dedicated, shared or service):
 * code that anyone who loads the page can read, key included.
 */
export function isBrowser(): boolean {
  const g = globalThis as BrowserGlobals;
  if (typeof g.window !== 'undefined' && typeof g.window.document !== 'undefined') return true;
  // Workers have no window. Deno's workers are WorkerGlobalScopes too, but run on a server;
  // only browsers give theirs importScripts (module workers included, where it throws).
  return (
    typeof g.WorkerGlobalScope === 'function' &&
    globalThis instanceof g.WorkerGlobalScope &&
    typeof g.importScripts === 'function'
  );
}
