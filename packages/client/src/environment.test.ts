import { afterEach, describe, expect, it, vi } from 'vitest';
import { Stockroom } from './client.js';
import { isBrowser } from './environment.js';

/**
 * Browser detection, with the globals of each environment stubbed in this Node process. The
 * real thing runs in Chromium (a page and a module worker) in test/client-browser.e2e.test.ts,
 * and in Deno's and Bun's workers in test/client-runtimes.e2e.test.ts.
 */

const ORG_KEY = 'sr_org_0123456789abcdefghijABCDEFGHIJklmnop';
const USER_KEY = 'sr_usr_0123456789abcdefghijABCDEFGHIJklmnop';

/** A WorkerGlobalScope class of which this process's global object is an instance. */
function workerGlobalScope() {
  function WorkerGlobalScope() {}
  Object.defineProperty(WorkerGlobalScope, Symbol.hasInstance, {
    value: (value: unknown) => value === globalThis,
  });
  return WorkerGlobalScope;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('isBrowser', () => {
  it('is false in Node', () => {
    expect(isBrowser()).toBe(false);
  });

  it('is true in a page', () => {
    vi.stubGlobal('window', { document: {} });
    expect(isBrowser()).toBe(true);
  });

  it('is true in a browser’s Web Worker: a WorkerGlobalScope with importScripts', () => {
    vi.stubGlobal('WorkerGlobalScope', workerGlobalScope());
    vi.stubGlobal('importScripts', () => {});
    expect(isBrowser()).toBe(true);
  });

  it('is false in a Deno worker: a WorkerGlobalScope without importScripts', () => {
    vi.stubGlobal('WorkerGlobalScope', workerGlobalScope());
    expect(isBrowser()).toBe(false);
  });

  it('is false where a WorkerGlobalScope class exists but this global is not one', () => {
    vi.stubGlobal('WorkerGlobalScope', class WorkerGlobalScope {});
    vi.stubGlobal('importScripts', () => {});
    expect(isBrowser()).toBe(false);
  });
});

describe('organization keys in a browser’s Web Worker', () => {
  it('are refused unless allowed; user keys are not', () => {
    vi.stubGlobal('WorkerGlobalScope', workerGlobalScope());
    vi.stubGlobal('importScripts', () => {});
    const baseUrl = 'http://127.0.0.1:9';
    expect(() => new Stockroom({ baseUrl, apiKey: ORG_KEY })).toThrow(
      /organization API key in a browser/,
    );
    expect(
      () => new Stockroom({ baseUrl, apiKey: ORG_KEY, dangerouslyAllowBrowser: true }),
    ).not.toThrow();
    expect(() => new Stockroom({ baseUrl, apiKey: USER_KEY })).not.toThrow();
  });
});
