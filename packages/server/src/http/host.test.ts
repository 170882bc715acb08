import { connect } from 'node:net';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterEach, describe, expect, test } from 'vitest';
import { createHost, type ErrorTable, type HostDescription } from './host.js';

/**
 * The host shell on a tiny host of its own: the rules every host shares (headers, request ids,
 * 404/405, answers before routing, the request line, the error handler, CONNECT and requests
 * that are not HTTP) are tested here once; each host's tests check its own error table.
 */

interface TinyError {
  status: number;
  code: string;
  allow?: string;
}

class TinyThrown extends Error {}

const TABLE: ErrorTable<TinyError> = {
  badUrl: () => ({ status: 400, code: 'BAD_URL' }),
  paramTooLong: () => ({ status: 404, code: 'LONG_PARAM' }),
  noRoute: (_request, _path, allowed) =>
    allowed.length > 0
      ? { status: 405, code: 'METHOD', allow: allowed.join(', ') }
      : { status: 404, code: 'NOT_FOUND' },
  connect: (allowed) => ({ status: 405, code: 'CONNECT', allow: allowed.join(', ') }),
  unreadable: (_request, error) => ({ status: error.statusCode as number, code: 'UNREADABLE' }),
  own: (error) => (error instanceof TinyThrown ? { status: 409, code: 'OWN' } : undefined),
  internal: { log: 'tiny failure', answer: () => ({ status: 500, code: 'INTERNAL' }) },
  frameworkFailure: { log: 'tiny framework failure', answer: () => ({ status: 500, code: 'X' }) },
  unparsed: {
    headersTooLarge: () => ({ status: 431, code: 'HEADERS' }),
    malformed: () => ({ status: 400, code: 'MALFORMED' }),
  },
};

const KEY_SHAPED = 'sr_org_0123456789abcdef0123456789abcdef0123';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

type Line = Record<string, unknown>;
const opened: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((app) => app.close()));
});

async function tinyHost(
  overrides: Partial<HostDescription<TinyError>> = {},
): Promise<{ app: FastifyInstance; lines: Line[]; counted: unknown[][] }> {
  const lines: Line[] = [];
  const counted: unknown[][] = [];
  const logger = pino(
    { level: 'info' },
    { write: (line: string) => void lines.push(JSON.parse(line)) },
  );
  const app = await createHost<TinyError>({
    logger,
    trustProxy: ['10.0.0.1'],
    maxParamLength: 20,
    headers: {
      requestIds: true,
      always: [['x-always', 'yes']],
      onReplies: [['x-reply', 'yes']],
      onSockets: [['x-socket', 'yes']],
      beforeRouting: (_request, reply) => void reply.header('x-hooks-would', 'yes'),
    },
    representation: {
      send: (_request, reply, error) => {
        if (error.allow) reply.header('allow', error.allow);
        return reply.code(error.status).send({ code: error.code });
      },
      raw: (error, requestId) => ({
        status: error.status,
        headers: error.allow ? [['allow', error.allow]] : [],
        type: 'application/json',
        body: JSON.stringify({ code: error.code, requestId }),
      }),
    },
    errors: TABLE,
    logFields: () => ({ extra: 1 }),
    count: (...args) => void counted.push(args),
    ...overrides,
  });
  app.get('/things/:name', async (request) => request.params);
  app.post('/things', async (request) => ({ got: request.body }));
  app.get('/own', async () => {
    throw new TinyThrown('mine');
  });
  app.get('/broken', async () => {
    throw new Error('unexpected');
  });
  opened.push(app);
  return { app, lines, counted };
}

const requestLines = (lines: Line[]) => lines.filter((line) => line.msg === 'request');

