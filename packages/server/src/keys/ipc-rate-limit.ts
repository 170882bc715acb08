import type { RateLimitPolicy } from '../store/types.js';
import {
  type RateLimiter,
  RateLimiterUnavailableError,
  type RateLimitResult,
} from './rate-limit.js';

/**
 * Rate limits of `serve --workers N` on SQLite without Redis, or while Redis is down: the
 * embedded engine has no shared counter store, so the workers ask the cluster primary, which
 * keeps the fixed-window counters of MemoryRateLimiter for all of them. Exact, because one process counts. One
 * request/response over the cluster's IPC channel per rate-limited request, matched by a
 * correlation id. When the primary cannot be asked or does not answer in time, the request
 * fails closed (503 SERVICE_UNAVAILABLE) rather than being admitted unlimited.
 */

const HIT = 'stockroom:rate-limit:hit';
const RESULT = 'stockroom:rate-limit:result';

interface HitMessage {
  type: typeof HIT;
  id: number;
  organizationId: string;
  keyId: string;
  policy: RateLimitPolicy;
  nowMs: number;
}

type ResultMessage =
  | { type: typeof RESULT; id: number; result: RateLimitResult }
  | { type: typeof RESULT; id: number; error: string };

function isHit(message: unknown): message is HitMessage {
  return (message as HitMessage | null)?.type === HIT;
}

function isResult(message: unknown): message is ResultMessage {
  return (message as ResultMessage | null)?.type === RESULT;
}

/** The worker's end: `process` in a cluster worker. */
export interface IpcEndpoint {
  send?(message: unknown, callback?: (error: Error | null) => void): boolean;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  off(event: 'message', listener: (message: unknown) => void): unknown;
}

/** The primary's end of one worker: a cluster `Worker`. */
export interface IpcPeer {
  send(message: unknown, callback?: (error: Error | null) => void): boolean;
  on(event: 'message', listener: (message: unknown) => void): unknown;
}

interface Pending {
  resolve(result: RateLimitResult): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

export class IpcRateLimiter implements RateLimiter {
  private nextId = 0;
  private readonly pending = new Map<number, Pending>();
  private readonly onMessage = (message: unknown) => {
    if (!isResult(message)) return;
    const waiting = this.pending.get(message.id);
    if (!waiting) return;
    this.settle(message.id);
    if ('result' in message) waiting.resolve(message.result);
    else waiting.reject(new RateLimiterUnavailableError(message.error));
  };

  constructor(
    private readonly endpoint: IpcEndpoint,
    /** How long the primary may take to answer (DATABASE_TIMEOUT_MS: a deadline like any). */
    private readonly timeoutMs: number,
  ) {
    endpoint.on('message', this.onMessage);
  }

  hit(
    organizationId: string,
    keyId: string,
    policy: RateLimitPolicy,
    nowMs = Date.now(),
  ): Promise<RateLimitResult> {
    const send = this.endpoint.send?.bind(this.endpoint);
    if (!send) {
      return Promise.reject(
        new RateLimiterUnavailableError('no cluster primary to count rate limits'),
      );
    }
    const id = ++this.nextId;
    return new Promise<RateLimitResult>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.settle(id);
        reject(
          new RateLimiterUnavailableError(
            `the cluster primary did not answer a rate-limit request within ${this.timeoutMs} ms`,
          ),
        );
      }, this.timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      const fail = (error: unknown) => {
        if (!this.pending.has(id)) return;
        this.settle(id);
        reject(
          new RateLimiterUnavailableError(
            `could not ask the cluster primary for rate limits: ${(error as Error).message}`,
          ),
        );
      };
      const message: HitMessage = { type: HIT, id, organizationId, keyId, policy, nowMs };
      try {
        send(message, (error) => {
          if (error) fail(error);
        });
      } catch (error) {
        // A closed channel throws (or reports through the callback, depending on the case).
        fail(error);
      }
    });
  }

  private settle(id: number): void {
    const waiting = this.pending.get(id);
    if (!waiting) return;
    clearTimeout(waiting.timer);
    this.pending.delete(id);
  }

  async close(): Promise<void> {
    this.endpoint.off('message', this.onMessage);
    for (const [id, waiting] of [...this.pending]) {
      this.settle(id);
      waiting.reject(new RateLimiterUnavailableError('the rate limiter is closed'));
    }
  }
}

/**
 * The primary's side, for one worker: counts its hits with `limiter` (shared by all the
 * workers) and answers. A worker that died meanwhile simply gets no answer.
 */
export function answerRateLimits(worker: IpcPeer, limiter: RateLimiter): void {
  worker.on('message', (message: unknown) => {
    if (!isHit(message)) return;
    const reply = (answer: ResultMessage) => {
      try {
        worker.send(answer, () => {});
      } catch {
        // The worker is gone: nobody is waiting.
      }
    };
    limiter.hit(message.organizationId, message.keyId, message.policy, message.nowMs).then(
      (result) => reply({ type: RESULT, id: message.id, result }),
      (error: unknown) => reply({ type: RESULT, id: message.id, error: String(error) }),
    );
  });
}
