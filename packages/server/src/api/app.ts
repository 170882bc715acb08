import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import cors from '@fastify/cors';
import swagger from '@fastify/swagger';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from 'fastify';
import type { Services } from '../context.js';
import {
  clientAddressOf,
  resolveClientAddress,
  trustFunction,
  useClientAddress,
} from '../http/client-address.js';
import { answerConnect } from '../http/connect.js';
import { requestIdOf } from '../http/request-id.js';
import { maskKeys } from '../keys/format.js';
import { RateLimiterUnavailableError } from '../keys/rate-limit.js';
import { StoreUnavailableError } from '../store/types.js';
import { VERSION } from '../version.js';
import { OPENAPI_WEBHOOKS } from '../webhooks/openapi.js';
import { authenticate, authorize, WWW_AUTHENTICATE } from './auth.js';
import { ApiError, errorBody } from './errors.js';
import { compileQueryValidator } from './query-validator.js';
import authVerifyRoute from './routes/auth-verify.js';
import healthRoute from './routes/health.js';
import inventoryItemRoute from './routes/inventory-item.js';
import inventoryItemsRoute from './routes/inventory-items.js';
import organizationRoute from './routes/organization.js';
import probesRoute from './routes/probes.js';
import { ErrorResponse, InventoryItem, Organization } from './schemas.js';

/** The routes of the public API, in one explicit list. */
const ROUTES = [
  healthRoute,
  authVerifyRoute,
  organizationRoute,
  inventoryItemsRoute,
  inventoryItemRoute,
  probesRoute,
] as const;

const ALLOW = 'GET, HEAD, OPTIONS';
const OTHER_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'] as const;
/** The paths of ROUTES: other methods on them answer 405 rather than 404. */
const KNOWN_PATHS: readonly string[] = [
  '/api/v1/health',
  '/api/v1/auth/verify',
  '/api/v1/organization',
  '/api/v1/inventory/items',
  '/api/v1/inventory/item',
  '/livez',
  '/readyz',
];
const EXPOSED_HEADERS = [
  'x-request-id',
  'retry-after',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'etag',
  'deprecation',
];
/** The route @fastify/cors adds for preflights on any path; here it only leads to a 404. */
const CORS_CATCH_ALL = '*';
/**
 * The longest request target (path and query) the API reads; longer ones answer 400 naming the
 * limit. Every parameter fits in far less (search is at most 200 characters, a cursor 1024).
 */
export const MAX_URL_LENGTH = 8192;
/**
 * The request line and headers together, in bytes (Node's default, set explicitly so a
 * --max-http-header-size flag cannot change it); past it, a 400 in our envelope.
 */
export const MAX_HEADER_BYTES = 16_384;
/**
 * Security headers of every API answer: nothing in a JSON body may run, be framed or leak the
 * URL as a referrer, even if a browser were tricked into rendering it as a document.
 */
const SECURITY_HEADERS = [
  ['x-content-type-options', 'nosniff'],
  ['content-security-policy', "default-src 'none'; frame-ancestors 'none'"],
  ['referrer-policy', 'no-referrer'],
] as const;

export interface ApiAppOptions {
  /** The process logger; none when omitted. */
  logger?: FastifyBaseLogger | false;
}

function sendError(
  services: Services,
  request: FastifyRequest,
  reply: FastifyReply,
  error: ApiError,
): FastifyReply {
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
  if (error.status === 401) reply.header('www-authenticate', WWW_AUTHENTICATE);
  if (error.status === 405) reply.header('allow', ALLOW);
  // JSON.stringify keeps the envelope's documented key order (`param` before `docUrl`); the
  // schema serializer would move the optional `param` last.
  return reply
    .code(error.status)
    .type('application/json; charset=utf-8')
    .serializer(JSON.stringify)
    .send(errorBody(error, request.id, services.publicDocsUrl));
}

function securityHeaders(reply: FastifyReply): void {
  for (const [name, value] of SECURITY_HEADERS) reply.header(name, value);
}

/** The route label of a request in metrics: its template, never the raw URL. */
function metricRoute(request: FastifyRequest, url: string | undefined): string {
  return request.is404 || url === undefined || url === CORS_CATCH_ALL ? 'unmatched' : url;
}

/**
 * The one log line of a request (never the key or the Authorization header). `route` is the
 * route template when the caller has it already (each read of routeOptions builds an object).
 */
function logRequest(
  request: FastifyRequest,
  reply: FastifyReply,
  route: string | undefined = request.routeOptions.url,
): void {
  request.log.info(
    {
      method: request.method,
      route: route ?? null,
      status: reply.statusCode,
      durationMs: Math.round(reply.elapsedTime * 100) / 100,
      requestId: request.id,
      keyId: request.principal?.key.id ?? null,
      clientAddress: clientAddressOf(request),
    },
    'request',
  );
}

