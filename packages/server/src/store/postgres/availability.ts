import { connectionLossCode } from './errors.js';

/** Where the two outage lines go (a pino logger fits). */
export interface AvailabilityLog {
  warn(object: Record<string, unknown>, message: string): void;
}

/**
 * Whether the database is reachable, as this process's own operations find it, and the two log
 * lines of an outage: one when it goes away, one when it is back (how long it was away and how
 * many requests failed meanwhile). Never one line per request: the requests that fail meanwhile
 * are counted (`requestFailed`), and the API logs them at debug level only.
 *
 * Both lines are warnings, so that a log filtered to warnings shows where an outage ends too.
 * An operation that began before the database came back and fails afterwards (on a connection
 * broken by the outage) does not start a new outage. Nor does a failure before the first
 * success: a process started while the database is down says so itself (start-retry.ts).
 */
export class DatabaseAvailability {
  private outage: { since: number; code: string; failedRequests: number } | null = null;
  private upSince = 0;
  private everUp = false;
  private log: AvailabilityLog | null = null;

  constructor(
    /** host:port of the database, for the log lines (never its credentials). */
    readonly target: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** Where the lines go; until set, the state is still tracked. */
  setLog(log: AvailabilityLog | null): void {
    this.log = log;
  }

  get down(): boolean {
    return this.outage !== null;
  }

  /** An operation started at `startedAt` failed with `error` (the driver's, not yet wrapped). */
  failed(error: unknown, startedAt: number = this.now()): void {
    const code = connectionLossCode(error);
    // Before the first success, the start's own retry (start-retry.ts) says why it waits.
    if (code === null || this.outage !== null || !this.everUp) return;
    if (startedAt < this.upSince) return;
    this.outage = { since: this.now(), code, failedRequests: 0 };
    this.log?.warn(
      { database: this.target, code },
      `database went away: ${this.target} (${code}); answering 503 SERVICE_UNAVAILABLE until it is back`,
    );
  }

  /**
   * An operation started at `startedAt` succeeded: the database is reachable. One that began
   * before the outage did (answered just before the connection broke) proves nothing.
   */
  succeeded(startedAt: number = this.now()): void {
    const outage = this.outage;
    if (outage === null) {
      if (!this.everUp) {
        this.everUp = true;
        this.upSince = this.now();
      }
      return;
    }
    if (startedAt < outage.since) return;
    this.outage = null;
    this.upSince = this.now();
    const downForMs = this.upSince - outage.since;
    this.log?.warn(
      { database: this.target, downForMs, failedRequests: outage.failedRequests },
      `database is back: ${this.target} after ${(downForMs / 1000).toFixed(1)} s; ${outage.failedRequests} request(s) failed meanwhile`,
    );
  }

  /** A request answered 503 because of the database; counted while it is away. */
  requestFailed(): void {
    if (this.outage) this.outage.failedRequests += 1;
  }
}

/** host:port of a connection string, for log lines. */
export function databaseTarget(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    const host = url.hostname || url.searchParams.get('host') || 'localhost';
    return `${host}:${url.port || '5432'}`;
  } catch {
    return 'the database';
  }
}
