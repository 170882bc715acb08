import {
  type Attributes,
  type Context,
  defaultTextMapGetter,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { routeOf } from '../http/route-of.js';
import { maskKeys } from '../keys/format.js';
import { VERSION } from '../version.js';

/**
 * OpenTelemetry tracing (docs/en/self-hosting.mdx, "Tracing"). This module is loaded only when
 * an OTLP endpoint is configured (config.ts `tracing`): a process without it never loads any
 * @opentelemetry package. Nothing here is global: no global tracer provider, context manager or
 * propagator is registered, so each set of services (each worker, each test server) has its own
 * SDK, and nothing else in the process is instrumented behind our back.
 *
 * Spans: one SERVER span per request on each host, named by method and route template; a
 * child span per store call (db.system sqlite or postgresql, named by operation, never a
 * parameter) and per Redis rate-limit command, made only inside a request's span.
 */

/** The attributes a host adds to its request spans once answered (the API: the key's id). */
export type DescribeRequest = (request: FastifyRequest) => Attributes | undefined;

/** How long shutdown waits for the last spans to be exported. */
const SHUTDOWN_DEADLINE_MS = 3000;

const SPAN = Symbol('stockroom.span');
const CONTEXT = Symbol('stockroom.traceContext');

interface Traced {
  [SPAN]?: Span;
  [CONTEXT]?: Context;
}

export interface TracingOptions {
  /** Where spans go: the OTLP/HTTP exporter configured by the OTEL_* variables unless given. */
  exporter?: SpanExporter;
}

export class Tracing {
  private readonly provider: BasicTracerProvider;
  private readonly tracer: Tracer;
  private readonly contexts = new AsyncLocalStorageContextManager();
  private readonly propagator = new W3CTraceContextPropagator();
  private closing: Promise<void> | null = null;

  constructor(options: TracingOptions = {}) {
    // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES override these defaults.
    const resource = resourceFromAttributes({
      'service.name': 'stockroom',
      'service.version': VERSION,
      // Tells apart the workers of `serve --workers N`, each exporting its own spans.
      'process.pid': process.pid,
    }).merge(detectResources({ detectors: [envDetector] }));
    // The exporter reads OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT, _HEADERS, _TIMEOUT…; the
    // provider OTEL_TRACES_SAMPLER(_ARG) and the span limits; the processor OTEL_BSP_*.
    const exporter = options.exporter ?? new OTLPTraceExporter();
    this.provider = new BasicTracerProvider({
      resource,
      spanProcessors: [new BatchSpanProcessor(exporter)],
    });
    this.tracer = this.provider.getTracer('stockroom', VERSION);
    this.contexts.enable();
  }

  /** The context of the code running now: a request's span inside its handling. */
  active(): Context {
    return this.contexts.active();
  }

  /**
   * Hooks that give each request of `app` its SERVER span: registered first (http/host.ts
   * `instrument`), so that every later hook, the handler and their store calls run inside it.
   */
  instrument(app: FastifyInstance, describe?: DescribeRequest): void {
    app.addHook('onRequest', (request, _reply, done) => {
      const parent = this.propagator.extract(ROOT_CONTEXT, request.headers, defaultTextMapGetter);
      const span = this.tracer.startSpan(
        request.method,
        { kind: SpanKind.SERVER, attributes: requestAttributes(request) },
        parent,
      );
      const traced = request as Traced;
      traced[SPAN] = span;
      traced[CONTEXT] = trace.setSpan(parent, span);
      this.contexts.with(traced[CONTEXT], done);
    });
    // A body is read from socket events, outside the request's context: enter it again.
    app.addHook('preHandler', (request, _reply, done) => {
      const context = (request as Traced)[CONTEXT];
      if (context) this.contexts.with(context, done);
      else done();
    });
    app.addHook('onResponse', (request, reply, done) => {
      this.end(request, reply, describe);
      done();
    });
  }

  private end(request: FastifyRequest, reply: FastifyReply, describe?: DescribeRequest): void {
    const traced = request as Traced;
    // Answered before the hooks above ran (a malformed URL): the span is made now, as long.
    const span =
      traced[SPAN] ??
      this.tracer.startSpan(
        request.method,
        {
          kind: SpanKind.SERVER,
          attributes: requestAttributes(request),
          startTime: Date.now() - reply.elapsedTime,
        },
        this.propagator.extract(ROOT_CONTEXT, request.headers, defaultTextMapGetter),
      );
    traced[SPAN] = undefined;
    const route = request.is404 ? undefined : routeOf(request).url;
    // A route template only (never the raw URL); `*` is the CORS plugin's catch-all.
    if (route !== undefined && route !== '*') {
      span.updateName(`${request.method} ${route}`);
      span.setAttribute('http.route', route);
    }
    const status = reply.statusCode;
    span.setAttribute('http.response.status_code', status);
    const extra = describe?.(request);
    if (extra) span.setAttributes(extra);
    if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  }

  /** A span around `work`, a child of the active request span; none outside a request. */
  private around<T>(name: string, attributes: Attributes, work: () => T): T {
    const parent = this.contexts.active();
    if (trace.getSpan(parent) === undefined) return work();
    const span = this.tracer.startSpan(name, { kind: SpanKind.CLIENT, attributes }, parent);
    let result: T;
    try {
      result = this.contexts.with(trace.setSpan(parent, span), work);
    } catch (error) {
      failed(span, error);
      span.end();
      throw error;
    }
    if (result instanceof Promise) {
      result.then(
        () => span.end(),
        (error: unknown) => {
          failed(span, error);
          span.end();
        },
      );
    } else span.end();
    return result;
  }

  /**
   * The store with a CLIENT span around each of its calls made inside a request: named
   * `store.<operation>`, with db.system and the operation, never a parameter's value.
   * Properties that are not functions (availability, engine…) are the store's own.
   */
  traceStore<S extends object>(store: S, system: 'sqlite' | 'postgresql'): S {
    const wrapped = new Map<PropertyKey, unknown>();
    return new Proxy(store, {
      get: (target, property) => {
        // Getters read the store itself (its private fields are not the proxy's).
        const value = Reflect.get(target, property);
        if (typeof value !== 'function' || property === 'constructor') return value;
        let wrapper = wrapped.get(property);
        if (wrapper === undefined) {
          const operation = String(property);
          const attributes = {
            'db.system': system,
            'db.system.name': system,
            'db.operation.name': operation,
          };
          wrapper = (...args: unknown[]) =>
            this.around(`store.${operation}`, attributes, () =>
              (value as (...a: unknown[]) => unknown).apply(target, args),
            );
          wrapped.set(property, wrapper);
        }
        return wrapper;
      },
    });
  }

  /**
   * The Redis rate limiter with a CLIENT span around each command a request makes: its hit
   * (one EVALSHA of the counting script) and its PING (the health check).
   */
  traceRedis<L extends { hit: (...args: never[]) => unknown; ping(): Promise<void> }>(
    limiter: L,
  ): L {
    const hit = limiter.hit.bind(limiter) as (...args: unknown[]) => unknown;
    const ping = limiter.ping.bind(limiter);
    const attributes = (command: string) => ({
      'db.system': 'redis',
      'db.system.name': 'redis',
      'db.operation.name': command,
    });
    const hitAttributes = attributes('EVALSHA');
    const pingAttributes = attributes('PING');
    Object.assign(limiter, {
      hit: (...args: unknown[]) =>
        this.around('redis rate-limit hit', hitAttributes, () => hit(...args)),
      ping: () => this.around('redis PING', pingAttributes, ping),
    });
    return limiter;
  }

  /** Exports what is buffered now (tests). */
  forceFlush(): Promise<void> {
    return this.provider.forceFlush();
  }

  /** Exports the spans still buffered and stops, within SHUTDOWN_DEADLINE_MS. */
  shutdown(): Promise<void> {
    this.closing ??= new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, SHUTDOWN_DEADLINE_MS);
      timer.unref();
      this.provider
        .shutdown()
        .catch(() => {})
        .finally(() => {
          clearTimeout(timer);
          this.contexts.disable();
          resolve();
        });
    });
    return this.closing;
  }
}

/** What is known of a request when it arrives: its method and path (never its query). */
function requestAttributes(request: FastifyRequest): Attributes {
  const url = request.url;
  const query = url.indexOf('?');
  return {
    'http.request.method': request.method,
    // A key sent in the path by mistake is masked, as in the API's messages.
    'url.path': maskKeys(query === -1 ? url : url.slice(0, query)),
    'url.scheme': request.protocol,
  };
}

function failed(span: Span, error: unknown): void {
  span.setStatus({ code: SpanStatusCode.ERROR });
  span.setAttribute('error.type', (error as Error)?.name ?? 'Error');
}

export function startTracing(options: TracingOptions = {}): Tracing {
  return new Tracing(options);
}
