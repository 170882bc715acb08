import { AsyncLocalStorage } from 'node:async_hooks';
import type { Store } from '../store/types.js';

/**
 * Counts the calls a server makes to its real store: every method of the instance is wrapped
 * (the store still does the work) until `restore`. Only outermost calls count: a store method
 * that calls another of its own methods is one call. Tests use it to prove how many database
 * calls a request costs, or that something never reached the database at all.
 */
export interface StoreCalls {
  /** Calls since the last reset, by method name. */
  readonly calls: Map<string, number>;
  total(): number;
  reset(): void;
  restore(): void;
}

/** Set inside a counted call: the store's own calls to its methods are not requests' calls. */
const insideStore = new AsyncLocalStorage<true>();

export function countStoreCalls(store: Store): StoreCalls {
  const calls = new Map<string, number>();
  const target = store as unknown as Record<string, unknown>;
  const wrapped = new Map<string, { own: boolean; original: unknown }>();
  for (let proto = Object.getPrototypeOf(store); proto && proto !== Object.prototype; ) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      const original = target[name];
      if (name === 'constructor' || wrapped.has(name) || typeof original !== 'function') continue;
      wrapped.set(name, { own: Object.hasOwn(target, name), original });
      const call = (args: unknown[]) =>
        (original as (...a: unknown[]) => unknown).apply(store, args);
      target[name] = (...args: unknown[]) => {
        if (insideStore.getStore()) return call(args);
        calls.set(name, (calls.get(name) ?? 0) + 1);
        return insideStore.run(true, () => call(args));
      };
    }
    proto = Object.getPrototypeOf(proto);
  }
  return {
    calls,
    total: () => [...calls.values()].reduce((sum, n) => sum + n, 0),
    reset: () => calls.clear(),
    restore() {
      for (const [name, { own, original }] of wrapped) {
        if (own) target[name] = original;
        else delete target[name];
      }
    },
  };
}
