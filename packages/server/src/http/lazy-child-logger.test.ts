import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { lazyChildLogger, levelEnabled } from './lazy-child-logger.js';

/** A pino logger at `level` whose lines land in `lines`, and a count of the children it made. */
function capture(level: string) {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const logger = pino({ level }, stream);
  let children = 0;
  const child = logger.child.bind(logger);
  logger.child = ((...args: Parameters<typeof child>) => {
    children++;
    return child(...args);
  }) as typeof logger.child;
  return { logger, lines, children: () => children };
}

describe('the lazy request logger', () => {
  it('makes no child until something is written, then one with the request id bound', () => {
    const { logger, lines, children } = capture('info');
    const request = lazyChildLogger(logger, { reqId: 'r-1' }, {});
    request.debug({ ignored: true }, 'below the level');
    expect(children()).toBe(0);
    request.error({ err: 'boom' }, 'failed');
    request.warn('again');
    expect(children()).toBe(1);
    expect(lines.map(({ reqId, msg }) => [reqId, msg])).toEqual([
      ['r-1', 'failed'],
      ['r-1', 'again'],
    ]);
  });

  it('writes debug lines when the parent logs at debug, and reports levels like pino', () => {
    const { logger, lines } = capture('debug');
    const request = lazyChildLogger(logger, { reqId: 'r-2' }, {});
    expect(request.level).toBe('debug');
    expect(levelEnabled(request, 'trace')).toBe(false);
    request.debug('received');
    expect(lines).toMatchObject([{ reqId: 'r-2', msg: 'received', level: 20 }]);
  });

  it('gives a route with a level of its own its child at once', () => {
    const { logger, children } = capture('info');
    const request = lazyChildLogger(logger, { reqId: 'r-3' }, { level: 'warn' });
    expect(children()).toBe(1);
    expect(request.level).toBe('warn');
  });
});
