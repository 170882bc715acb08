import v8 from 'node:v8';

/**
 * How far V8 lets the old generation grow past what the last full collection kept, for a
 * running server. V8's own choice for a small heap is up to four times the live set: under
 * load the server promotes short-lived objects (requests in flight across a scavenge, pages
 * being written), and with a live set of 25-30 MB the old generation filled up to 100-116 MB
 * of garbage before the next full collection, the largest part of the process's resident
 * memory peak (BENCHMARKS.md, "Other benchmarks"). Twice the live set bounds that at the cost of more
 * frequent full collections, which run mostly on V8's background thread.
 */
export const SERVER_HEAP_GROWING_PERCENT = 100;

/**
 * The V8 flag to set, or null when the operator already chose one on the command line
 * (`node --heap-growing-percent=N …`): theirs wins. V8 accepts dashes or underscores.
 */
export function heapGrowthFlag(execArgv: readonly string[]): string | null {
  if (execArgv.some((arg) => /^--heap[-_]growing[-_]percent(=|$)/.test(arg))) return null;
  return `--heap-growing-percent=${SERVER_HEAP_GROWING_PERCENT}`;
}

/**
 * Applies the bound to this process. Called before the server allocates anything of note:
 * V8 reads the flag each time it sets the next collection's limit, so it holds from the first
 * full collection on. Not settable through NODE_OPTIONS, which refuses most V8 flags.
 */
export function boundHeapGrowth(execArgv: readonly string[] = process.execArgv): void {
  const flag = heapGrowthFlag(execArgv);
  if (flag) v8.setFlagsFromString(flag);
}
