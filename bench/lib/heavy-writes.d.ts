// Types of heavy-writes.js for test/heavy-writes.e2e.test.ts.
import type { LatencySummary } from './stalls.js';

export interface HeavyFixture {
  engine: 'sqlite' | 'postgres';
  databaseUrl: string;
  orgs: Record<'doomed' | 'small' | 'imports', { id: string; slug: string }>;
  keys: Record<'quota' | 'plain', string>;
  itemId: string;
  importFile: string;
  sizes: { deleted: number; imported: number };
}

export interface HeavyServer {
  port: number;
  pid: number;
  output: string[];
  stop(): Promise<void>;
}

export interface HeavyRun {
  /** Item detail with the key that has a quota. */
  item: LatencySummary;
  /** The same requests with a key without a quota (no write). */
  reference: LatencySummary;
  result: { code: number | null; output: string; seconds: number };
}

export const DEFAULT_SIZES: HeavyFixture['sizes'];
export const RATE: number;
export function buildHeavyFixture(
  dir: string,
  databaseUrl: string,
  sizes?: HeavyFixture['sizes'],
): Promise<HeavyFixture>;
export function startHeavyServer(
  fixture: HeavyFixture,
  env?: Record<string, string>,
): Promise<HeavyServer>;
export function orgDeleteScenario(server: HeavyServer, fixture: HeavyFixture): Promise<HeavyRun>;
export function importScenario(server: HeavyServer, fixture: HeavyFixture): Promise<HeavyRun>;
export const SCENARIOS: Array<
  [string, (server: HeavyServer, fixture: HeavyFixture) => Promise<HeavyRun>]
>;
