import type { Store } from '../store/types.js';

/** How often a serving process drops tombstones past the retention period. */
export const PURGE_INTERVAL_MS = 60 * 60_000;

/**
 * Kept past the retention period before a tombstone is dropped: a sync token is judged by when
 * it was issued, and a deletion committed just after that moment may carry a time a little
 * before it (taken before its commit). An hour covers any such gap and clock step.
 */
export const PURGE_SLACK_MS = 60 * 60_000;

/**
 * Drops the tombstones of deleted items once no valid sync point can need them (the retention
 * period, SYNC_RETENTION), once started (after the schema is migrated: on a fresh database the
 * table does not exist before) and then hourly. Every process of a deployment may run one: the
 * purge is idempotent.
 */
export class TombstonePurger {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: Store,
    private readonly retentionMs: number,
    private readonly onError: (error: unknown) => void,
    private readonly intervalMs = PURGE_INTERVAL_MS,
  ) {}

  /** One purge now, then one every interval. A second call does nothing. */
  start(): void {
    if (this.timer) return;
    this.purge();
    this.timer = setInterval(() => this.purge(), this.intervalMs);
    // A pending purge never keeps the process alive.
    this.timer.unref();
  }

  /** One purge now; resolves with the number of tombstones dropped (0 after an error). */
  purge(now = Date.now()): Promise<number> {
    const result = this.running.then(async () => {
      try {
        return await this.store.purgeTombstones(now - this.retentionMs - PURGE_SLACK_MS);
      } catch (error) {
        this.onError(error);
        return 0;
      }
    });
    this.running = result.then(() => undefined);
    return result;
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
