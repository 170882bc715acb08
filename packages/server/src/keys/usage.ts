import type { Store } from '../store/types.js';

/**
 * Batches last-used timestamps so a request never waits on a write for them: uses are kept
 * in memory and flushed once per interval (and at shutdown).
 */
export class KeyUsageRecorder {
  private pending = new Map<string, number>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly store: Store,
    intervalMs = 5_000,
    private readonly onError: (error: unknown) => void = () => {},
  ) {
    this.timer = setInterval(() => void this.flush(), intervalMs);
    this.timer.unref();
  }

  record(keyId: string, at = Date.now()): void {
    this.pending.set(keyId, at);
  }

  async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    try {
      await this.store.recordKeyUse(batch);
    } catch (error) {
      // Kept for the next flush (the database may be back by then), unless newer uses came in.
      for (const [keyId, at] of batch) {
        if ((this.pending.get(keyId) ?? -1) < at) this.pending.set(keyId, at);
      }
      this.onError(error);
    }
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