/** A path shown in a message: long ones are cut, so a 16 KiB URL does not come back whole. */
function shownPath(path: string): string {
  return maskKeys(path.length > 100 ? `${path.slice(0, 100)}…` : path);
}

/** Builds the public API host (not listening yet). */
export async function createApiApp(
  services: Services,
  options: ApiAppOptions = {},
): Promise<FastifyInstance> {
  const trust = trustFunction(services.config.trustProxy);
  const app = Fastify({
    ...(options.logger ? { loggerInstance: options.logger } : { logger: false }),
    // One line per request comes from our onResponse hook, with the fields we choose.
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: trust,
    requestIdHeader: false,
    genReqId: requestIdOf,
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 200 },
    http: { maxHeaderSize: MAX_HEADER_BYTES },
    return503OnClosing: false,
    // Requests the router cannot even look up (a path with a malformed percent-encoding, or an
    // overlong path parameter) skip every hook: they answer here, in our envelope, with the
    // headers and the log line the hooks would have given them.
    frameworkErrors: (error, request, reply) => {
      const path = shownPath(request.url.split('?')[0] as string);
      reply.header('x-request-id', request.id);
      securityHeaders(reply);
      corsHeaders(request, reply);
      let answer: ApiError;
      if (error.code === 'FST_ERR_BAD_URL') {
        // Malformed request syntax, like headers too large to read (below): a 400, as on the
        // docs host, whose message says what is wrong and how to write it.
        answer = new ApiError(
          'INVALID_PARAMETER',
          `The path ${JSON.stringify(path)} has a malformed percent-encoding: "%" must be followed by two hexadecimal digits; send a literal "%" as %25.`,
        );
      } else if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
        answer = new ApiError(
          'ROUTE_NOT_FOUND',
          `No endpoint at ${request.method} ${path}. The API lives under /api/v1/; see the API reference.`,
        );
      } else {
        // The only other one is about async route constraints, which no route here has.
        request.log.error({ err: error }, 'unhandled framework error');
        answer = new ApiError(
          'INTERNAL_ERROR',
          `Something went wrong on our side. It has been logged with request id ${request.id}; retry later or report that id.`,
        );
      }
      sendError(services, request, reply, answer);
      logRequest(request, reply);
      services.metrics.request('unmatched', reply.statusCode, reply.elapsedTime / 1000);
    },
    // Requests Node cannot parse (headers over its 16 KiB limit, broken HTTP) never become a
    // request object; they still get our envelope, with a fresh request id, and a log line.
    clientErrorHandler: (error, socket) => answerClientError(error, socket),
  });

  function corsHeaders(request: FastifyRequest, reply: FastifyReply): void {
    const origins = services.config.corsOrigins;
    const origin = request.headers.origin;
    if (origins === '*') reply.header('access-control-allow-origin', '*');
    else {
      reply.header('vary', 'Origin');
      if (origin !== undefined && origins.includes(origin)) {
        reply.header('access-control-allow-origin', origin);
      }
    }
    reply.header('access-control-expose-headers', EXPOSED_HEADERS.join(', '));
  }

  function answerClientError(error: Error & { code?: string }, socket: Socket): void {
    // A reset connection has no one left to answer.
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    if (!socket.writable) {
      socket.destroy(error);
      return;
    }
    const requestId = randomUUID();
    let status: number;
    let body: string;
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      // Nothing of the request arrived in time: no one reads a body, so none is sent.
      status = 408;
      body = '';
    } else {
      const message =
        error.code === 'HPE_HEADER_OVERFLOW'
          ? `The request line and headers are larger than the server accepts (${MAX_HEADER_BYTES / 1024} KiB in all). Send fewer or shorter headers and a shorter URL; an oversized Cookie is the usual cause.`
          : 'The request is not valid HTTP/1.1 and could not be read. Check the request line and headers your client sends.';
      const apiError = new ApiError('INVALID_PARAMETER', message);
      status = apiError.status;
      body = JSON.stringify(errorBody(apiError, requestId, services.publicDocsUrl));
    }
    // A HEAD request gets the headers only, even when refused before it could be read.
    const raw = (error as { rawPacket?: Buffer }).rawPacket;
    const head = raw !== undefined && raw.subarray(0, 5).toString('latin1') === 'HEAD ';
    // Headers that could not be read name no one: the address is the connection's.
    const clientAddress = socket.remoteAddress ?? '';
    app.log.info(
      { method: null, route: null, status, requestId, reason: error.code, clientAddress },
      'request',
    );
    services.metrics.request('unmatched', status, 0);
    const headers = [
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
      'Connection: close',
      `x-request-id: ${requestId}`,
      ...SECURITY_HEADERS.map(([name, value]) => `${name}: ${value}`),
      ...(services.config.corsOrigins === '*' ? ['access-control-allow-origin: *'] : []),
      `access-control-expose-headers: ${EXPOSED_HEADERS.join(', ')}`,
      ...(body === '' ? [] : ['content-type: application/json; charset=utf-8']),
      `content-length: ${Buffer.byteLength(body)}`,
    ];
    socket.end(`${headers.join('\r\n')}\r\n\r\n${head ? '' : body}`);
  }

  // CONNECT never reaches Fastify (http/connect.ts): a 405 like any other refused method.
  answerConnect(app.server, (request) => {
    const requestId = requestIdOf(request);
    const error = new ApiError(
      'METHOD_NOT_ALLOWED',
      'CONNECT is not allowed: the API is not a proxy. It is read-only: use GET or HEAD on its endpoints under /api/v1/.',
    );
    app.log.info(
      {
        method: 'CONNECT',
        route: null,
        status: error.status,
        requestId,
        clientAddress: resolveClientAddress(request, trust),
      },
      'request',
    );
    services.metrics.request('unmatched', error.status, 0);
    return {
      status: error.status,
      headers: [
        ['allow', ALLOW],
        ['x-request-id', requestId],
        ...SECURITY_HEADERS,
        ...(services.config.corsOrigins === '*'
          ? [['access-control-allow-origin', '*'] as const]
          : []),
        ['access-control-expose-headers', EXPOSED_HEADERS.join(', ')],
        ['content-type', 'application/json; charset=utf-8'],
      ],
      body: JSON.stringify(errorBody(error, requestId, services.publicDocsUrl)),
    };
  });

  useClientAddress(app, trust);

  app.setValidatorCompiler(({ schema, httpPart }) =>
    httpPart === 'querystring'
      ? compileQueryValidator(schema as never)
      : () => ({ value: undefined }),
  );

  for (const schema of [InventoryItem, Organization, ErrorResponse]) app.addSchema(schema);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Stockroom API',
        version: VERSION,
        description:
          'Read access to an organization’s inventory for external integrations. Authenticate with an organization or user API key in `x-api-key` or `Authorization: Bearer`.',
      },
      // The URL this process serves (PUBLIC_API_URL, or the port it actually bound), so that
      // clients generated from the document call this server rather than a default.
      servers: [{ url: services.publicApiUrl }],
      webhooks: OPENAPI_WEBHOOKS,
      components: {
        securitySchemes: {
          ApiKeyHeader: { type: 'apiKey', in: 'header', name: 'x-api-key' },
          BearerAuth: { type: 'http', scheme: 'bearer' },
        },
      },
    },
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) =>
        typeof json.$id === 'string' ? json.$id : `def-${i}`,
    },
  });

  // Hooks in callback style: no promise per request where nothing is awaited. Added before
  // CORS, whose hook answers preflights itself: they carry x-request-id too.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    securityHeaders(reply);
    // At debug level, so an operator (or a drain test) can tell a request was accepted.
    request.log.debug(
      { method: request.method, route: request.routeOptions.url ?? null, requestId: request.id },
      'request received',
    );
    done();
  });

  await app.register(cors, {
    origin: services.config.corsOrigins === '*' ? '*' : services.config.corsOrigins,
    methods: ['GET', 'HEAD', 'OPTIONS'],
    allowedHeaders: ['authorization', 'content-type', 'x-api-key', 'if-none-match'],
    exposedHeaders: EXPOSED_HEADERS,
    maxAge: 600,
    strictPreflight: false,
    // Preflights are answered on the known paths only (their OPTIONS routes below turn this
    // back on); on any other path the plugin's catch-all OPTIONS route leads to a 404.
    preflight: false,
  });

  // Unknown paths, and methods without a route on known ones, are answered here, before the
  // body is read: a POST of malformed JSON to a path that does not exist is a 404 (or a 405),
  // not a 400 about a body no endpoint would read. After CORS, so these carry its headers.
  app.addHook('onRequest', (request, reply, done) => {
    if (request.url.length > MAX_URL_LENGTH) {
      sendError(
        services,
        request,
        reply,
        new ApiError(
          'INVALID_PARAMETER',
          `The URL is ${request.url.length} characters long; the API reads at most ${MAX_URL_LENGTH} (path and query string). Shorten the query: search takes at most 200 characters and a cursor is far shorter.`,
        ),
      );
      return;
    }
    if (request.is404 || request.routeOptions.url === CORS_CATCH_ALL) {
      notFound(request, reply);
      return;
    }
    done();
  });

  app.addHook('onRequest', authenticate(services));
  app.addHook('preHandler', authorize(services));

  // A use spent on a request that then failed on our side is given back.
  const metrics = services.metrics;
  app.addHook('onResponse', (request, reply, done) => {
    const log = () => {
      const route = request.routeOptions.url;
      logRequest(request, reply, route);
      if (metrics.enabled) {
        metrics.request(metricRoute(request, route), reply.statusCode, reply.elapsedTime / 1000);
      }
      done();
    };
    const principal = request.principal;
    if (request.quotaCharged && reply.statusCode >= 500 && principal) {
      services.store
        .refundQuota(principal.key.id)
        .then(
          // The cache holds the count this request's charge left (0 after the last use): it
          // must see the refund too, or the given-back use answers KEY_EXHAUSTED until the
          // entry expires.
          (left) => {
            if (left !== null) services.keys.noteRemaining(principal.hash, left);
          },
          () => {},
        )
        .then(log);
    } else log();
  });

  app.setErrorHandler((error: FastifyError | ApiError | Error, request, reply) => {
    if (error instanceof ApiError) return sendError(services, request, reply, error);
    if (error instanceof StoreUnavailableError || error instanceof RateLimiterUnavailableError) {
      const outage = services.store.availability;
      if (error instanceof StoreUnavailableError && outage?.down) {
        // The outage has its own two lines (went away, is back, with this count): none per request.
        outage.requestFailed();
        request.log.debug({ err: error }, 'database unavailable');
      } else {
        request.log.warn(
          { err: error },
          error instanceof StoreUnavailableError
            ? 'database unavailable'
            : 'rate limiter unavailable',
        );
      }
      return sendError(
        services,
        request,
        reply,
        new ApiError(
          'SERVICE_UNAVAILABLE',
          'The service is temporarily unavailable. Retry after the number of seconds in Retry-After.',
          { headers: { 'retry-after': '1' } },
        ),
      );
    }
    const status = (error as FastifyError).statusCode;
    if (status !== undefined && status >= 400 && status < 500) {
      return sendError(
        services,
        request,
        reply,
        new ApiError('INVALID_PARAMETER', `The request could not be read: ${error.message}`),
      );
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendError(
      services,
      request,
      reply,
      new ApiError(
        'INTERNAL_ERROR',
        `Something went wrong on our side. It has been logged with request id ${request.id}; retry later or report that id.`,
      ),
    );
  });

  const methodNotAllowed = (request: FastifyRequest, reply: FastifyReply, url: string) =>
    sendError(
      services,
      request,
      reply,
      new ApiError(
        'METHOD_NOT_ALLOWED',
        `${request.method} is not allowed on ${url}; the API is read-only: use GET or HEAD.`,
      ),
    );

  function notFound(request: FastifyRequest, reply: FastifyReply): FastifyReply {
    const path = request.url.split('?')[0] as string;
    // Any other method on a known path (POST, DELETE, TRACE, PROPFIND, …) is a 405, not a 404.
    if (KNOWN_PATHS.includes(path)) return methodNotAllowed(request, reply, path);
    return sendError(
      services,
      request,
      reply,
      new ApiError(
        'ROUTE_NOT_FOUND',
        `No endpoint at ${request.method} ${shownPath(path)}. The API lives under /api/v1/; see the API reference.`,
      ),
    );
  }

  // Reached only if the onRequest hook above did not answer (it answers every unknown path).
  app.setNotFoundHandler(async (request, reply) => notFound(request, reply));

  for (const route of ROUTES) route(app, services);

  // The common write methods get explicit routes (their log lines then name the route); every
  // other method on these paths reaches the not-found handler above, which answers 405 too.
  // They answer in onRequest, before any body is read: a POST with a malformed or unsupported
  // body is still a 405, not a 400 about the body.
  for (const url of KNOWN_PATHS) {
    // The CORS hook answers these preflights itself (204 with the allowed methods and headers);
    // the handler only runs if it did not.
    app.options(
      url,
      { schema: { hide: true } as never, config: { cors: { preflight: true } } },
      async (_request, reply) => reply.code(204).send(),
    );
    app.route({
      method: [...OTHER_METHODS],
      url,
      schema: { hide: true } as never,
      // Replying from a hook ends the request there (done is not called, as Fastify asks).
      onRequest: (request, reply, _done) => {
        methodNotAllowed(request, reply, url);
      },
      handler: async (request, reply) => methodNotAllowed(request, reply, url),
    });
  }

  return app;
}
