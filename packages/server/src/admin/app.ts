import swagger from '@fastify/swagger';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Services } from '../context.js';
import { codedErrorHeaders, envelopeAnswers } from '../http/envelope-answers.js';
import { createHost, type ErrorTable } from '../http/host.js';
import { logUnavailable } from '../http/unavailable.js';
import { AuthFailureThrottle } from '../keys/auth-failures.js';
import { OperationError } from '../operations/errors.js';
import { StoreConflictError, StoreUnavailableError } from '../store/types.js';
import { VERSION } from '../version.js';
import { adminGate } from './auth.js';
import { problemError } from './context.js';
import { ADMIN_WWW_AUTHENTICATE, AdminError, adminErrorBody } from './errors.js';
import itemRoutes from './routes/items.js';
import keyRoutes from './routes/keys.js';
import locationRoutes from './routes/locations.js';
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
const ROUTES = [organizationRoutes, keyRoutes, itemRoutes, locationRoutes] as const;

export const ADMIN_PREFIX = '/admin/v1';
/** The query schema of a route that takes no query parameter. */
const NO_QUERY = Type.Object({}, { additionalProperties: false });
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

function bodyError(
  code: 'INVALID_REQUEST' | 'PAYLOAD_TOO_LARGE' | 'UNSUPPORTED_MEDIA_TYPE',
  message: string,
): AdminError {
  return new AdminError(code, message, { param: 'body' });
}

/** Which error the admin API answers for what the host shell meets (http/host.ts). */
function adminErrors(services: Services): ErrorTable<AdminError> {
  return {
    badUrl: () =>
      new AdminError(
        'INVALID_REQUEST',
        'The path has a malformed percent-encoding: "%" must be followed by two hexadecimal digits; send a literal "%" as %25.',
      ),
    paramTooLong: (request, path) =>
      new AdminError('ROUTE_NOT_FOUND', `No endpoint at ${request.method} ${shownPath(path)}.`),
    noRoute: (request, path, allowed) => {
      if (allowed.length > 0) {
        const allow = allowed.join(', ');
        return new AdminError(
          'METHOD_NOT_ALLOWED',
          `${request.method} is not allowed on ${shownPath(path)}; use ${allow}.`,
          { headers: { allow } },
        );
      }
      return new AdminError(
        'ROUTE_NOT_FOUND',
        `No endpoint at ${request.method} ${shownPath(path)}. The admin API lives under ${ADMIN_PREFIX}/; its OpenAPI document is ${ADMIN_OPENAPI_PATH}.`,
      );
    },
    connect: (allowed) => {
      const allow = allowed.join(', ');
      return new AdminError(
        'METHOD_NOT_ALLOWED',
        `CONNECT is not allowed: the admin API is not a proxy; use ${allow} on its endpoints under ${ADMIN_PREFIX}/.`,
        { headers: { allow } },
      );
    },
    unreadable: (request, error) => {
      switch (error.code) {
        case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
          return bodyError(
            'UNSUPPORTED_MEDIA_TYPE',
            'Send the body as JSON, with `Content-Type: application/json`.',
          );
        case 'FST_ERR_CTP_BODY_TOO_LARGE':
          return bodyError(
            'PAYLOAD_TOO_LARGE',
            `The body is larger than this endpoint accepts (${request.routeOptions.bodyLimit} bytes); send fewer rows per request.`,
          );
        case 'FST_ERR_CTP_EMPTY_JSON_BODY':
          return bodyError(
            'INVALID_REQUEST',
            'The body is empty but Content-Type says JSON: send a JSON body, or no Content-Type.',
          );
        default:
          // Malformed JSON, a forbidden __proto__ key, a bad Content-Length.
          return bodyError('INVALID_REQUEST', `The body could not be read: ${error.message}.`);
      }
    },
    own: (error, request) => {
      if (error instanceof AdminError) return error;
      if (error instanceof OperationError) return problemError(error.problem);
      if (error instanceof StoreUnavailableError) {
        logUnavailable(request, error, services.store.availability, 'database unavailable');
        services.metrics.unavailable('database');
        return new AdminError(
          'SERVICE_UNAVAILABLE',
          'The database is unavailable; nothing was changed. Retry after the number of seconds in Retry-After.',
          { headers: { 'retry-after': '1' } },
        );
      }
      if (error instanceof StoreConflictError)
        return new AdminError('CONFLICT', `${error.message}.`);
      return undefined;
    },
    internal: {
      log: 'unhandled error',
      answer: (request) =>
        new AdminError(
          'INTERNAL_ERROR',
          `Something went wrong on our side. It has been logged with request id ${request.id}; the audit log shows what was changed before it.`,
        ),
    },
    frameworkFailure: {
      log: 'framework error',
      answer: (request: FastifyRequest) =>
        new AdminError(
          'INTERNAL_ERROR',
          `Something went wrong on our side. It has been logged with request id ${request.id}.`,
        ),
    },
  };
}

/** Builds the admin API host (not listening yet). */
export async function createAdminApp(
  services: Services,
  token: string,
  options: AdminAppOptions,
): Promise<FastifyInstance> {
  const limit = services.config.authFailureLimit;
  const gate = adminGate(
    token,
    limit === null ? null : new AuthFailureThrottle(limit.max, limit.windowSeconds),
  );
  const tracing = services.tracing;
  const app = await createHost<AdminError>({
    logger: options.logger,
    ...(tracing ? { instrument: (host: FastifyInstance) => tracing.instrument(host) } : {}),
    trustProxy: services.config.trustProxy,
    maxParamLength: 200,
    headers: { requestIds: true, always: SECURITY_HEADERS },
    // The token pasted into x-request-id is replaced, never echoed nor logged.
    secrets: [token],
    representation: envelopeAnswers(
      (error, requestId) => adminErrorBody(error, requestId, services.publicDocsUrl),
      (error) => codedErrorHeaders(error, ADMIN_WWW_AUTHENTICATE),
    ),
    errors: adminErrors(services),
    // The token first, for every request: without it nothing is told, not even what exists.
    refuse: (headers, clientAddress) => gate(headers.authorization, clientAddress),
  });

  // JSON bodies only: text/plain (which Fastify parses by default) is refused with 415.
  app.removeContentTypeParser('text/plain');
  app.setValidatorCompiler(adminValidator as never);
  // Every route, whoever adds it, refuses query parameters it does not name (400, nothing
  // written): `bulk-delete?dryRun=true` must not delete for real.
  app.addHook('onRoute', (route) => {
    if (route.schema?.querystring === undefined) {
      route.schema = { ...route.schema, querystring: NO_QUERY };
    }
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

  app.get(ADMIN_OPENAPI_PATH, { schema: { hide: true } as never }, async (_request, reply) =>
    reply.type('application/json; charset=utf-8').serializer(JSON.stringify).send(app.swagger()),
  );

  for (const route of ROUTES) route(app, services);

  return app;
}
