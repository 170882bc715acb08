import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../../context.js';
import { maskKeys } from '../../keys/format.js';
import { answerMcp } from '../../mcp/server.js';
import type { AccessPolicy } from '../auth.js';
import { ApiError } from '../errors.js';
import { routeQuery } from '../query-validator.js';
import { JSON_TYPE } from '../schemas.js';

/** Where the MCP server answers, on the API port. */
export const MCP_PATH = '/mcp';

/**
 * Every request is one request of the key (rate limit included); the quota is spent per tools/call
 * by the tools themselves (mcp/tool.ts), which also check the feature and permission each needs.
 */
const access: AccessPolicy = { keyed: true, chargesQuota: false };

/** /mcp takes no query parameters: any one is refused as on the API's endpoints. */
const mcpQuery = routeQuery({ optional: [] });

/** The largest JSON-RPC body read: far more than any tools/call of these tools needs. */
const MAX_BODY_BYTES = 256 * 1024;
/** What a browser-based MCP client may send across origins (its preflight's answer). */
const CORS_HEADERS = [
  'authorization',
  'content-type',
  'x-api-key',
  'mcp-protocol-version',
  'mcp-session-id',
  'last-event-id',
];
/** The request headers the transport reads; nothing else (never the key) is handed to it. */
const TRANSPORT_HEADERS = ['accept', 'content-type', 'mcp-protocol-version', 'mcp-session-id'];

/** Whether a request is to /mcp (its log line and metrics say transport "mcp"). */
export function isMcpRequest(request: FastifyRequest): boolean {
  const url = request.url;
  return (
    url.startsWith(MCP_PATH) && (url.length === MCP_PATH.length || url[MCP_PATH.length] === '?')
  );
}

/**
 * A method other than POST on /mcp: this stateless server opens no event stream and has no
 * sessions. `allow`: what the route table says /mcp takes.
 */
export function mcpMethodNotAllowed(request: FastifyRequest, allow: string): ApiError {
  return new ApiError(
    'METHOD_NOT_ALLOWED',
    `${request.method} is not allowed on ${MCP_PATH}: send MCP messages as JSON-RPC in a POST (Streamable HTTP). This server is stateless: it opens no event stream (GET) and has no session to end (DELETE).`,
    { headers: { allow } },
  );
}

/**
 * A name a client sent, as the log line holds it: a key pasted as a method or a tool name is
 * cut to its display prefix (masked before it is cut, so no cut leaves a longer part of it).
 */
function loggedName(name: string): string {
  return maskKeys(name).slice(0, 64);
}

/** The JSON-RPC methods (and tool names) of a body, for the request's log line. */
function described(body: unknown): { mcpMethods: string; tools?: string } {
  const messages = (Array.isArray(body) ? body : [body]) as Array<{
    method?: unknown;
    params?: { name?: unknown };
  }>;
  const methods: string[] = [];
  const tools: string[] = [];
  for (const message of messages) {
    if (typeof message !== 'object' || message === null) continue;
    if (typeof message.method === 'string') methods.push(loggedName(message.method));
    if (message.method === 'tools/call' && typeof message.params?.name === 'string') {
      tools.push(loggedName(message.params.name));
    }
  }
  return { mcpMethods: methods.join(','), ...(tools.length > 0 ? { tools: tools.join(',') } : {}) };
}

declare module 'fastify' {
  interface FastifyRequest {
    /** On /mcp: the JSON-RPC methods and tools of the request, for its log line. */
    mcp?: { mcpMethods: string; tools?: string };
  }
}

export default function mcpRoute(app: FastifyInstance, services: Services) {
  // Its own scope: the body is read as text whatever its type, so that the transport answers
  // a wrong content type (415) or malformed JSON (a JSON-RPC parse error) as MCP clients expect.
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      '*',
      { parseAs: 'string', bodyLimit: MAX_BODY_BYTES },
      (_request, body, done) => done(null, body),
    );

    scope.post(
      MCP_PATH,
      {
        // Its preflight and its 405s come from the route table (api/method-routes.ts).
        config: { access, corsHeaders: CORS_HEADERS },
        validatorCompiler: mcpQuery.validatorCompiler,
        schema: { hide: true, querystring: mcpQuery.schema } as never,
      },
      async (request, reply) => {
        const text = typeof request.body === 'string' ? request.body : '';
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = undefined;
        }
        if (parsed !== undefined) request.mcp = described(parsed);
        const headers = new Headers();
        for (const name of TRANSPORT_HEADERS) {
          const value = request.headers[name];
          if (typeof value === 'string') headers.set(name, value);
        }
        const webRequest = new Request(`http://stockroom${MCP_PATH}`, {
          method: 'POST',
          headers,
          // Malformed JSON goes to the transport as sent, which answers with a parse error.
          ...(parsed === undefined ? { body: text } : {}),
        });
        const response = await answerMcp(services, request, webRequest, parsed);
        return forward(response, reply);
      },
    );
  });
}

/** The transport's answer sent through the reply, so every hook of the API host still runs. */
async function forward(response: Response, reply: FastifyReply): Promise<FastifyReply> {
  reply.code(response.status);
  const type = response.headers.get('content-type');
  response.headers.forEach((value, name) => {
    if (name !== 'content-type' && name !== 'content-length') reply.header(name, value);
  });
  const body = await response.text();
  if (body === '') return reply.send();
  reply.type(type?.startsWith('application/json') ? JSON_TYPE : (type ?? JSON_TYPE));
  return reply.send(body);
}
