import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from 'fastify';
import {
  clientAddressOf,
  resolveClientAddress,
  type TrustProxy,
  trustFunction,
  useClientAddress,
} from './client-address.js';
import { answerConnect, type Header, rawAnswer } from './connect.js';
import { lazyChildLogger } from './lazy-child-logger.js';
import { requestIdReader } from './request-id.js';
import { keepRouteTable, RouteMethods } from './route-methods.js';
import { rememberRoutes, routeOf } from './route-of.js';

export type { Header } from './connect.js';

/**
 * The shell every host (the public API, the admin API, the docs) is built in: the Fastify
 * options, the headers of every answer, the answers to what no route takes (404, 405, a bad
 * URL, a body that cannot be read, CONNECT, a request that is not HTTP), the one log line per
 * request, and the error handler. A host describes what differs (how an error looks, which
 * headers it sends, its table of errors) and keeps its routes and its own hooks.
 */

/** An error as it is written straight to a socket, where there is no reply to send it with. */
export interface RawError {
  status: number;
  /** Headers of this error (Allow, WWW-Authenticate), before the host's own. */
  headers: readonly Header[];
  type: string;
  body: string;
}

/** How a host answers with one of its errors: on a reply, or as bytes for a socket. */
export interface ErrorRepresentation<E> {
  send(request: FastifyRequest, reply: FastifyReply, error: E): FastifyReply;
  raw(error: E, requestId: string): RawError;
}

/** Which error a host answers for each thing the shell meets. `path` is the URL without query. */
export interface ErrorTable<E> {
  /** A path with a malformed percent-encoding (Fastify's FST_ERR_BAD_URL, before routing). */
  badUrl(request: FastifyRequest, path: string): E;
  /** A path parameter longer than the router reads (FST_ERR_MAX_PARAM_LENGTH, before routing). */
  paramTooLong(request: FastifyRequest, path: string): E;
  /**
   * A request no route takes, answered before its body is read. `allowed`: the methods of the
   * routes whose template matches the path, sorted (empty when none does): a 405 with Allow.
   */
  noRoute(request: FastifyRequest, path: string, allowed: readonly string[]): E;
  /** CONNECT, which never reaches a route; `allowed` is every method of every route, sorted. */
  connect(allowed: readonly string[]): E;
  /** A 4xx Fastify raised while reading the request: bad JSON, too large, unsupported type… */
  unreadable(request: FastifyRequest, error: FastifyError): E;
  /** Errors of the host's own kinds (thrown by its routes and hooks); undefined for the rest. */
  own?(error: Error, request: FastifyRequest): E | undefined;
  /** Anything else: logged as an error with the message `log`, then answered. */
  internal: { log: string; answer(request: FastifyRequest, error: Error): E };
  /** Any other error Fastify meets before routing (async constraints, which no route has). */
  frameworkFailure: { log: string; answer(request: FastifyRequest): E };
  /**
   * Requests Node cannot parse (headers over MAX_HEADER_BYTES, broken HTTP); a timeout is a
   * bodiless 408 on every host. Without it, Fastify answers these itself.
   */
  unparsed?: { headersTooLarge(): E; malformed(): E };
}

export interface HeadersPolicy {
  /**
   * Whether each request is named by a well-formed incoming x-request-id (else a new UUID),
   * echoed in x-request-id and named in the log lines of answers written to a socket. Otherwise
   * Fastify numbers requests itself, and the number is seen in the request lines only.
   */
  requestIds: boolean;
  /** On every answer, whichever path it takes. */
  always: readonly Header[];
  /** On every answer made with a reply, after `always`. */
  onReplies?: readonly Header[];
  /** On every answer written straight to a socket, after `always`. */
  onSockets?: readonly Header[];
  /** What the host's own hooks add to an answer, for the answers made before routing (no hook runs). */
  beforeRouting?(request: FastifyRequest, reply: FastifyReply): void;
}

