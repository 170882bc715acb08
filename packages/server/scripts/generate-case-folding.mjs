#!/usr/bin/env node
// Writes src/store/generated/case-folding.ts (see case-folding-table.mjs). Run after changing
// UNICODE_VERSION there, together with a migration that refolds every stored search text.
//
//   npm run generate:case-folding -w stockroom
import { writeFile } from 'node:fs/promises';
import { GENERATED_PATH, renderTable } from './case-folding-table.mjs';

await writeFile(GENERATED_PATH, await renderTable());
process.stdout.write(`wrote ${GENERATED_PATH}\n`);
