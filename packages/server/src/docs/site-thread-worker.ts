import { parentPort, workerData } from 'node:worker_threads';
import type { SiteInput } from './resources.js';
import { renderSite } from './site.js';
import type { SiteThreadMessage } from './site-thread.js';

// The rendering thread of site-thread.ts: renders once, posts the site, and ends.
const input = workerData as SiteInput;
let message: SiteThreadMessage;
try {
  message = { site: await renderSite(input) };
} catch (error) {
  message = {
    failure:
      error instanceof Error
        ? { name: error.name, message: error.message }
        : { name: 'Error', message: String(error) },
  };
}
parentPort?.postMessage(message);
