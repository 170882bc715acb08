// Types of stalls.js for test/stalls.e2e.test.ts.
export interface LatencySummary {
  count: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  statuses: Record<string, number>;
  errors: number;
}

export interface StallFixture {
  dir: string;
  file: string;
  orgs: Record<'dots' | 'big' | 'small' | 'imports', { id: string; slug: string }>;
  keys: Record<'reader' | 'quota' | 'dots', string>;
  itemId: string;
  importFile: string;
  sizes: { dots: number; big: number; imported: number };
}

export interface StallServer {
  port: number;
  apiUrl: string;
  adminUrl: string;
  pid: number;
  output: string[];
  stop(): Promise<void>;
}

export interface Measured<T> {
  health: LatencySummary;
  item: LatencySummary;
  seconds: number;
  /** The server's main thread: ms on a CPU and ms waiting for one (Linux; null elsewhere). */
  mainThread: { cpuMs: number; waitMs: number } | null;
  result: T;
}

export const BIN: string;
export const ADMIN_TOKEN: string;
export const DEFAULT_SIZES: StallFixture['sizes'];
export const DOT_SEARCH: string;
export const HOLD_MS: number;

export function buildStallFixture(
  dir: string,
  sizes?: StallFixture['sizes'],
): Promise<StallFixture>;
export function startStallServer(
  fixture: StallFixture,
  env?: Record<string, string>,
): Promise<StallServer>;
export function baseline(
  server: StallServer,
  fixture: StallFixture,
  ms?: number,
): Promise<Measured<Record<string, never>>>;
export function searchScenario(
  server: StallServer,
  fixture: StallFixture,
): Promise<Measured<{ searches: Array<string | number>; durations: number[] }>>;
export function lockScenario(
  server: StallServer,
  fixture: StallFixture,
): Promise<Measured<{ charged: Array<{ status: number; ms: number; started: number }> }>>;
export function importScenario(
  server: StallServer,
  fixture: StallFixture,
): Promise<Measured<{ code: number | null; output: string }>>;
export function deleteScenario(
  server: StallServer,
  fixture: StallFixture,
): Promise<
  Measured<{
    status: number;
    body: { data?: { deleted?: { items: number } } };
    ms: number;
  }>
>;
