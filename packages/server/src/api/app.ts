import swagger from '@fastify/swagger';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import type { Services } from '../context.js';
import { codedErrorHeaders, envelopeAnswers } from '../http/envelope-answers.js';
import { createHost, type ErrorTable, MAX_HEADER_BYTES } from '../http/host.js';
import { levelEnabled } from '../http/lazy-child-logger.js';
import { routeOf } from '../http/route-of.js';
import { maskKeys } from '../keys/format.js';
import { VERSION } from '../version.js';
import { OPENAPI_WEBHOOKS } from '../webhooks/openapi.js';
import { authenticate, authorize, refundQuota, WWW_AUTHENTICATE } from './auth.js';
import { corsHeaders, socketCorsHeaders } from './cors.js';
import { ApiError, errorBody } from './errors.js';
import { internalError, knownFailure } from './failures.js';
import { deriveMethodRoutes } from './method-routes.js';
import { compileQueryValidator } from './query-validator.js';
import authVerifyRoute from './routes/auth-verify.js';
import healthRoute from './routes/health.js';
import inventoryItemRoute from './routes/inventory-item.js';
import inventoryItemsRoute from './routes/inventory-items.js';
import inventoryLocationsRoute from './routes/inventory-locations.js';
import mcpRoute, { isMcpRequest, MCP_PATH, mcpMethodNotAllowed } from './routes/mcp.js';
import organizationRoute from './routes/organization.js';
import probesRoute from './routes/probes.js';
import { ErrorResponse, InventoryItem, Location, Organization } from './schemas.js';

/** The routes of the public API, in one explicit list. */
const ROUTES = [
  healthRoute,
  authVerifyRoute,
  organizationRoute,
  inventoryItemsRoute,
  inventoryItemRoute,
  inventoryLocationsRoute,
  probesRoute,
  mcpRoute,
] as const;

/** What the endpoints under /api/v1/ take: the Allow header of a CONNECT, which names no path. */
const ENDPOINT_METHODS = 'GET, HEAD, OPTIONS';
/** The request headers a browser may send to the API's GET endpoints. */
const ALLOWED_HEADERS = ['authorization', 'content-type', 'x-api-key', 'if-none-match'];
/**
 * The longest request target (path and query) the API reads; longer ones answer 400 naming the
 * limit. Every parameter fits in far less (search is at most 200 characters, a cursor 1024).
 */
export const MAX_URL_LENGTH = 8192;
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

/** A path shown in a message: long ones are cut, so a 16 KiB URL does not come back whole. */
function shownPath(path: string): string {
  return maskKeys(path.length > 100 ? `${path.slice(0, 100)}…` : path);
}

function routeNotFound(request: FastifyRequest, path: string): ApiError {
  return new ApiError(
    'ROUTE_NOT_FOUND',
    `No endpoint at ${request.method} ${shownPath(path)}. The API lives under /api/v1/; see the API reference.`,
  );
}

/** A method the path does not take; `allowed` (from the route table) is what it takes. */
function methodNotAllowed(request: FastifyRequest, allowed: readonly string[]): ApiError {
  const allow = allowed.join(', ');
  const path = request.url.split('?')[0] as string;
  if (path === MCP_PATH) return mcpMethodNotAllowed(request, allow);
  const usable = allowed.filter((method) => method !== 'OPTIONS');
  const readOnly = usable.every((method) => method === 'GET' || method === 'HEAD');
  return new ApiError(
    'METHOD_NOT_ALLOWED',
    `${request.method} is not allowed on ${shownPath(path)}; ${readOnly ? 'the API is read-only: ' : ''}use ${usable.join(' or ')}.`,
    { headers: { allow } },
  );
}

/** Which error the API answers for what the host shell meets (http/host.ts). */
function apiErrors(services: Services): ErrorTable<ApiError> {
  return {
    // Malformed request syntax, like headers too large to read: a 400, as on the docs host,
    // whose message says what is wrong and how to write it.
    badUrl: (_request, path) =>
      new ApiError(
        'INVALID_PARAMETER',
        `The path ${JSON.stringify(shownPath(path))} has a malformed percent-encoding: "%" must be followed by two hexadecimal digits; send a literal "%" as %25.`,
      ),
    paramTooLong: routeNotFound,
    // Any other method on a known path (TRACE, PROPFIND, …) is a 405, not a 404.
    noRoute: (request, path, allowed) =>
      allowed.length > 0 ? methodNotAllowed(request, allowed) : routeNotFound(request, path),
    connect: () =>
      new ApiError(
        'METHOD_NOT_ALLOWED',
        'CONNECT is not allowed: the API is not a proxy. It is read-only: use GET or HEAD on its endpoints under /api/v1/.',
        { headers: { allow: ENDPOINT_METHODS } },
      ),
    unparsed: {
      headersTooLarge: () =>
        new ApiError(
          'INVALID_PARAMETER',
          `The request line and headers are larger than the server accepts (${MAX_HEADER_BYTES / 1024} KiB in all). Send fewer or shorter headers and a shorter URL; an oversized Cookie is the usual cause.`,
        ),
      malformed: () =>
        new ApiError(
          'INVALID_PARAMETER',
          'The request is not valid HTTP/1.1 and could not be read. Check the request line and headers your client sends.',
        ),
    },
    unreadable: (_request, error) =>
      new ApiError('INVALID_PARAMETER', `The request could not be read: ${error.message}`),
    own: (error, request) => knownFailure(services, error, request),
    internal: { log: 'unhandled error', answer: internalError },
    // The only other framework error is about async route constraints, which no route here has.
    frameworkFailure: { log: 'unhandled framework error', answer: internalError },
  };
}

