import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor } from '../../operations/audit.js';
import { createLocation } from '../../operations/locations.js';
import { stockText } from '../../store/items/stock.js';
import { startTestServer, type TestServer } from '../../testing/harness.js';
import {
  expectApiError,
  KEYED_ROUTES,
  keyedRouteSecuritySuite,
} from '../../testing/security-suite.js';

/** A JSON-RPC POST as MCP clients send it. */
const MCP_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};

function rpc(method: string, params: Record<string, unknown> = {}, id = 1): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method, params });
}

keyedRouteSecuritySuite(KEYED_ROUTES.mcp);

/** An SDK client connected to the test server's /mcp with this key (in-process fetch). */
async function connect(server: TestServer, key: string | null): Promise<Client> {
  const client = new Client({ name: 'stockroom-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', server.apiUrl), {
    fetch: server.fetch,
    requestInit: { headers: key === null ? {} : { 'x-api-key': key } },
  });
  await client.connect(transport);
  return client;
}

/** The text of a tool result (every result carries one text content). */
function textOf(result: CallToolResult): string {
  const first = result.content[0];
  if (first?.type !== 'text') throw new Error('the result has no text');
  return first.text;
}

describe('the MCP server at /mcp', () => {
  let server: TestServer;
  let orgId: string;
  let key: string;
  let client: Client;
  const ids = new Map<string, string>();

  beforeAll(async () => {
    server = await startTestServer({ captureLogs: true });
    const org = await server.createOrganization({ name: 'Hardware Store' });
    orgId = org.id;
    key = (await server.createKey({ organizationId: orgId, rateLimit: null })).key;
    for (const [code, name] of [
      ['WH', 'Warehouse'],
      ['SHOP', 'Shop floor'],
    ] as const) {
      await createLocation(server.store, cliActor(), org, { code, name });
    }
    await server.createItems(orgId, [
      {
        name: 'Cordless drill',
        sku: 'DRL-1',
        barcode: '4006381333931',
        status: 'Active',
        quantity: 14,
        stock: stockText({ SHOP: 4, WH: 10 }),
      },
      {
        name: 'Drill bits | set of 10',
        sku: 'DRL-2',
        status: 'Active',
        quantity: 2,
        stock: stockText({ SHOP: 0, WH: 2 }),
      },
      { name: 'Hand saw', sku: 'SAW-1', status: 'Active', quantity: 0, description: 'Fine teeth' },
      { name: 'Old hammer', sku: 'HAM-1', status: 'Discontinued', quantity: 1 },
      {
        name: 'Tape measure',
        sku: 'TAP-1',
        status: 'Draft',
        quantity: 40,
        customFields: '{"color":"yellow"}',
      },
    ]);
    for (const item of await server.store.listItems(orgId, { limit: 100 })) {
      ids.set(item.sku as string, item.id);
    }
    client = await connect(server, key);
  });
  afterAll(async () => {
    await client?.close();
    await server.close();
  });

  const api = async (path: string) => {
    const response = await server.request(path, { key });
    expect(response.status, response.text).toBe(200);
    return response.body;
  };

  it('initializes with the server’s name, version and instructions, without a session', async () => {
    expect(client.getServerVersion()?.name).toBe('stockroom');
    expect(client.getServerCapabilities()?.tools).toBeDefined();
    expect(client.getInstructions()).toContain('search_items');
    expect((client.transport as StreamableHTTPClientTransport).sessionId).toBeUndefined();
  });

  it('lists the tools with input and output schemas made from the API’s', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      'get_organization',
      'list_locations',
      'search_items',
      'get_item',
    ]);
    const search = tools.find((tool) => tool.name === 'search_items');
    expect(Object.keys(search?.inputSchema.properties ?? {})).toEqual([
      'search',
      'status',
      'sku',
      'barcode',
      'location',
      'limit',
      'cursor',
      'fields',
    ]);
    expect(search?.inputSchema.properties?.limit).toMatchObject({
      type: 'integer',
      maximum: 100,
      default: 20,
    });
    expect(search?.inputSchema.properties?.status).toMatchObject({
      enum: ['Draft', 'Active', 'Inactive', 'Discontinued'],
    });
    expect(JSON.stringify(search?.outputSchema)).not.toContain('$ref');
    const getItem = tools.find((tool) => tool.name === 'get_item');
    expect(getItem?.inputSchema.required).toEqual(['itemId']);
    for (const tool of tools) {
      expect(tool.outputSchema?.type).toBe('object');
      expect(tool.annotations?.readOnlyHint).toBe(true);
      expect(tool.description?.length).toBeGreaterThan(100);
    }
  });

  it('get_organization answers the body of GET /api/v1/organization', async () => {
    const result = (await client.callTool({ name: 'get_organization' })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual(await api('/api/v1/organization'));
    expect(textOf(result)).toContain('Hardware Store');
  });

  it('search_items answers the body of the item list for the same parameters, as a table', async () => {
    const all = (await client.callTool({ name: 'search_items' })) as CallToolResult;
    expect(all.structuredContent).toEqual(await api('/api/v1/inventory/items?limit=20'));
    const text = textOf(all);
    expect(text).toContain('| _id | name | sku | barcode | status | quantity |');
    expect(text).toContain('Drill bits \\| set of 10');
    expect(text).toContain('last page');
    const drills = (await client.callTool({
      name: 'search_items',
      arguments: { search: 'DRILL', status: 'Active', fields: 'name,quantity', limit: 5 },
    })) as CallToolResult;
    expect(drills.structuredContent).toEqual(
      await api('/api/v1/inventory/items?search=DRILL&status=Active&fields=name,quantity&limit=5'),
    );
    expect(textOf(drills)).toContain('| name | quantity |');
    const bySku = (await client.callTool({
      name: 'search_items',
      arguments: { sku: 'SAW-1' },
    })) as CallToolResult;
    expect(
      (bySku.structuredContent as { data: { _id: string }[] }).data.map((item) => item._id),
    ).toEqual([ids.get('SAW-1')]);
    const byBarcode = (await client.callTool({
      name: 'search_items',
      arguments: { barcode: '4006381333931', limit: 1000 },
    })) as CallToolResult;
    expect(byBarcode.structuredContent).toEqual(
      await api('/api/v1/inventory/items?barcode=4006381333931&limit=100'),
    );
  });

  it('list_locations answers the body of GET /api/v1/inventory/locations, as a table', async () => {
    const result = (await client.callTool({ name: 'list_locations' })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual(await api('/api/v1/inventory/locations'));
    expect(textOf(result)).toContain('| SHOP | Shop floor |');
  });

  it('search_items takes a location: the items in stock there, as the API answers', async () => {
    const atShop = (await client.callTool({
      name: 'search_items',
      arguments: { location: 'SHOP', fields: 'sku,stock' },
    })) as CallToolResult;
    expect(atShop.structuredContent).toEqual(
      await api('/api/v1/inventory/items?location=SHOP&fields=sku,stock&limit=20'),
    );
    expect(
      (atShop.structuredContent as { data: { sku: string }[] }).data.map((item) => item.sku),
    ).toEqual(['DRL-1']);
    const unknown = (await client.callTool({
      name: 'search_items',
      arguments: { location: 'NOWHERE' },
    })) as CallToolResult;
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toContain('Error INVALID_PARAMETER (argument: location)');
  });

  it('get_item answers the body of GET /api/v1/inventory/item', async () => {
    const itemId = ids.get('TAP-1') as string;
    const result = (await client.callTool({
      name: 'get_item',
      arguments: { itemId },
    })) as CallToolResult;
    expect(result.structuredContent).toEqual(await api(`/api/v1/inventory/item?itemId=${itemId}`));
    expect(textOf(result)).toContain('Item Tape measure');
    expect(textOf(result)).toContain('customFields: {"color":"yellow"}');
    const narrow = (await client.callTool({
      name: 'get_item',
      arguments: { itemId, fields: 'sku,quantity' },
    })) as CallToolResult;
    expect(narrow.structuredContent).toEqual({ data: { sku: 'TAP-1', quantity: 40 } });
  });

  it('walks every item once with the cursor', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const result = (await client.callTool({
        name: 'search_items',
        arguments: { limit: 2, fields: '_id', ...(cursor ? { cursor } : {}) },
      })) as CallToolResult;
      const page = result.structuredContent as {
        data: { _id: string }[];
        nextCursor: string | null;
      };
      seen.push(...page.data.map((item) => item._id));
      if (page.nextCursor !== null) expect(textOf(result)).toContain(`cursor "${page.nextCursor}"`);
      cursor = page.nextCursor ?? undefined;
      pages++;
    } while (cursor !== undefined);
    expect(pages).toBe(3);
    expect(seen).toEqual([...ids.values()]);
  });

  it('answers API errors as tool results with isError, the code and the message', async () => {
    const cases: Array<[string, Record<string, unknown>, string, string]> = [
      ['search_items', { status: 'active' }, 'INVALID_PARAMETER', 'status must be one of'],
      ['search_items', { limit: 0 }, 'INVALID_PARAMETER', 'limit must be a whole number'],
      [
        'search_items',
        { search: 'drill', sku: 'DRL-1' },
        'INVALID_PARAMETER',
        'cannot be combined',
      ],
      ['search_items', { cursor: 'not-a-cursor' }, 'INVALID_PARAMETER', 'Invalid cursor'],
      ['search_items', { updatedSince: '2026-01-01' }, 'UNKNOWN_PARAMETER', 'search_items accepts'],
      ['search_items', { sku: 12 }, 'INVALID_PARAMETER', 'must be a string'],
      ['get_item', {}, 'MISSING_PARAMETER', 'itemId'],
      ['get_item', { itemId: 'abc' }, 'INVALID_PARAMETER', '24-character'],
      ['get_item', { itemId: '0'.repeat(24) }, 'ITEM_NOT_FOUND', 'List items'],
      [
        'get_item',
        { itemId: ids.get('SAW-1'), fields: 'price' },
        'INVALID_PARAMETER',
        'fields must be',
      ],
      ['get_organization', { organizationId: orgId }, 'UNKNOWN_PARAMETER', 'accepts: none'],
    ];
    for (const [name, args, code, words] of cases) {
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      expect(result.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      expect(result.structuredContent).toBeUndefined();
      expect(textOf(result)).toContain(code);
      expect(textOf(result)).toContain(words);
    }
    // A cursor made for other filters, as the API refuses it.
    const first = (await client.callTool({
      name: 'search_items',
      arguments: { limit: 1 },
    })) as CallToolResult;
    const cursor = (first.structuredContent as { nextCursor: string }).nextCursor;
    const other = (await client.callTool({
      name: 'search_items',
      arguments: { status: 'Active', cursor },
    })) as CallToolResult;
    expect(textOf(other)).toContain('it was made for other filters');
  });

  it('answers an unknown tool with a JSON-RPC error naming the tools', async () => {
    await expect(client.callTool({ name: 'delete_item', arguments: {} })).rejects.toThrow(
      /Unknown tool "delete_item".*get_organization, list_locations, search_items, get_item/,
    );
  });

  it('checks the feature and the permission per tool, as the API does', async () => {
    const viewless = (
      await server.createKey({ organizationId: orgId, permissions: [], rateLimit: null })
    ).key;
    const noPermission = await connect(server, viewless);
    const organization = (await noPermission.callTool({
      name: 'get_organization',
    })) as CallToolResult;
    expect(organization.isError).toBeFalsy();
    const items = (await noPermission.callTool({ name: 'search_items' })) as CallToolResult;
    expect(items.isError).toBe(true);
    expect(textOf(items)).toContain('INSUFFICIENT_PERMISSIONS');
    expect(textOf(items)).toContain('inventory:view');
    await noPermission.close();

    const bare = await server.createOrganization({ features: [] });
    const bareKey = (await server.createKey({ organizationId: bare.id, rateLimit: null })).key;
    const noFeature = await connect(server, bareKey);
    const item = (await noFeature.callTool({
      name: 'get_item',
      arguments: { itemId: ids.get('SAW-1') },
    })) as CallToolResult;
    expect(item.isError).toBe(true);
    expect(textOf(item)).toContain('FEATURE_DISABLED');
    await noFeature.close();
  });

  it('spends the quota on tools/call only, and counts every request toward the rate limit', async () => {
    const { key: limited, record } = await server.createKey({
      organizationId: orgId,
      remaining: 3,
      rateLimit: { max: 100, windowSeconds: 3600 },
    });
    const quota = await connect(server, limited);
    await quota.listTools();
    await quota.listTools();
    expect((await server.store.getApiKey(record.id))?.remaining).toBe(3);
    const refused = (await quota.callTool({
      name: 'search_items',
      arguments: { limit: 'x' },
    })) as CallToolResult;
    expect(refused.isError).toBe(true);
    expect((await server.store.getApiKey(record.id))?.remaining).toBe(3);
    await quota.callTool({ name: 'get_organization' });
    await quota.callTool({ name: 'search_items' });
    expect((await server.store.getApiKey(record.id))?.remaining).toBe(1);
    await quota.close();
    // initialize, its notification, two lists and three calls: seven requests of the key.
    const verify = await server.request('/api/v1/auth/verify', { key: limited });
    expect(verify.headers.get('x-ratelimit-remaining')).toBe(String(100 - 8));
    expect(verify.body.key.remaining).toBe(1);
  });

  it('serves an agent looking for items low in stock: search, then the details of one', async () => {
    const agent = await connect(server, key);
    const { tools } = await agent.listTools();
    expect(tools.map((tool) => tool.name)).toContain('search_items');
    const page = (await agent.callTool({
      name: 'search_items',
      arguments: { status: 'Active', fields: '_id,name,quantity', limit: 100 },
    })) as CallToolResult;
    const items = (
      page.structuredContent as { data: { _id: string; name: string; quantity: number }[] }
    ).data;
    const low = items.filter((item) => item.quantity <= 2).sort((a, b) => a.quantity - b.quantity);
    expect(low.map((item) => item.name)).toEqual(['Hand saw', 'Drill bits | set of 10']);
    expect(textOf(page)).toMatch(/\| Hand saw \| 0 \|/);
    const details = (await agent.callTool({
      name: 'get_item',
      arguments: { itemId: low[0]?._id },
    })) as CallToolResult;
    expect(details.structuredContent).toMatchObject({
      data: { name: 'Hand saw', sku: 'SAW-1', quantity: 0, description: 'Fine teeth' },
    });
    await agent.close();
  });

  it('answers HTTP errors of the transport and of the API host in their own terms', async () => {
    // No key: the API's 401 envelope, before anything of MCP is read.
    const keyless = await server.request('/mcp', {
      method: 'POST',
      headers: MCP_HEADERS,
      body: rpc('tools/list'),
    });
    expectApiError(keyless, 401, 'MISSING_API_KEY');
    // GET (an event stream) and DELETE (a session): a 405 naming POST.
    for (const method of ['GET', 'DELETE']) {
      const response = await server.request('/mcp', {
        method,
        key,
        headers: { accept: 'text/event-stream' },
      });
      expectApiError(response, 405, 'METHOD_NOT_ALLOWED');
      expect(response.headers.get('allow')).toBe('POST, OPTIONS');
    }
    // Malformed JSON: the JSON-RPC parse error.
    const malformed = await server.request('/mcp', {
      method: 'POST',
      key,
      headers: MCP_HEADERS,
      body: '{"jsonrpc"',
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.code).toBe(-32700);
    // A query parameter: refused as on every endpoint.
    const query = await server.request('/mcp?organizationId=x', {
      method: 'POST',
      key,
      headers: MCP_HEADERS,
      body: rpc('tools/list'),
    });
    expectApiError(query, 400, 'UNKNOWN_PARAMETER');
    // A raw tools/call needs no initialize (stateless), and carries the API host's headers.
    const raw = await server.request('/mcp', {
      method: 'POST',
      key,
      headers: MCP_HEADERS,
      body: rpc('tools/call', { name: 'get_organization', arguments: {} }, 7),
    });
    expect(raw.status).toBe(200);
    expect(raw.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(raw.headers.get('x-content-type-options')).toBe('nosniff');
    expect(raw.headers.get('cache-control')).toBe('private, no-cache');
    expect(raw.headers.get('x-request-id')).toMatch(/.+/);
    expect(raw.body).toMatchObject({
      jsonrpc: '2.0',
      id: 7,
      result: { structuredContent: { data: { _id: orgId } } },
    });
  });

  it('never answers hostile bodies with a 5xx', async () => {
    const bodies: Array<[string, Record<string, string>]> = [
      ['', MCP_HEADERS],
      ['null', MCP_HEADERS],
      ['[]', MCP_HEADERS],
      [
        '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_items","arguments":[1]}}',
        MCP_HEADERS,
      ],
      [
        '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_item","arguments":{"itemId":{"$gt":""}}}}',
        MCP_HEADERS,
      ],
      [
        '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_items","arguments":{"limit":1e308,"search":""}}}',
        MCP_HEADERS,
      ],
      ['{"jsonrpc":"2.0","id":1,"method":"resources/list"}', MCP_HEADERS],
      [rpc('tools/list'), { 'content-type': 'text/plain', accept: MCP_HEADERS.accept }],
      [rpc('tools/list'), { 'content-type': 'application/json', accept: 'application/json' }],
      [
        `[${Array.from({ length: 3 }, (_, i) => rpc('tools/call', { name: 'get_organization' }, i)).join(',')}]`,
        MCP_HEADERS,
      ],
      [
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'search_items', arguments: { search: 'x'.repeat(300_000) } },
        }),
        MCP_HEADERS,
      ],
    ];
    for (const [body, headers] of bodies) {
      const response = await server.request('/mcp', { method: 'POST', key, headers, body });
      expect(response.status, `${body.slice(0, 80)} → ${response.text.slice(0, 200)}`).toBeLessThan(
        500,
      );
    }
  });

  it('answers a CORS preflight with the headers an MCP client sends', async () => {
    const response = await server.request('/mcp', {
      method: 'OPTIONS',
      headers: {
        origin: 'https://agent.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, mcp-protocol-version, x-api-key',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-methods')).toContain('POST');
    expect(response.headers.get('access-control-allow-headers')).toContain('mcp-protocol-version');
  });

  it('logs each request with the transport, the JSON-RPC method and the tool', async () => {
    await client.callTool({ name: 'get_organization' });
    const line = server.logs.findLast((log) => log.msg === 'request' && log.route === '/mcp');
    expect(line).toMatchObject({
      method: 'POST',
      status: 200,
      transport: 'mcp',
      mcpMethods: 'tools/call',
      tools: 'get_organization',
    });
    expect(JSON.stringify(server.logs)).not.toContain(key);
  });
});
