import type { KeyContext, Store } from '../store/types.js';

interface Entry<T> {
  value: T;
  expires: number;
}

/** An insertion-ordered map that drops its oldest entry once full. */
function remember<T>(cache: Map<string, Entry<T>>, max: number, hash: string, entry: Entry<T>) {
  cache.delete(hash);
  if (cache.size >= max) {
    // Maps iterate in insertion order: drop the oldest entry.
    const oldest = cache.keys().next().value;
    if (oldest !== undefined) cache.delete(oldest);
  }
  cache.set(hash, entry);
}

/**
 * Looks keys up by hash with a short-lived cache: a hot key costs no database read per
 * request, and a change made by the CLI (disable, revoke, membership, feature flag) is seen
 * within `ttlMs`, which docs/architecture.md#keys bounds at one second.
 *
 * Unknown keys are cached apart from known ones, in a map of their own: a flood of random
 * well-formed keys (each one unknown) only ever evicts other unknown keys, never the entries
 * of real keys that keep their requests off the database.
 */
export class KeyVerifier {
  private readonly known = new Map<string, Entry<KeyContext>>();
  private readonly unknown = new Map<string, Entry<null>>();

  constructor(
    private readonly store: Store,
    private readonly ttlMs = 500,
    private readonly maxEntries = 10_000,
    private readonly maxUnknownEntries = 10_000,
  ) {}

  /** The cached context if still fresh (null: a cached unknown key), else undefined. */
  peek(hash: string, now = Date.now()): KeyContext | null | undefined {
    const hit = this.known.get(hash);
    if (hit !== undefined) return hit.expires > now ? hit.value : undefined;
    const miss = this.unknown.get(hash);
    return miss !== undefined && miss.expires > now ? null : undefined;
  }

  /**
   * Whether this process has looked this key up and found it (fresh or not, while it is among
   * the remembered entries). Only the holder of an existing key can present its hash, so an
   * address throttled for invalid keys may still use one (api/auth.ts).
   */
  vouchesFor(hash: string): boolean {
    return this.known.has(hash);
  }

  async load(hash: string, now = Date.now()): Promise<KeyContext | null> {
    const cached = this.peek(hash, now);
    if (cached !== undefined) return cached;
    const context = await this.store.loadKeyContext(hash);
    const expires = now + this.ttlMs;
    if (context) {
      this.unknown.delete(hash);
      remember(this.known, this.maxEntries, hash, { value: context, expires });
    } else {
      this.known.delete(hash);
      remember(this.unknown, this.maxUnknownEntries, hash, { value: null, expires });
    }
    return context;
  }

  /** Keeps the cached remaining count close to the truth after a charge. */
  noteRemaining(hash: string, remaining: number): void {
    const hit = this.known.get(hash);
    if (hit) hit.value.key.remaining = remaining;
  }
}
