import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The nginx configuration the self-hosting page shows is the file the e2e tier runs
 * (test/nginx-proxy.e2e.test.ts): on the English page the block is that file byte for byte; on
 * the Spanish page its directives are, byte for byte and in the same places, with every comment
 * in Spanish.
 */
const ROOT = path.join(import.meta.dirname, '..');
const EXAMPLE = readFileSync(path.join(ROOT, 'deploy', 'nginx', 'stockroom.conf'), 'utf8');

/** The nginx block of a language's self-hosting page. */
function block(locale: string): string | undefined {
  const page = readFileSync(path.join(ROOT, 'docs', locale, 'self-hosting.mdx'), 'utf8');
  const blocks = [...page.matchAll(/^```text\n(# Stockroom [\s\S]*?)^```$/gm)].filter((match) =>
    match[1]?.includes('upstream stockroom_api {'),
  );
  expect(blocks).toHaveLength(1);
  return blocks[0]?.[1];
}

const isComment = (line: string) => line.trimStart().startsWith('#');

/** The directives and blank lines, with each run of comment lines as one `#`. */
function shape(config: string): string[] {
  const out: string[] = [];
  for (const line of config.split('\n')) {
    if (!isComment(line)) out.push(line);
    else if (out.at(-1) !== '#') out.push('#');
  }
  return out;
}

describe('the nginx example of the self-hosting page', () => {
  it('is deploy/nginx/stockroom.conf verbatim (en)', () => {
    expect(block('en')).toBe(EXAMPLE);
  });

  it('is deploy/nginx/stockroom.conf with its comments in Spanish (es)', () => {
    const spanish = block('es') ?? '';
    expect(shape(spanish)).toEqual(shape(EXAMPLE));
    const english = new Set(EXAMPLE.split('\n').filter(isComment));
    const comments = spanish.split('\n').filter(isComment);
    expect(comments.length).toBeGreaterThanOrEqual(english.size);
    expect(comments.filter((line) => english.has(line))).toEqual([]);
  });
});
