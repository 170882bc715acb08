import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import type { Services } from '../context.js';
import { createApiHost, startServices } from '../server.js';
import { startTestServer, type TestServer } from '../testing/harness.js';

/**
 * The MCP server behind two API instances on one database, without sticky sessions: a client
 * initializes on one and calls tools on the other, over real HTTP (loopback, port 0). Nothing
 * of a request outlives it (server.ts), so either instance answers any request.
 */
describe('MCP across two instances', () => {
  let server: TestServer;
  let other: { services: Services; api: FastifyInstance };
  const origins: string[] = [];

  beforeAll(async () => {
    server = await startTestServer();
    const { services } = await startServices(
      loadConfig({ DATABASE_URL: server.dbPath, LOG_LEVEL: 'silent', NODE_ENV: 'test' }),
      { apiUrl: 'http://api.stockroom.test', docsUrl: 'http://docs.stockroom.test', logger: false },
    );
    other = { services, api: await createApiHost(services, false) };
    for (const api of [server.server.api, other.api]) {
      origins.push(await api.listen({ port: 0, host: '127.0.0.1' }));
    }
  });
  afterAll(async () => {
    await other?.api.close();
    await other?.services.close();
    await server?.close();
  });

  it('initializes on one instance and calls tools on the other', async () => {
    const served: Array<[string, string]> = [];
    // The first instance takes initialize; the second takes everything after it.
    const across = async (input: string | URL | Request, init?: RequestInit) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      const body =
        typeof init?.body === 'string' ? (JSON.parse(init.body) as { method?: string }) : {};
      const origin = (body.method === 'initialize' ? origins[0] : origins[1]) as string;
      served.push([body.method ?? init?.method ?? 'GET', origin]);
      return fetch(new URL(url.pathname + url.search, origin), init);
    };
    const client = new Client({ name: 'two-instances', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL('/mcp', origins[0]), {
        fetch: across,
        requestInit: { headers: { 'x-api-key': server.demo.key } },
      }),
    );
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('get_item');
    const page = (await client.callTool({
      name: 'search_items',
      arguments: { limit: 3, fields: '_id,name' },
    })) as CallToolResult;
    expect(page.isError).toBeFalsy();
    const first = (page.structuredContent as { data: { _id: string }[] }).data[0];
    const item = (await client.callTool({
      name: 'get_item',
      arguments: { itemId: first?._id },
    })) as CallToolResult;
    expect(item.isError).toBeFalsy();
    expect((item.structuredContent as { data: { _id: string } }).data._id).toBe(first?._id);
    await client.close();
    expect(served[0]).toEqual(['initialize', origins[0]]);
    const calls = served.filter(([method]) => method === 'tools/call' || method === 'tools/list');
    expect(calls.length).toBe(3);
    for (const [, origin] of calls) expect(origin).toBe(origins[1]);
  });
});
