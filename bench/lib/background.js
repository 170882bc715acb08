// Worker thread: background load for the event-loop stall check, on its own event loop so
// that parsing large responses does not delay the probe's timers in the main thread.
import { parentPort, workerData } from 'node:worker_threads';
import { closedLoop } from './http-client.js';

parentPort.postMessage(await closedLoop(workerData));
