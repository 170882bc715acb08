import type { KeyContext, Store } from '../store/types.js';

/**
 * Looks keys up by hash with a short-lived cache: a hot key costs no database read per
 * request, and a change made by the CLI (disable, revoke, membership, feature flag) is seen
 * within `ttlMs`, which DECISIONS.md bounds at one second.
 */
export class KeyVerifier {
  private readonly cache = new Map<string, { context: KeyContext | null; expires: number }>();

  constructor(
    private readonly store: Store,
    private readonly ttlMs = 500,
    private readonly maxEntries = 10_000,
  ) {}

  /** The cached context if still fresh (null: a cached unknown key), else undefined. */
  peek(hash: string, now = Date.now()): KeyContext | null | undefined {
    const hit = this.cache.get(hash);
    return hit && hit.expires > now ? hit.context : undefined;
  }

  async load(hash: string, now = Date.now()): Promise<KeyContext | null> {
    const hit = this.cache.get(hash);
    if (hit && hit.expires > now) return hit.context;
    const context = await this.store.loadKeyContext(hash);
    if (this.cache.size >= this.maxEntries) {
      // Maps iterate in insertion order: drop the oldest entry.
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
    this.cache.delete(hash);
    this.cache.set(hash, { context, expires: now + this.ttlMs });
    return context;
  }

  /** Keeps the cached remaining count close to the truth after a charge. */
  noteRemaining(hash: string, remaining: number): void {
    const hit = this.cache.get(hash);
    if (hit?.context) hit.context.key.remaining = remaining;
  }
}
