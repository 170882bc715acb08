import type { FastifyBaseLogger } from 'fastify';

/** Whether a logger writes `level` (pino's own answer; a logger without one writes all). */
export function levelEnabled(logger: FastifyBaseLogger, level: string): boolean {
  const check = (logger as { isLevelEnabled?: (level: string) => boolean }).isLevelEnabled;
  return check ? check.call(logger, level) : true;
}

type Bindings = Record<string, unknown>;
type Method = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/**
 * A request's logger that becomes a real child (with the request id bound) only when
 * something logs through it. Fastify otherwise makes a pino child for every request, which
 * costs about as much as the request's own log line; most requests log nothing but that line,
 * which the shell writes through the host's logger with the request id as a field (host.ts).
 */
class LazyChildLogger {
  private made: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: object,
  ) {}

  private real(): FastifyBaseLogger {
    this.made ??= this.parent.child(this.bindings, this.options as never);
    return this.made;
  }

  get level(): string {
    return this.made?.level ?? this.parent.level;
  }

  set level(level: string) {
    this.real().level = level;
  }

  isLevelEnabled(level: string): boolean {
    return levelEnabled(this.made ?? this.parent, level);
  }

  child(bindings: Bindings, options?: object): FastifyBaseLogger {
    return this.real().child(bindings, options as never);
  }

  private log(method: Method, args: unknown[]): void {
    (this.real()[method] as (...args: unknown[]) => void)(...args);
  }

  fatal(...args: unknown[]): void {
    this.log('fatal', args);
  }
  error(...args: unknown[]): void {
    this.log('error', args);
  }
  warn(...args: unknown[]): void {
    this.log('warn', args);
  }
  info(...args: unknown[]): void {
    this.log('info', args);
  }
  debug(...args: unknown[]): void {
    // Below the parent's level nothing is written: no child is made for it either.
    if (this.isLevelEnabled('debug')) this.log('debug', args);
  }
  trace(...args: unknown[]): void {
    if (this.isLevelEnabled('trace')) this.log('trace', args);
  }
  silent(): void {}
}

/** Fastify's `childLoggerFactory`: the request's logger, made real on first use. */
export function lazyChildLogger(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: object,
): FastifyBaseLogger {
  // A route with a log level of its own gets its child at once (its level differs from ours).
  if ('level' in options) return logger.child(bindings, options as never);
  return new LazyChildLogger(logger, bindings, options) as unknown as FastifyBaseLogger;
}
