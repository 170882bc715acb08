import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadPages } from '../packages/server/src/docs/build/content.js';
import { curlExamples } from '../packages/server/src/docs/build/examples.js';

/**
 * The docs' curl examples as written: each states the status it expects and uses the
 * documented placeholders only. Each one run against a live server: docs-examples.e2e.test.ts.
 */
const ROOT = path.resolve(import.meta.dirname, '..');
const examples = curlExamples(await loadPages(path.join(ROOT, 'docs'))).map((example) => ({
  ...example,
  where: path.relative(ROOT, example.where),
}));

describe('docs curl examples', () => {
  test('there are examples, and each one states the status it expects', () => {
    expect(examples.length).toBeGreaterThan(20);
    const missing = examples.filter((e) => e.status === null).map((e) => e.where);
    expect(missing, 'curl examples without a "# → STATUS" line').toEqual([]);
  });

  test('examples use the documented placeholders only', () => {
    for (const example of examples) {
      expect(example.command, example.where).toMatch(/http:\/\/127\.0\.0\.1:300[012]\//);
      const variables = example.command.match(/\$[A-Z_]+/g) ?? [];
      for (const variable of variables) {
        expect(
          ['$STOCKROOM_API_KEY', '$ITEM_ID', '$CURSOR', '$ADMIN_TOKEN', '$KEY_ID'],
          example.where,
        ).toContain(variable);
      }
    }
  });

  test('the same command promises the same status wherever it appears', () => {
    const promised = new Map<string, { status: number | null; where: string }>();
    for (const example of examples) {
      const seen = promised.get(example.command);
      if (seen) expect(example.status, `${example.where} and ${seen.where}`).toBe(seen.status);
      else promised.set(example.command, { status: example.status, where: example.where });
    }
  });
});
