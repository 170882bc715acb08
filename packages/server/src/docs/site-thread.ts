import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Site, SiteInput } from './resources.js';
import { siteResources } from './resources.js';

/** What the rendering thread posts back. */
export type SiteThreadMessage = { site: Site } | { failure: { name: string; message: string } };

/**
 * The worker's script, built beside this module. Run from the TypeScript sources (the test
 * runner) there is none, and the site is rendered in this thread: the same bytes.
 */
const WORKER_SCRIPT = new URL('./site-thread-worker.js', import.meta.url);

/**
 * Renders the docs in a thread of its own that exits once done, so that the serving thread
 * never loads the renderer. Rendering needs unified, micromark, acorn and highlight.js: in the
 * serving process they cost about 30 MB of resident memory as code and another 50 MB from the
 * rendering, about 20 MB of it live heap that every full collection marks again (measured with
 * a heap snapshot of an idle server: a third of its heap). What is served is a few MB of bytes.
 * Rejects as rendering in this thread would: an invalid page names its file.
 */
export async function renderSiteOffThread(input: SiteInput): Promise<Site> {
  if (!existsSync(fileURLToPath(WORKER_SCRIPT))) {
    const { renderSite } = await import('./site.js');
    return renderSite(input);
  }
  const worker = new Worker(WORKER_SCRIPT, { workerData: input });
  const message = await new Promise<SiteThreadMessage>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) =>
      reject(new Error(`the docs rendering thread stopped unexpectedly (exit code ${code})`)),
    );
  });
  if ('failure' in message) {
    const error = new Error(message.failure.message);
    error.name = message.failure.name;
    throw error;
  }
  return asBuffers(message.site);
}

/** Bodies arrive as Uint8Arrays (structured clone keeps no Buffer): Buffers again, no copy. */
function asBuffers(site: Site): Site {
  for (const resource of siteResources(site)) {
    const bytes = resource.body as Uint8Array;
    resource.body = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  return site;
}
