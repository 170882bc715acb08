import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The nginx configuration the self-hosting page shows is the file the e2e tier runs
 * (test/nginx-proxy.e2e.test.ts): the page's block must be that file, byte for byte, in every
 * language.
 */
const ROOT = path.join(import.meta.dirname, '..');
const EXAMPLE = readFileSync(path.join(ROOT, 'deploy', 'nginx', 'stockroom.conf'), 'utf8');

describe('the nginx example of the self-hosting page', () => {
  for (const locale of ['en', 'es']) {
    it(`is deploy/nginx/stockroom.conf verbatim (${locale})`, () => {
      const page = readFileSync(path.join(ROOT, 'docs', locale, 'self-hosting.mdx'), 'utf8');
      const blocks = [...page.matchAll(/^```text\n(# Stockroom behind nginx[\s\S]*?)^```$/gm)];
      expect(blocks).toHaveLength(1);
      expect(blocks[0]?.[1]).toBe(EXAMPLE);
    });
  }
});