/** What a request span tells of the caller: the key's id and organization, never the key. */
function keyAttributes(request: FastifyRequest): Record<string, string> | undefined {
  const principal = request.principal;
  if (!principal) return undefined;
  const organization = request.organization ?? principal.organization;
  return {
    'stockroom.key.id': principal.key.id,
    'stockroom.organization.id': organization.id,
    'stockroom.organization.slug': organization.slug,
  };
}

/** Builds the public API host (not listening yet). */
export async function createApiApp(
  services: Services,
  options: ApiAppOptions = {},
): Promise<FastifyInstance> {
  const corsOrigins = services.config.corsOrigins;
  const metrics = services.metrics;
  const cors = corsHeaders(corsOrigins);
  const representation = envelopeAnswers<ApiError>(
    (error, requestId) => errorBody(error, requestId, services.publicDocsUrl),
    (error) => codedErrorHeaders(error, WWW_AUTHENTICATE),
  );
  const tracing = services.tracing;
  const app = await createHost<ApiError>({
    logger: options.logger,
    // The key's id and its organization (never the key): tracing/tracing.ts.
    ...(tracing
      ? { instrument: (host: FastifyInstance) => tracing.instrument(host, keyAttributes) }
      : {}),
    trustProxy: services.config.trustProxy,
    maxParamLength: 200,
    // The admin token sent here by mistake is not echoed nor logged either.
    secrets: services.config.adminToken === null ? [] : [services.config.adminToken],
    headers: {
      requestIds: true,
      always: SECURITY_HEADERS,
      onSockets: socketCorsHeaders(corsOrigins),
      // What the CORS hook below gives every other answer.
      beforeRouting: cors,
    },
    representation,
    errors: apiErrors(services),
    // Never the key or the Authorization header: the key's id.
    // On /mcp: the transport, and the JSON-RPC methods and tools the request carried.
    logFields: (request) =>
      isMcpRequest(request)
        ? { keyId: request.principal?.key.id ?? null, transport: 'mcp', ...request.mcp }
        : { keyId: request.principal?.key.id ?? null },
    // A use spent on a request that then failed on our side is given back.
    settle: (request, reply) => {
      const principal = request.principal;
      if (!request.quotaCharged || reply.statusCode < 500 || !principal) return undefined;
      return refundQuota(services, principal);
    },
    // The route label of a request in metrics: its template, never the raw URL.
    ...(metrics.enabled
      ? {
          count: (route: string | null, status: number, seconds: number) =>
            metrics.request(route ?? 'unmatched', status, seconds),
        }
      : {}),
    beforeRouting: (host) => {
      // At debug level, so an operator (or a drain test) can tell a request was accepted. The
      // level is asked first: building the line's fields is most of its cost.
      host.addHook('onRequest', (request, _reply, done) => {
        if (levelEnabled(host.log, 'debug')) {
          request.log.debug(
            { method: request.method, route: routeOf(request).url ?? null, requestId: request.id },
            'request received',
          );
        }
        done();
      });
      // After the shell's header hook, before the answers to unknown paths, so that these
      // carry the CORS headers too.
      host.addHook('onRequest', (request, reply, done) => {
        cors(request, reply);
        done();
      });
      host.addHook('onRequest', (request, reply, done) => {
        if (request.url.length > MAX_URL_LENGTH) {
          representation.send(
            request,
            reply,
            new ApiError(
              'INVALID_PARAMETER',
              `The URL is ${request.url.length} characters long; the API reads at most ${MAX_URL_LENGTH} (path and query string). Shorten the query: search takes at most 200 characters and a cursor is far shorter.`,
            ),
          );
          return;
        }
        done();
      });
    },
  });

  app.setValidatorCompiler(({ schema, httpPart }) =>
    httpPart === 'querystring'
      ? compileQueryValidator(schema as never)
      : () => ({ value: undefined }),
  );

  for (const schema of [InventoryItem, Location, Organization, ErrorResponse])
    app.addSchema(schema);

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

  app.addHook('onRequest', authenticate(services));
  app.addHook('preHandler', authorize(services));

  // Preflights and 405s of every path, from the routes registered below (OPTIONS on a path no
  // route has is a 404). A 405 is answered before any body is read: a POST with a malformed or
  // unsupported body is still a 405, not a 400 about the body.
  const addMethodRoutes = deriveMethodRoutes(app, {
    corsHeaders: ALLOWED_HEADERS,
    refuse: (request, reply, allowed) =>
      representation.send(request, reply, methodNotAllowed(request, allowed)),
  });
  for (const route of ROUTES) route(app, services);
  addMethodRoutes();

  return app;
}