describe('answers', () => {
  test('a request no route takes is a 404 from the table, with the headers of every answer', async () => {
    const { app } = await tinyHost();
    const reply = await app.inject({ url: '/nowhere?x=1' });
    expect(reply.statusCode).toBe(404);
    expect(reply.json()).toEqual({ code: 'NOT_FOUND' });
    expect(reply.headers['x-always']).toBe('yes');
    expect(reply.headers['x-reply']).toBe('yes');
    expect(reply.headers['x-socket']).toBeUndefined();
    expect(reply.headers['x-request-id']).toMatch(UUID);
  });

  test('another method on a known path is a 405 naming the methods its routes have', async () => {
    const { app } = await tinyHost();
    const reply = await app.inject({ method: 'DELETE', url: '/things/a' });
    expect(reply.statusCode).toBe(405);
    expect(reply.headers.allow).toBe('GET, HEAD');
  });

  test('is given before the body is read: malformed JSON to no route is a 404, not a 400', async () => {
    const { app } = await tinyHost();
    const reply = await app.inject({
      method: 'POST',
      url: '/nowhere',
      headers: { 'content-type': 'application/json' },
      payload: '{not json',
    });
    expect(reply.json()).toEqual({ code: 'NOT_FOUND' });
  });

  test('a malformed percent-encoding and an overlong parameter, before routing, with the hooks’ headers', async () => {
    const { app } = await tinyHost();
    const bad = await app.inject({ url: '/things/%zz' });
    expect([bad.statusCode, bad.json()]).toEqual([400, { code: 'BAD_URL' }]);
    expect(bad.headers['x-hooks-would']).toBe('yes');
    expect(bad.headers['x-always']).toBe('yes');
    expect(bad.headers['x-request-id']).toMatch(UUID);
    const long = await app.inject({ url: `/things/${'a'.repeat(21)}` });
    expect([long.statusCode, long.json()]).toEqual([404, { code: 'LONG_PARAM' }]);
    // Only those: on a routed request the host's own hooks add what they add.
    expect((await app.inject({ url: '/things/a' })).headers['x-hooks-would']).toBeUndefined();
  });

  test('errors: the host’s own, a body that cannot be read, and anything else (logged)', async () => {
    const { app, lines } = await tinyHost();
    expect((await app.inject({ url: '/own' })).json()).toEqual({ code: 'OWN' });
    const unreadable = await app.inject({
      method: 'POST',
      url: '/things',
      headers: { 'content-type': 'application/json' },
      payload: '{not json',
    });
    expect([unreadable.statusCode, unreadable.json()]).toEqual([400, { code: 'UNREADABLE' }]);
    const broken = await app.inject({ url: '/broken' });
    expect([broken.statusCode, broken.json()]).toEqual([500, { code: 'INTERNAL' }]);
    expect(lines.filter((line) => line.level === 50)).toMatchObject([
      { msg: 'tiny failure', err: { message: 'unexpected' } },
    ]);
  });

  test('a refusal comes before anything else, on routes and unknown paths alike', async () => {
    const { app } = await tinyHost({
      refuse: (headers) =>
        headers.authorization === 'yes' ? undefined : { status: 401, code: 'REFUSED' },
    });
    for (const url of ['/things/a', '/nowhere', '/things/%zz']) {
      const reply = await app.inject({ url });
      expect([reply.statusCode, reply.json()]).toEqual([401, { code: 'REFUSED' }]);
      expect(reply.headers['x-always']).toBe('yes');
    }
    expect(
      (await app.inject({ url: '/things/a', headers: { authorization: 'yes' } })).json(),
    ).toEqual({ name: 'a' });
  });

  test('a catch-all route of a plugin is no route', async () => {
    const { app } = await tinyHost({ catchAllRoutes: ['*'] });
    app.options('*', async () => 'caught');
    const reply = await app.inject({ method: 'OPTIONS', url: '/anything' });
    expect([reply.statusCode, reply.json()]).toEqual([404, { code: 'NOT_FOUND' }]);
  });
});

describe('request ids', () => {
  test('a well-formed incoming x-request-id is kept; a malformed or key-shaped one replaced', async () => {
    const { app } = await tinyHost();
    const id = async (value: string) =>
      (await app.inject({ url: '/things/a', headers: { 'x-request-id': value } })).headers[
        'x-request-id'
      ];
    expect(await id('abc-123.x:y_z')).toBe('abc-123.x:y_z');
    expect(await id('has space')).toMatch(UUID);
    expect(await id('a'.repeat(129))).toMatch(UUID);
    expect(await id(KEY_SHAPED)).toMatch(UUID);
  });

  test('a host without them sends none and numbers its requests itself', async () => {
    const { app, lines } = await tinyHost({
      headers: { requestIds: false, always: [['x-always', 'yes']] },
    });
    const reply = await app.inject({ url: '/things/a', headers: { 'x-request-id': 'mine' } });
    expect(reply.headers['x-request-id']).toBeUndefined();
    expect(requestLines(lines)[0]?.requestId).toMatch(/^req-/);
  });
});

