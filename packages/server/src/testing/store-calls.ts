import type { Store } from '../store/types.js';

/**
 * Counts the calls a server makes to its real store (the store itself is untouched: each
 * method is wrapped on the instance, then put back). Tests use it to prove that something did
 * not reach the database at all.
 */
export interface StoreCalls {
  /** Calls since the last reset, by method name. */
  readonly calls: Map<string, number>;
  total(): number;
  reset(): void;
  restore(): void;
}

export function countStoreCalls(store: Store): StoreCalls {
  const calls = new Map<string, number>();
  const target = store as unknown as Record<string, unknown>;
  const names = new Set<string>();
  for (let proto = Object.getPrototypeOf(store); proto && proto !== Object.prototype; ) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (name !== 'constructor' && typeof target[name] === 'function') names.add(name);
    }
    proto = Object.getPrototypeOf(proto);
  }
  const originals = new Map<string, unknown>();
  for (const name of names) {
    const original = target[name] as (...args: unknown[]) => unknown;
    originals.set(name, Object.hasOwn(target, name) ? original : undefined);
    target[name] = function (this: unknown, ...args: unknown[]) {
      calls.set(name, (calls.get(name) ?? 0) + 1);
      return original.apply(this, args);
    };
  }
  return {
    calls,
    total: () => [...calls.values()].reduce((sum, n) => sum + n, 0),
    reset: () => calls.clear(),
    restore() {
      for (const [name, own] of originals) {
        if (own === undefined) delete target[name];
        else target[name] = own;
      }
    },
  };
}