export interface HostDescription<E> {
  /** The host's logger (server.ts names the docs and admin hosts in theirs); none when omitted. */
  logger?: FastifyBaseLogger | false;
  trustProxy: TrustProxy;
  /** The longest path parameter the router reads; longer is `paramTooLong`. */
  maxParamLength: number;
  /** Whether a request arriving while the host closes gets Fastify's own 503 (its default). */
  refuseWhileClosing?: boolean;
  headers: HeadersPolicy;
  representation: ErrorRepresentation<E>;
  errors: ErrorTable<E>;
  /**
   * A refusal that comes before anything a request asks is looked at (the admin token): in
   * the hooks before routing is judged, before the answers Fastify makes, and for CONNECT.
   * `clientAddress` works out the caller's address (as TRUST_PROXY says) when called.
   */
  refuse?(headers: IncomingHttpHeaders, clientAddress: () => string): E | undefined;
  /**
   * Secrets of the process (the admin token) that must never come back in an answer nor
   * reach a log line: an incoming x-request-id holding one is replaced, as a key-shaped one is.
   */
  secrets?: readonly string[];
  /**
   * The host's own work on every request, registered after the shell's header hook and
   * before requests no route takes are answered (the API: its debug line, CORS, URL length).
   */
  beforeRouting?(app: FastifyInstance): Promise<void> | void;
  /** Routes a plugin adds that answer nothing of their own (CORS's `*`): taken as no route. */
  catchAllRoutes?: readonly string[];
  /** Fields of the request line between requestId and clientAddress (the API's keyId). */
  logFields?(request: FastifyRequest): Record<string, unknown>;
  /** Work that must end before a request's log line is written (the API gives back quota). */
  settle?(request: FastifyRequest, reply: FastifyReply): Promise<unknown> | undefined;
  /** Told of every answer (the API's metrics); `route` is null for a request no route took. */
  count?(route: string | null, status: number, seconds: number): void;
  /** Hooks that must run before every other (tracing, when on: tracing/tracing.ts). */
  instrument?(app: FastifyInstance): void;
}

/**
 * The request line and headers together, in bytes (Node's default, set explicitly so a
 * --max-http-header-size flag cannot change it).
 */
export const MAX_HEADER_BYTES = 16_384;

/** The path of a request, without its query string. */
function pathOf(request: FastifyRequest): string {
  return request.url.split('?')[0] as string;
}