describe('the request line', () => {
  test('one per request, routed or not, with the client a trusted proxy names', async () => {
    const { app, lines, counted } = await tinyHost();
    await app.inject({
      url: '/things/a?secret=1',
      remoteAddress: '10.0.0.1',
      headers: { 'x-forwarded-for': '203.0.113.9', 'x-request-id': 'one' },
    });
    await app.inject({
      url: '/nowhere',
      remoteAddress: '192.0.2.7',
      headers: { 'x-request-id': 'two' },
    });
    await app.inject({
      url: '/%zz',
      remoteAddress: '192.0.2.8',
      headers: { 'x-request-id': 'three' },
    });
    const written = requestLines(lines);
    expect(written).toMatchObject([
      {
        method: 'GET',
        route: '/things/:name',
        status: 200,
        requestId: 'one',
        extra: 1,
        clientAddress: '203.0.113.9',
      },
      {
        method: 'GET',
        route: null,
        status: 404,
        requestId: 'two',
        extra: 1,
        clientAddress: '192.0.2.7',
      },
      {
        method: 'GET',
        route: null,
        status: 400,
        requestId: 'three',
        extra: 1,
        clientAddress: '192.0.2.8',
      },
    ]);
    // The fields in this order, and nothing else (no URL: a query string may hold anything).
    expect(Object.keys(written[0] as Line).slice(-8)).toEqual([
      'method',
      'route',
      'status',
      'durationMs',
      'requestId',
      'extra',
      'clientAddress',
      'msg',
    ]);
    expect(JSON.stringify(lines)).not.toContain('secret');
    expect(counted.map(([route, status]) => [route, status])).toEqual([
      ['/things/:name', 200],
      [null, 404],
      [null, 400],
    ]);
  });

  test('is written once the host’s settling work has ended', async () => {
    const order: string[] = [];
    const { app, lines } = await tinyHost({
      settle: () =>
        Promise.resolve().then(() => {
          order.push(`settled with ${requestLines(lines).length} lines`);
        }),
    });
    await app.inject({ url: '/things/a' });
    expect(order).toEqual(['settled with 0 lines']);
    expect(requestLines(lines)).toHaveLength(1);
  });
});

describe('answers written to the socket', () => {
  async function rawExchange(app: FastifyInstance, request: string): Promise<string> {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.write(request));
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk.toString('latin1');
      });
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
  }

  test('CONNECT: the table’s answer with every method of the host, and a request line', async () => {
    const { app, lines, counted } = await tinyHost();
    const text = await rawExchange(
      app,
      'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\nx-request-id: tunnel\r\n\r\n',
    );
    const body = JSON.stringify({ code: 'CONNECT', requestId: 'tunnel' });
    expect(text).toBe(
      [
        'HTTP/1.1 405 Method Not Allowed',
        'Connection: close',
        'allow: GET, HEAD, POST',
        'x-request-id: tunnel',
        'x-always: yes',
        'x-socket: yes',
        'content-type: application/json',
        `content-length: ${body.length}`,
        '',
        body,
      ].join('\r\n'),
    );
    expect(requestLines(lines)).toMatchObject([
      {
        method: 'CONNECT',
        route: null,
        status: 405,
        requestId: 'tunnel',
        clientAddress: '127.0.0.1',
      },
    ]);
    expect(counted).toEqual([[null, 405, 0]]);
  });

  test('a request that is not HTTP: the table’s answer, a fresh request id, a line with the reason', async () => {
    const { app, lines } = await tinyHost();
    const text = await rawExchange(app, 'GET / HTTP/1.1\r\nbroken header line\r\n\r\n');
    const [head = '', body = ''] = text.split('\r\n\r\n');
    const requestId = /x-request-id: (\S+)/.exec(head)?.[1] ?? '';
    expect(requestId).toMatch(UUID);
    expect(head.split('\r\n')).toEqual([
      'HTTP/1.1 400 Bad Request',
      'Connection: close',
      `x-request-id: ${requestId}`,
      'x-always: yes',
      'x-socket: yes',
      'content-type: application/json',
      `content-length: ${body.length}`,
    ]);
    expect(JSON.parse(body)).toEqual({ code: 'MALFORMED', requestId });
    expect(requestLines(lines)).toMatchObject([
      { method: null, route: null, status: 400, requestId, reason: 'HPE_INVALID_HEADER_TOKEN' },
    ]);
  });
});
