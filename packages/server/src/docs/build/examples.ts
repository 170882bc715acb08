import { visit } from 'unist-util-visit';
import { LOCALES } from '../i18n.js';
import type { Pages } from './content.js';

/**
 * The curl examples of the docs, so a test can run each one against a live server.
 *
 * Convention: in a `bash` code block, every command that starts with `curl` (continued over
 * lines ending in `\`) is followed by a line `# → STATUS`, the status the docs promise. The
 * examples use `http://127.0.0.1:3000` (API), `http://127.0.0.1:3001` (docs),
 * `http://127.0.0.1:3002` (admin) and the shell variables `$STOCKROOM_API_KEY`, `$ITEM_ID`,
 * `$CURSOR`, `$ADMIN_TOKEN` and `$KEY_ID` (the id of a key of the organization, not the one
 * in `$STOCKROOM_API_KEY`: an example may change it).
 */

export interface CurlExample {
  /** `docs/en/errors.mdx:42` */
  where: string;
  command: string;
  /** Null when the `# → STATUS` line is missing (a test reports it). */
  status: number | null;
}

const SHELLS = new Set(['bash', 'sh', 'shell']);
const EXPECTED = /^#\s*→\s*(\d{3})\s*$/;

export function curlExamples(pages: Pages): CurlExample[] {
  const examples: CurlExample[] = [];
  for (const locale of LOCALES) {
    for (const page of pages[locale].values()) {
      visit(page.tree, 'code', (node) => {
        if (!SHELLS.has(node.lang ?? '')) return;
        const lines = node.value.split('\n');
        const firstLine = node.position?.start.line ?? 0;
        for (let i = 0; i < lines.length; i++) {
          if (!/^curl\s/.test(lines[i] ?? '')) continue;
          const start = i;
          let command = lines[i] ?? '';
          while (command.endsWith('\\') && i + 1 < lines.length) {
            i++;
            command = `${command.slice(0, -1).trimEnd()} ${(lines[i] ?? '').trim()}`;
          }
          const match = EXPECTED.exec(lines[i + 1] ?? '');
          examples.push({
            // +1: the fence line comes before the code's first line.
            where: `${page.file}:${firstLine + 1 + start}`,
            command,
            status: match ? Number(match[1]) : null,
          });
        }
      });
    }
  }
  return examples;
}