/** Builds a host's Fastify instance (not listening yet, without routes) from its description. */
export async function createHost<E>(host: HostDescription<E>): Promise<FastifyInstance> {
  const { errors, representation, headers } = host;
  const trust = trustFunction(host.trustProxy);
  const catchAll = host.catchAllRoutes ?? [];
  const routes = new RouteMethods(catchAll);
  const requestIdOf = requestIdReader(host.secrets ?? []);
  const send = (request: FastifyRequest, reply: FastifyReply, error: E) =>
    representation.send(request, reply, error);

  /**
   * The one log line of a request (never a URL, which may hold anything, nor a header). It is
   * written through the host's logger with the request id as `reqId`, as a request's child
   * logger would bind it, so that no child is made for a request that logs nothing else.
   */
  const logRequest = (
    request: FastifyRequest,
    reply: FastifyReply,
    route: string | undefined = routeOf(request).url,
  ): void => {
    app.log.info(
      {
        reqId: request.id,
        method: request.method,
        route: route ?? null,
        status: reply.statusCode,
        durationMs: Math.round(reply.elapsedTime * 100) / 100,
        requestId: request.id,
        ...host.logFields?.(request),
        clientAddress: clientAddressOf(request),
      },
      'request',
    );
  };

  const replyHeaders = (request: FastifyRequest, reply: FastifyReply): void => {
    if (headers.requestIds) reply.header('x-request-id', request.id);
    for (const [name, value] of headers.always) reply.header(name, value);
    for (const [name, value] of headers.onReplies ?? []) reply.header(name, value);
  };

  /** The headers of an answer written to a socket, after the error's own, before its type. */
  const socketHeaders = (requestId: string): Header[] => [
    ...(headers.requestIds ? [['x-request-id', requestId] as const] : []),
    ...headers.always,
    ...(headers.onSockets ?? []),
  ];

  const app = Fastify({
    ...(host.logger
      ? { loggerInstance: host.logger, childLoggerFactory: lazyChildLogger }
      : { logger: false }),
    // One line per request comes from the shell's onResponse hook, with the fields it chooses.
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: trust,
    requestIdHeader: false,
    ...(headers.requestIds ? { genReqId: requestIdOf } : {}),
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: host.maxParamLength },
    http: { maxHeaderSize: MAX_HEADER_BYTES },
    ...(host.refuseWhileClosing ? {} : { return503OnClosing: false }),
    // Requests the router cannot even look up (a malformed percent-encoding, an overlong path
    // parameter) skip every hook: they answer here, with the headers and the log line the
    // hooks would have given them.
    frameworkErrors: (error, request, reply) => {
      replyHeaders(request, reply);
      headers.beforeRouting?.(request, reply);
      let answer = host.refuse?.(request.headers, () => clientAddressOf(request));
      if (answer === undefined) {
        const path = pathOf(request);
        if (error.code === 'FST_ERR_BAD_URL') answer = errors.badUrl(request, path);
        else if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
          answer = errors.paramTooLong(request, path);
        } else {
          request.log.error({ err: error }, errors.frameworkFailure.log);
          answer = errors.frameworkFailure.answer(request);
        }
      }
      send(request, reply, answer);
      logRequest(request, reply);
      host.count?.(null, reply.statusCode, reply.elapsedTime / 1000);
    },
    ...(errors.unparsed ? { clientErrorHandler: answerClientError } : {}),
  });

  /**
   * Requests Node cannot parse (headers over MAX_HEADER_BYTES, broken HTTP) never become a
   * request object; they still get the host's answer, with a fresh request id, and a log line.
   */
  function answerClientError(error: Error & { code?: string }, socket: Socket): void {
    // A reset connection has no one left to answer.
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    if (!socket.writable) {
      socket.destroy(error);
      return;
    }
    const requestId = randomUUID();
    let answer: RawError;
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      // Nothing of the request arrived in time: no one reads a body, so none is sent.
      answer = { status: 408, headers: [], type: '', body: '' };
    } else {
      const unparsed = errors.unparsed as NonNullable<ErrorTable<E>['unparsed']>;
      const refusal =
        error.code === 'HPE_HEADER_OVERFLOW' ? unparsed.headersTooLarge() : unparsed.malformed();
      answer = representation.raw(refusal, requestId);
    }
    // A HEAD request gets the headers only, even when refused before it could be read.
    const raw = (error as { rawPacket?: Buffer }).rawPacket;
    const head = raw !== undefined && raw.subarray(0, 5).toString('latin1') === 'HEAD ';
    // Headers that could not be read name no one: the address is the connection's.
    const clientAddress = socket.remoteAddress ?? '';
    app.log.info(
      {
        method: null,
        route: null,
        status: answer.status,
        ...(headers.requestIds ? { requestId } : {}),
        reason: error.code,
        clientAddress,
      },
      'request',
    );
    host.count?.(null, answer.status, 0);
    socket.end(
      rawAnswer(
        {
          status: answer.status,
          headers: [
            ...answer.headers,
            ...socketHeaders(requestId),
            ...(answer.body === '' ? [] : [['content-type', answer.type] as const]),
          ],
          body: answer.body,
        },
        { headOnly: head },
      ),
    );
  }

  host.instrument?.(app);

  // CONNECT never reaches Fastify (connect.ts): refused like any method the host does not take.
  answerConnect(app.server, (request) => {
    const requestId = requestIdOf(request);
    const error =
      host.refuse?.(request.headers, () => resolveClientAddress(request, trust)) ??
      errors.connect(routes.all());
    const answer = representation.raw(error, requestId);
    app.log.info(
      {
        method: 'CONNECT',
        route: null,
        status: answer.status,
        ...(headers.requestIds ? { requestId } : {}),
        clientAddress: resolveClientAddress(request, trust),
      },
      'request',
    );
    host.count?.(null, answer.status, 0);
    return {
      status: answer.status,
      headers: [...answer.headers, ...socketHeaders(requestId), ['content-type', answer.type]],
      body: answer.body,
    };
  });

  useClientAddress(app, trust);
  rememberRoutes(app);
  app.addHook('onRoute', (route) =>
    routes.add(route.url, route.method, route.config?.refusesMethods === true),
  );
  keepRouteTable(app, routes);

  // Hooks in callback style: no promise per request where nothing is awaited. Replying from a
  // hook ends the request there (done is not called, as Fastify asks).
  app.addHook('onRequest', (request, reply, done) => {
    replyHeaders(request, reply);
    const refusal = host.refuse?.(request.headers, () => clientAddressOf(request));
    if (refusal !== undefined) {
      send(request, reply, refusal);
      return;
    }
    done();
  });

  await host.beforeRouting?.(app);

  const noRoute = (request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    const path = pathOf(request);
    return send(request, reply, errors.noRoute(request, path, routes.at(path)));
  };

  // Unknown paths, and methods without a route on known ones, are answered here, before the
  // body is read: a POST of malformed JSON to a path that does not exist is a 404 (or a 405),
  // not a 400 about a body no route would read.
  app.addHook('onRequest', (request, reply, done) => {
    if (
      request.is404 ||
      (catchAll.length > 0 && catchAll.includes(routeOf(request).url as string))
    ) {
      noRoute(request, reply);
      return;
    }
    done();
  });

  // Reached only if the hook above did not answer (it answers every request no route takes).
  app.setNotFoundHandler(async (request, reply) => noRoute(request, reply));

  app.addHook('onResponse', (request, reply, done) => {
    const finish = () => {
      const route = routeOf(request).url;
      logRequest(request, reply, route);
      if (host.count) {
        const matched = !request.is404 && route !== undefined && !catchAll.includes(route);
        host.count(matched ? route : null, reply.statusCode, reply.elapsedTime / 1000);
      }
      done();
    };
    const pending = host.settle?.(request, reply);
    if (pending) pending.then(finish);
    else finish();
  });

  app.setErrorHandler((error: FastifyError | Error, request, reply) => {
    const own = errors.own?.(error, request);
    if (own !== undefined) return send(request, reply, own);
    const status = (error as FastifyError).statusCode;
    if (status !== undefined && status >= 400 && status < 500) {
      return send(request, reply, errors.unreadable(request, error as FastifyError));
    }
    request.log.error({ err: error }, errors.internal.log);
    return send(request, reply, errors.internal.answer(request, error));
  });

  return app;
}
