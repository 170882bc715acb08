import { Presets, SingleBar } from 'cli-progress';
import type { ImportProgress } from '../items/import.js';
import { type CliOutputStream, isTerminal } from './io.js';

export interface ProgressReporter {
  update(progress: ImportProgress): void;
  stop(): void;
}

const quiet: ProgressReporter = { update() {}, stop() {} };

function megabytes(bytes: number): string {
  return `${(bytes / 1_048_576).toFixed(1)} MB`;
}

/**
 * A progress bar on `stream` (stderr), only for a person watching a terminal: piped or captured
 * stderr (scripts, CI, tests) gets nothing, so it stays one line on failure. --json does not
 * turn it off: the JSON object is on stdout, which the bar never touches.
 */
export function createProgress(stream: CliOutputStream): ProgressReporter {
  if (!isTerminal(stream)) return quiet;
  let bar: SingleBar | undefined;
  let phase: ImportProgress['phase'] | undefined;
  return {
    update(progress) {
      if (progress.phase !== phase) {
        bar?.stop();
        phase = progress.phase;
        const checking = phase === 'checking';
        bar = new SingleBar(
          {
            // A terminal's stream, so a process's: what cli-progress draws on.
            stream: stream as NodeJS.WritableStream,
            format: checking
              ? 'Checking  [{bar}] {percentage}% | {size}'
              : 'Importing [{bar}] {percentage}% | {value}/{total} rows',
            hideCursor: true,
            clearOnComplete: false,
            fps: 10,
          },
          Presets.shades_classic,
        );
        bar.start(Math.max(progress.total, 1), 0, { size: megabytes(progress.total) });
      }
      bar?.update(progress.done);
    },
    stop() {
      bar?.stop();
      bar = undefined;
    },
  };
}
