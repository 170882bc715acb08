import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { FastifyRequest } from 'fastify';
import { quote } from '../api/query-validator.js';
import type { Services } from '../context.js';
import { VERSION } from '../version.js';
import type { McpTool, ToolContext } from './tool.js';
import { TOOLS } from './tools/index.js';

const INSTRUCTIONS =
  'Read-only access to one organization’s inventory in Stockroom. Use search_items to find items (by text, status, SKU or barcode) and to go through many of them page by page with its cursor; get_item for the full details of one item by _id; list_locations for the stock locations whose codes search_items takes as `location`; get_organization for the organization the key belongs to. Nothing can be changed through this server.';

const BY_NAME = new Map<string, McpTool>(TOOLS.map((tool) => [tool.name, tool]));
const LISTINGS = TOOLS.map((tool) => tool.listing);
const TOOL_NAMES = TOOLS.map((tool) => tool.name).join(', ');

/**
 * One JSON Schema validator for every request's server: the SDK would build an Ajv instance per
 * server, and a stateless server is built per request. The server itself validates nothing
 * with it (it lists no tool schemas of its own to check), but keeps it cheap to build.
 */
let validator: AjvJsonSchemaValidator | undefined;

/**
 * A low-level MCP server for one HTTP request: tools/list and tools/call on the request's key
 * and organization (checked by the API's hooks before it is built). Stateless: nothing of it
 * outlives the request, so any instance can answer the next one.
 */
function requestServer(context: ToolContext): Server {
  validator ??= new AjvJsonSchemaValidator();
  const server = new Server(
    { name: 'stockroom', title: 'Stockroom inventory', version: VERSION },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS, jsonSchemaValidator: validator },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: LISTINGS }));
  server.setRequestHandler(CallToolRequestSchema, async (call) => {
    const tool = BY_NAME.get(call.params.name);
    if (!tool) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown tool ${quote(call.params.name)}: the tools are ${TOOL_NAMES} (tools/list describes them).`,
      );
    }
    return tool.call(context, call.params.arguments ?? {});
  });
  return server;
}

/**
 * Answers one HTTP request to /mcp (Streamable HTTP, stateless, JSON responses): a new server
 * and transport per request, as the SDK recommends for a server run as several instances
 * without sticky sessions.
 */
export async function answerMcp(
  services: Services,
  request: FastifyRequest,
  webRequest: Request,
  parsedBody: unknown,
): Promise<Response> {
  const principal = request.principal;
  const organization = request.organization;
  if (!principal || !organization) throw new Error('authorize did not run');
  const server = requestServer({ services, request, principal, organization });
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  try {
    await server.connect(transport);
    return await transport.handleRequest(
      webRequest,
      parsedBody === undefined ? {} : { parsedBody },
    );
  } finally {
    // The JSON answer is complete once handleRequest resolves: nothing is left to send.
    void server.close();
  }
}
