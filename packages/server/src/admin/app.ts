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
import { OperationError } from '../operations/errors.js';
import { StoreConflictError, StoreUnavailableError } from '../store/types.js';
import { VERSION } from '../version.js';
import { adminTokenCheck } from './auth.js';
import { problemError } from './context.js';
import { ADMIN_WWW_AUTHENTICATE, AdminError, adminErrorBody } from './errors.js';
import itemRoutes from './routes/items.js';
import keyRoutes from './routes/keys.js';
import organizationRoutes from './routes/organizations.js';
import { adminValidator } from './validation.js';

/**
 * The admin API: writes for the operator's system of record, on a port of its own
 * (ADMIN_PORT, bound to ADMIN_HOST, loopback by default), only when ADMIN_TOKEN is set. Every
 * request must carry `Authorization: Bearer <ADMIN_TOKEN>`, checked before anything else (an
 * unknown path without the token is a 401, not a 404). No CORS: browsers are not its clients,
 * so no Access-Control-* header is ever sent and a preflight is refused like any request. The
 * routes share their operations with the CLI (operations/*.ts), audit events included.
 */

/** The routes of the admin API, in one explicit list. */
const ROUTES = [organizationRoutes, keyRoutes, itemRoutes] as const;

export const ADMIN_PREFIX = '/admin/v1';
export const ADMIN_OPENAPI_PATH = `${ADMIN_PREFIX}/openapi.json`;
const SECURITY_HEADERS = [
  ['x-content-type-options', 'nosniff'],
  ['content-security-policy', "default-src 'none'; frame-ancestors 'none'"],
  ['referrer-policy', 'no-referrer'],
  // Answers carry keys (once) and whole organizations: no cache keeps any of them.
  ['cache-control', 'no-store'],
] as const;

export interface AdminAppOptions {
  /** The process logger (its lines then carry `"app": "admin"`); none when omitted. */
  logger?: FastifyBaseLogger | false;
  /** Where the admin API is reached: the server of its OpenAPI document. */
  adminUrl: string;
}

function shownPath(path: string): string {
  return path.length > 100 ? `${path.slice(0, 100)}…` : path;
}

