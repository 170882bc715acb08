import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKey } from '../keys/format.js';
import { startTestServer, type TestServer } from '../testing/harness.js';

/**
 * A key pasted where /mcp expects a name (the JSON-RPC method, the tool, an argument) is never
 * written whole to the log nor sent back in an error: like every other echo of what a client
 * sent, it is cut to its display prefix (docs/architecture.md#keys).
 */
describe('keys in MCP names are masked in logs and errors', () => {
  let t: TestServer;
  let key: string;
  /** Another key's plaintext, the secret a confused agent sends as a name. */
  const pasted = generateKey('organization').key;

  beforeAll(async () => {
    t = await startTestServer({ captureLogs: true });
    const org = await t.createOrganization();
    key = (await t.createKey({ organizationId: org.id, rateLimit: null })).key;
  });
  afterAll(() => t?.close());

  async function post(message: Record<string, unknown>) {
    const before = t.logs.length;
    const answer = await t.request('/mcp', {
      key,
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', ...message }),
    });
    const logged = JSON.stringify(t.logs.slice(before));
    return { answer, logged };
  }

  /** Neither the secret nor any part of it past its display prefix. */
  function expectMasked(text: string) {
    expect(text).not.toContain(pasted);
    expect(text).not.toContain(pasted.slice(11));
  }

  it('a key as the JSON-RPC method', async () => {
    const { answer, logged } = await post({ id: 1, method: pasted, params: {} });
    expect(answer.body.error.code).toBe(-32601);
    expectMasked(answer.text);
    expectMasked(logged);
    expect(logged).toContain(`"mcpMethods":"${pasted.slice(0, 11)}…"`);
    // A notification (no id) is logged too, and answered with no body.
    const notification = await post({ method: `notifications/${pasted}` });
    expect(notification.answer.status).toBe(202);
    expectMasked(notification.logged);
  });

  it('a key as the tool name', async () => {
    const { answer, logged } = await post({
      id: 2,
      method: 'tools/call',
      params: { name: pasted, arguments: {} },
    });
    expect(answer.text).toContain('Unknown tool');
    expect(answer.text).toContain(`${pasted.slice(0, 11)}…`);
    expectMasked(answer.text);
    expectMasked(logged);
    expect(logged).toContain(`"tools":"${pasted.slice(0, 11)}…"`);
  });

  it('a key as an argument name, or as a value', async () => {
    for (const args of [
      { [pasted]: 'x' },
      { search: 'tent', [`${pasted}2`]: 1 },
      { status: pasted },
      { fields: `name,${pasted}` },
      { location: pasted },
      { limit: pasted },
      { limit: { [pasted]: 1 } },
    ]) {
      const { answer, logged } = await post({
        id: 3,
        method: 'tools/call',
        params: { name: 'search_items', arguments: args },
      });
      expect(answer.body.result.isError, answer.text).toBe(true);
      expectMasked(answer.text);
      expectMasked(logged);
    }
    const detail = await post({
      id: 4,
      method: 'tools/call',
      params: { name: 'get_item', arguments: { itemId: pasted } },
    });
    expect(detail.answer.body.result.isError).toBe(true);
    expectMasked(detail.answer.text);
    expectMasked(detail.logged);
  });

  it('the whole log of this file never holds the request key either', () => {
    expect(JSON.stringify(t.logs)).not.toContain(key);
  });
});
