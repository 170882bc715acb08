/**
 * Throttles guessing: counts the invalid-key outcomes (INVALID_API_KEY: malformed, bad
 * checksum, unknown or revoked) of each client address in fixed windows aligned to the epoch.
 * An address that reached `max` in the current window is refused every keyed request until
 * the window ends, before its key is even looked at.
 *
 * State is this process's memory only: with N processes an address gets up to N × max
 * invalid keys per window before every process refuses it. Memory is bounded: at most
 * `maxAddresses` addresses are tracked; past that, the address whose last failure is oldest
 * is forgotten (an attacker must spray that many addresses within one window to free one),
 * and every entry is dropped when a new window starts, since counts start afresh then.
 */
export class AuthFailureThrottle {
  private readonly counts = new Map<string, number>();
  private window = -1;
  private readonly windowMs: number;

  constructor(
    readonly max: number,
    readonly windowSeconds: number,
    private readonly maxAddresses = 50_000,
  ) {
    this.windowMs = windowSeconds * 1000;
  }

  /** Nothing counted: the hot path skips resolving the client address at all. */
  get idle(): boolean {
    return this.counts.size === 0;
  }

  /** Addresses tracked now (for tests and metrics). */
  get size(): number {
    return this.counts.size;
  }

  private roll(nowMs: number): void {
    const window = Math.floor(nowMs / this.windowMs);
    if (window !== this.window) {
      this.window = window;
      this.counts.clear();
    }
  }

  /** Seconds until `address` may send keyed requests again; 0 when it is not throttled. */
  retryAfter(address: string, nowMs = Date.now()): number {
    this.roll(nowMs);
    const count = this.counts.get(address);
    if (count === undefined || count < this.max) return 0;
    return Math.max(1, Math.ceil(((this.window + 1) * this.windowMs - nowMs) / 1000));
  }

  /** Records one invalid-key outcome of `address`. */
  fail(address: string, nowMs = Date.now()): void {
    this.roll(nowMs);
    const count = this.counts.get(address);
    if (count !== undefined) {
      // Most recently failing last: the first in iteration order is the one to forget.
      this.counts.delete(address);
      this.counts.set(address, count + 1);
      return;
    }
    if (this.counts.size >= this.maxAddresses) {
      const oldest = this.counts.keys().next().value;
      if (oldest !== undefined) this.counts.delete(oldest);
    }
    this.counts.set(address, 1);
  }
}