/** `/admin/v1/organizations/:org/keys` → a pattern matching any concrete path of that route. */
function templatePattern(url: string): RegExp {
  const escaped = url
    .split('/')
    .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${escaped}$`);
}

/** Builds the admin API host (not listening yet). */
export async function createAdminApp(
  services: Services,
  token: string,
  options: AdminAppOptions,
): Promise<FastifyInstance> {
  const checkToken = adminTokenCheck(token);
  const trust = trustFunction(services.config.trustProxy);
  const app = Fastify({
    ...(options.logger ? { loggerInstance: options.logger } : { logger: false }),
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: trust,
    requestIdHeader: false,
    genReqId: requestIdOf,
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 200 },
    return503OnClosing: false,
    // Requests the router cannot look up skip the hooks: the token is checked here too.
    frameworkErrors: (error, request, reply) => {
      reply.header('x-request-id', request.id);
      for (const [name, value] of SECURITY_HEADERS) reply.header(name, value);
      let answer: AdminError;
      try {
        checkToken(request.headers.authorization);
        answer =
          error.code === 'FST_ERR_BAD_URL'
            ? new AdminError(
                'INVALID_REQUEST',
                'The path has a malformed percent-encoding: "%" must be followed by two hexadecimal digits; send a literal "%" as %25.',
              )
            : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
              ? new AdminError(
                  'ROUTE_NOT_FOUND',
                  `No endpoint at ${request.method} ${shownPath(request.url.split('?')[0] as string)}.`,
                )
              : new AdminError(
                  'INTERNAL_ERROR',
                  `Something went wrong on our side. It has been logged with request id ${request.id}.`,
                );
      } catch (refused) {
        answer = refused as AdminError;
      }
      if (answer.code === 'INTERNAL_ERROR') request.log.error({ err: error }, 'framework error');
      send(request, reply, answer);
      logRequest(request, reply);
    },
  });

  useClientAddress(app, trust);
  // JSON bodies only: text/plain (which Fastify parses by default) is refused with 415.
  app.removeContentTypeParser('text/plain');
  app.setValidatorCompiler(adminValidator as never);

  function send(request: FastifyRequest, reply: FastifyReply, error: AdminError): FastifyReply {
    for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
    if (error.status === 401) reply.header('www-authenticate', ADMIN_WWW_AUTHENTICATE);
    // JSON.stringify keeps the envelope's documented key order.
    return reply
      .code(error.status)
      .type('application/json; charset=utf-8')
      .serializer(JSON.stringify)
      .send(adminErrorBody(error, request.id, services.publicDocsUrl));
  }

  function logRequest(request: FastifyRequest, reply: FastifyReply): void {
    request.log.info(
      {
        method: request.method,
        route: request.routeOptions.url ?? null,
        status: reply.statusCode,
        durationMs: Math.round(reply.elapsedTime * 100) / 100,
        requestId: request.id,
        clientAddress: clientAddressOf(request),
      },
      'request',
    );
  }

  // Route templates and their methods, for 405 (with Allow) on a known path.
  const routes: Array<{ pattern: RegExp; methods: Set<string> }> = [];
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith(ADMIN_PREFIX)) return;
    const pattern = templatePattern(route.url);
    let entry = routes.find((r) => r.pattern.source === pattern.source);
    if (!entry) {
      entry = { pattern, methods: new Set() };
      routes.push(entry);
    }
    for (const method of [route.method].flat()) entry.methods.add(method);
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Stockroom admin API',
        version: VERSION,
        description:
          'Writes for the operator’s system of record: organizations, API keys, and items in bulk. Served only on the admin port (ADMIN_PORT, loopback by default) when ADMIN_TOKEN is set; every request needs `Authorization: Bearer <ADMIN_TOKEN>`. Each change is recorded in the audit log with the actor `admin-api:<client address>`.',
      },
      servers: [{ url: options.adminUrl }],
      components: {
        securitySchemes: {
          AdminToken: {
            type: 'http',
            scheme: 'bearer',
            description: 'The ADMIN_TOKEN the server was started with.',
          },
        },
      },
      security: [{ AdminToken: [] }],
      tags: [
        { name: 'Organizations', description: 'As `stockroom org …`.' },
        { name: 'Keys', description: 'As `stockroom key …`.' },
        { name: 'Items', description: 'As `stockroom items …`, in bulk.' },
      ],
    },
  });

  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    for (const [name, value] of SECURITY_HEADERS) reply.header(name, value);
    // The token first, for every request: without it nothing is told, not even what exists.
    try {
      checkToken(request.headers.authorization);
    } catch (error) {
      send(request, reply, error as AdminError);
      return;
    }
    // Unknown paths, and methods without a route on known ones, are answered before any
    // body is read: a POST of malformed JSON to a path that does not exist is a 404.
    if (request.is404) {
      notFound(request, reply);
      return;
    }
    done();
  });

  app.addHook('onResponse', (request, reply, done) => {
    logRequest(request, reply);
    done();
  });

  function notFound(request: FastifyRequest, reply: FastifyReply): FastifyReply {
    const path = request.url.split('?')[0] as string;
    const route = routes.find((r) => r.pattern.test(path));
    if (route) {
      const allow = [...route.methods].sort().join(', ');
      return send(
        request,
        reply,
        new AdminError(
          'METHOD_NOT_ALLOWED',
          `${request.method} is not allowed on ${shownPath(path)}; use ${allow}.`,
          { headers: { allow } },
        ),
      );
    }
    return send(
      request,
      reply,
      new AdminError(
        'ROUTE_NOT_FOUND',
        `No endpoint at ${request.method} ${shownPath(path)}. The admin API lives under ${ADMIN_PREFIX}/; its OpenAPI document is ${ADMIN_OPENAPI_PATH}.`,
      ),
    );
  }

  app.setNotFoundHandler(async (request, reply) => notFound(request, reply));

  // CONNECT never reaches Fastify (http/connect.ts): the token first, as for any request, then
  // a 405 naming the methods the admin API has.
  answerConnect(app.server, (request) => {
    const requestId = requestIdOf(request);
    let error: AdminError;
    try {
      checkToken(request.headers.authorization);
      const allow = [...new Set(routes.flatMap((route) => [...route.methods]))].sort().join(', ');
      error = new AdminError(
        'METHOD_NOT_ALLOWED',
        `CONNECT is not allowed: the admin API is not a proxy; use ${allow} on its endpoints under ${ADMIN_PREFIX}/.`,
        { headers: { allow } },
      );
    } catch (refused) {
      error = refused as AdminError;
    }
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
    return {
      status: error.status,
      headers: [
        ...Object.entries(error.headers),
        ...(error.status === 401 ? [['www-authenticate', ADMIN_WWW_AUTHENTICATE] as const] : []),
        ['x-request-id', requestId],
        ...SECURITY_HEADERS,
        ['content-type', 'application/json; charset=utf-8'],
      ],
      body: JSON.stringify(adminErrorBody(error, requestId, services.publicDocsUrl)),
    };
  });

  app.setErrorHandler((error: FastifyError | Error, request, reply) => {
    if (error instanceof AdminError) return send(request, reply, error);
    if (error instanceof OperationError) return send(request, reply, problemError(error.problem));
    if (error instanceof StoreUnavailableError) {
      const outage = services.store.availability;
      if (outage?.down) {
        // The outage has its own two lines (went away, is back, with this count): none per request.
        outage.requestFailed();
        request.log.debug({ err: error }, 'database unavailable');
      } else request.log.warn({ err: error }, 'database unavailable');
      return send(
        request,
        reply,
        new AdminError(
          'SERVICE_UNAVAILABLE',
          'The database is unavailable; nothing was changed. Retry after the number of seconds in Retry-After.',
          { headers: { 'retry-after': '1' } },
        ),
      );
    }
    if (error instanceof StoreConflictError) {
      return send(request, reply, new AdminError('CONFLICT', `${error.message}.`));
    }
    const { code, statusCode } = error as FastifyError;
    if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return send(
        request,
        reply,
        new AdminError(
          'UNSUPPORTED_MEDIA_TYPE',
          'Send the body as JSON, with `Content-Type: application/json`.',
          { param: 'body' },
        ),
      );
    }
    if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      const limit = request.routeOptions.bodyLimit;
      return send(
        request,
        reply,
        new AdminError(
          'PAYLOAD_TOO_LARGE',
          `The body is larger than this endpoint accepts (${limit} bytes); send fewer rows per request.`,
          { param: 'body' },
        ),
      );
    }
    if (code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
      return send(
        request,
        reply,
        new AdminError(
          'INVALID_REQUEST',
          'The body is empty but Content-Type says JSON: send a JSON body, or no Content-Type.',
          { param: 'body' },
        ),
      );
    }
    if (statusCode !== undefined && statusCode >= 400 && statusCode < 500) {
      // Malformed JSON, a forbidden __proto__ key, a bad Content-Length.
      return send(
        request,
        reply,
        new AdminError('INVALID_REQUEST', `The body could not be read: ${error.message}.`, {
          param: 'body',
        }),
      );
    }
    request.log.error({ err: error }, 'unhandled error');
    return send(
      request,
      reply,
      new AdminError(
        'INTERNAL_ERROR',
        `Something went wrong on our side. It has been logged with request id ${request.id}; the audit log shows what was changed before it.`,
      ),
    );
  });

  app.get(ADMIN_OPENAPI_PATH, { schema: { hide: true } as never }, async (_request, reply) =>
    reply.type('application/json; charset=utf-8').serializer(JSON.stringify).send(app.swagger()),
  );

  for (const route of ROUTES) route(app, services);

  return app;
}
