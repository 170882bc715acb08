import { randomUUID } from 'node:crypto';
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
import { RateLimiterUnavailableError } from '../keys/rate-limit.js';
import { StoreUnavailableError } from '../store/types.js';
import { VERSION } from '../version.js';
import { authenticate, authorize, WWW_AUTHENTICATE } from './auth.js';
import { ApiError, errorBody } from './errors.js';
import { compileQueryValidator } from './query-validator.js';
import authVerifyRoute from './routes/auth-verify.js';
import healthRoute from './routes/health.js';
import inventoryItemRoute from './routes/inventory-item.js';
import inventoryItemsRoute from './routes/inventory-items.js';
import organizationRoute from './routes/organization.js';
import { ErrorResponse, InventoryItem, Organization } from './schemas.js';

/** The routes of the public API, in one explicit list. */
const ROUTES = [
  healthRoute,
  authVerifyRoute,
  organizationRoute,
  inventoryItemsRoute,
  inventoryItemRoute,
] as const;

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const ALLOW = 'GET, HEAD, OPTIONS';
const OTHER_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'] as const;
/** The paths of ROUTES: other methods on them answer 405 rather than 404. */
const KNOWN_PATHS: readonly string[] = [
  '/api/v1/health',
  '/api/v1/auth/verify',
  '/api/v1/organization',
  '/api/v1/inventory/items',
  '/api/v1/inventory/item',
];

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

/** Builds the public API host (not listening yet). */
export async function createApiApp(
  services: Services,
  options: ApiAppOptions = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    ...(options.logger ? { loggerInstance: options.logger } : { logger: false }),
    // One line per request comes from our onResponse hook, with the fields we choose.
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: services.config.trustProxy as boolean | string,
    requestIdHeader: false,
    genReqId: (request) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 200 },
    return503OnClosing: false,
  });

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
    reply.header('x-content-type-options', 'nosniff');
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
    exposedHeaders: [
      'x-request-id',
      'retry-after',
      'x-ratelimit-limit',
      'x-ratelimit-remaining',
      'x-ratelimit-reset',
      'etag',
      'deprecation',
    ],
    maxAge: 600,
    strictPreflight: false,
  });

  app.addHook('onRequest', authenticate(services));
  app.addHook('preHandler', authorize(services));

  // A use spent on a request that then failed on our side is given back.
  app.addHook('onResponse', (request, reply, done) => {
    const log = () => {
      request.log.info(
        {
          method: request.method,
          route: request.routeOptions.url ?? null,
          status: reply.statusCode,
          durationMs: Math.round(reply.elapsedTime * 100) / 100,
          requestId: request.id,
          keyId: request.principal?.key.id ?? null,
        },
        'request',
      );
      done();
    };
    if (request.quotaCharged && reply.statusCode >= 500 && request.principal) {
      services.store
        .refundQuota(request.principal.key.id)
        .catch(() => {})
        .then(log);
    } else log();
  });

  app.setErrorHandler((error: FastifyError | ApiError | Error, request, reply) => {
    if (error instanceof ApiError) return sendError(services, request, reply, error);
    if (error instanceof StoreUnavailableError || error instanceof RateLimiterUnavailableError) {
      request.log.warn(
        { err: error },
        error instanceof StoreUnavailableError
          ? 'database unavailable'
          : 'rate limiter unavailable',
      );
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

  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0] as string;
    // Any other method on a known path (POST, DELETE, TRACE, PROPFIND, …) is a 405, not a 404.
    if (KNOWN_PATHS.includes(path)) return methodNotAllowed(request, reply, path);
    return sendError(
      services,
      request,
      reply,
      new ApiError(
        'ROUTE_NOT_FOUND',
        `No endpoint at ${request.method} ${path}. The API lives under /api/v1/; see the API reference.`,
      ),
    );
  });

  for (const route of ROUTES) route(app, services);

  // The common write methods get explicit routes (their log lines then name the route); every
  // other method on these paths reaches the not-found handler above, which answers 405 too.
  // They answer in onRequest, before any body is read: a POST with a malformed or unsupported
  // body is still a 405, not a 400 about the body.
  for (const url of KNOWN_PATHS) {
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
