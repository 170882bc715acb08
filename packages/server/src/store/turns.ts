/**
 * Long reads (a limit=1000 page is ten slices) give the event loop back between their pieces.
 * With `setImmediate` alone, every piece waiting resumes in the same turn: four pages in flight
 * made each turn four slices long, and a short request that arrived meanwhile waited for all of
 * them. Here the waiters take turns: one resumes per turn of the loop, so a turn holds at most
 * one piece of long work whatever the number of large requests. (When nothing else is waiting
 * the loop turns at once: large requests alone lose no throughput.)
 */
const waiting: Array<() => void> = [];
let scheduled = false;

function resumeOne(): void {
  const resume = waiting.shift();
  // Queued from inside a check-phase callback, this runs in the next turn, not this one.
  if (waiting.length > 0) setImmediate(resumeOne);
  else scheduled = false;
  resume?.();
}

/** Resolves in a later turn of the event loop, after the waiters queued before it. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    if (!scheduled) {
      scheduled = true;
      setImmediate(resumeOne);
    }
  });
}

/**
 * The items in slices of `size`, a turn of the event loop between them (see nextTurn): for a
 * page already read whole, so that turning it into bytes does not hold the loop for all of it.
 */
export async function* inTurns<T>(items: readonly T[], size: number): AsyncGenerator<T[]> {
  for (let start = 0; start < items.length; start += size) {
    if (start > 0) await nextTurn();
    yield items.slice(start, start + size);
  }
}

/** A page read in slices (see inTurns), whole: for callers that want all of it at once. */
export async function collectSlices<T>(slices: AsyncIterable<T[]>): Promise<T[]> {
  const all: T[] = [];
  for await (const slice of slices) {
    for (const value of slice) all.push(value);
  }
  return all;
}
