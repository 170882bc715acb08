#!/usr/bin/env node
// Runs the compiled CLI; `npm run build` (part of `npm start` and `npm test`) produces it.
import { existsSync } from 'node:fs';

const entry = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('stockroom: not built yet; run `npm run build` in the repository root\n');
  process.exit(1);
}
await import(entry.href);
