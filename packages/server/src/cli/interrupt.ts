import { ImportInterruptedError } from '../items/errors.js';
import type { CliSignals } from './io.js';

/** The signals that ask a long command to stop: Ctrl-C, and a supervisor's or `kill`'s default. */
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

export interface Interrupt {
  /** Aborted by the first SIGINT or SIGTERM, with an ImportInterruptedError naming it. */
  signal: AbortSignal;
  /** Gives the signals back to their default action (the process ends at once). */
  release(): void;
}

/**
 * Listens for SIGINT and SIGTERM on `signals` (the process, or a test's emitter) while a long
 * command runs, so it can stop where it is safe to (the import: after the batch in flight)
 * and still report. Listening replaces the default action, which would end the process with
 * nothing committed reported and no audit event; a signal after the first is ignored, as
 * during `serve`'s drain (SIGKILL still stops at once).
 */
export function listenForStop(signals: CliSignals): Interrupt {
  const controller = new AbortController();
  const listeners = STOP_SIGNALS.map((name) => {
    const listener = () => {
      if (!controller.signal.aborted) controller.abort(new ImportInterruptedError(name));
    };
    signals.on(name, listener);
    return [name, listener] as const;
  });
  return {
    signal: controller.signal,
    release() {
      for (const [name, listener] of listeners) signals.off(name, listener);
    },
  };
}
