import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const CLIENT_DIR = fileURLToPath(new URL('../..', import.meta.url));
export const DIST_DIR = path.join(CLIENT_DIR, 'dist');
const SRC_DIR = path.join(CLIENT_DIR, 'src');

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(file));
    else if (!/\.test(-d)?\.ts$/.test(entry.name))
      newest = Math.max(newest, statSync(file).mtimeMs);
  }
  return newest;
}

/**
 * The built package, for the tests that use it as a consumer would (browser, npm pack). They
 * do not build it themselves: `npm test` builds first, and two test files building into one
 * folder at once would race. A missing or stale build fails with the command that fixes it.
 */
export function requireBuiltClient(): { esm: string; cjs: string } {
  const esm = path.join(DIST_DIR, 'index.js');
  const cjs = path.join(DIST_DIR, 'index.cjs');
  const fix = 'run `npm run build -w @stockroom/client` (npm test does it first)';
  if (!existsSync(esm) || !existsSync(cjs)) {
    throw new Error(`packages/client/dist is missing: ${fix}`);
  }
  if (statSync(esm).mtimeMs < newestSource(SRC_DIR)) {
    throw new Error(`packages/client/dist is older than its sources: ${fix}`);
  }
  return { esm, cjs };
}
