import { createHash } from 'node:crypto';
import net from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES, ERROR_STATUS, type ErrorCode } from '../packages/server/src/api/errors.js';
import { PARAMS } from '../packages/server/src/api/params.js';
import { generateKey } from '../packages/server/src/keys/format.js';
import Database from '../packages/server/src/store/sqlite/driver.js';
import { startTestServer, type TestServer } from '../packages/server/src/testing/harness.js';

/**
 * Hostile input, property-based: arbitrary query parameters, headers and methods against every
 * route of both hosts, over raw HTTP to a real server on a real SQLite file. Whatever comes in:
 * never a 5xx; API answers are JSON in the error envelope with a code of the closed set that
 * matches the status, with the security headers; docs answers are HTML, Markdown or plain text
 * as documented, each with a CSP; no key, Authorization value or key hash comes back or reaches
 * a log line; and the stored data is unchanged (a checksum of every table).
 * fast-check prints the seed and the shrunk counterexample of a failure.
 */

const API_PATHS = [
  '/api/v1/health',
  '/api/v1/auth/verify',
  '/api/v1/organization',
  '/api/v1/inventory/items',
  '/api/v1/inventory/item',
];
/** Every query parameter any route knows: a new one is covered as soon as it is defined. */
const PARAM_NAMES = Object.keys(PARAMS);
const TRICKY_NAMES = [
  'limit[]',
  'status[$ne]',
  'a[b][c]',
  '__proto__',
  'constructor',
  'hasOwnProperty',
  'toString',
  '__proto__[x]',
  'constructor[prototype][polluted]',
  'search[]',
  '',
  '%00',
  'limit%00',
  '%ED%A0%80',
  '%',
  '%zz',
];
const METHODS = [
  'GET',
  'GET',
  'GET',
  'GET',
  'HEAD',
  'OPTIONS',
  'POST',
  'PUT',
  'DELETE',
  'PATCH',
  'TRACE',
  'PROPFIND',
  'CONNECTX',
];
const HEADER_LIMIT = 16_384;
/** Runs of each property: a few seconds each on two busy cores. */
const API_RUNS = 1500;
const DOCS_RUNS = 600;

/** UTF-8 percent-encoding of a string whose lone surrogates become the bytes ED A0 80 etc. */
function encode(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    const char = text[i] as string;
    if (/[A-Za-z0-9\-._~]/.test(char)) {
      out += char;
      continue;
    }
    let codePoint = unit;
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        codePoint = 0x10000 + ((unit - 0xd800) << 10) + (next - 0xdc00);
        i++;
      }
    }
    // WTF-8: a lone surrogate is encoded like any code point, which is invalid UTF-8.
    const bytes =
      codePoint < 0x80
        ? [codePoint]
        : codePoint < 0x800
          ? [0xc0 | (codePoint >> 6), 0x80 | (codePoint & 63)]
          : codePoint < 0x10000
            ? [0xe0 | (codePoint >> 12), 0x80 | ((codePoint >> 6) & 63), 0x80 | (codePoint & 63)]
            : [
                0xf0 | (codePoint >> 18),
                0x80 | ((codePoint >> 12) & 63),
                0x80 | ((codePoint >> 6) & 63),
                0x80 | (codePoint & 63),
              ];
    for (const byte of bytes) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** A value as it goes on the wire: percent-encoded text, or raw garbage as is. */
const wireValue = (secrets: string[]) =>
  fc.oneof(
    fc.string({ unit: 'binary', maxLength: 60 }).map(encode),
    fc.string({ unit: 'grapheme', maxLength: 40 }).map(encode),
    fc.string({ unit: 'binary', minLength: 300, maxLength: 5000 }).map(encode),
    fc.constantFrom(
      '',
      '%00',
      'a%00b',
      '%ED%A0%80',
      '%',
      '%Z',
      '%zz',
      '%%%',
      '%C3%28',
      '%FF%FE',
      '-1',
      '0',
      '1e3',
      '1000000000000000000000',
      '1001',
      'NaN',
      'Active',
      'active',
      'Draft,Active',
      '_id,name',
      '_id,,name',
      'password',
      '__proto__',
      'a'.repeat(201),
      '0'.repeat(24),
      'f'.repeat(24),
      'eyJ2IjoxfQ',
      encode(JSON.stringify({ $ne: null })),
      encode("' OR 1=1 --"),
      encode('%_\\'),
      // Sync points and lookups: real, impossible and far-off instants, forged tokens.
      '2026-11-24',
      '2026-11-24T08:00:00Z',
      '2026-02-30',
      '9999-12-31T23:59:59Z',
      '0000-01-01',
      '2026-11-24T08:00:00%2B99:99',
      'true',
      's',
      `s${Buffer.from('{"v":1,"s":1e300,"t":-1}').toString('base64url')}`,
      `${'0'.repeat(24)},${'f'.repeat(24)}`,
      Array.from({ length: 101 }, () => 'a'.repeat(24)).join(','),
    ),
    fc.constantFrom(...secrets).map(encode),
    fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 24, maxLength: 24 }),
  );

const wireName = fc.oneof(
  fc.constantFrom(...PARAM_NAMES),
  fc.constantFrom(...PARAM_NAMES),
  fc.constantFrom(...TRICKY_NAMES),
  fc.string({ unit: 'binary', maxLength: 20 }).map(encode),
);

const queryString = (secrets: string[]) =>
  fc
    .array(fc.tuple(wireName, wireValue(secrets), fc.boolean()), { maxLength: 6 })
    .map((pairs) =>
      pairs.length === 0
        ? ''
        : `?${pairs.map(([name, value, bare]) => (bare && value === '' ? name : `${name}=${value}`)).join('&')}`,
    );

/** A header value: printable Latin-1 (what HTTP allows) with tabs and the odd control byte. */
const headerText = (max: number) =>
  fc
    .string({
      unit: fc
        .integer({ min: 0x20, max: 0xff })
        .map((c) => String.fromCharCode(c === 0x7f ? 0x09 : c)),
      maxLength: max,
    })
    .map((text) => text.trim());

interface Secrets {
  keys: string[];
}

function keyHeaders(secrets: Secrets) {
  const key = fc.constantFrom(...secrets.keys);
  const junkKey = fc.oneof(
    key,
    fc.constant(generateKey('organization').key),
    headerText(60),
    key.map((k) => `${k.slice(0, -1)}${k.endsWith('A') ? 'B' : 'A'}`),
    key.map((k) => `${k} ${k}`),
  );
  return fc.oneof(
    fc.constant([] as Array<[string, string]>),
    key.map((k) => [['x-api-key', k]] as Array<[string, string]>),
    key.map((k) => [['authorization', `Bearer ${k}`]] as Array<[string, string]>),
    fc.tuple(junkKey, junkKey).map(
      ([a, b]) =>
        [
          ['x-api-key', a],
          ['authorization', `Bearer ${b}`],
        ] as Array<[string, string]>,
    ),
    fc.tuple(key, key).map(
      ([a, b]) =>
        [
          ['x-api-key', a],
          ['x-api-key', b],
        ] as Array<[string, string]>,
    ),
    fc
      .oneof(
        fc.constantFrom(
          'Bearer',
          'Bearer ',
          'bearer\t',
          'Basic dXNlcjpwYXNz',
          'Bearer a b',
          'Token x',
          'Bearer\u00a0x',
        ),
        fc.tuple(fc.constantFrom('Bearer ', 'BEARER ', 'bEaReR  '), junkKey).map(([s, k]) => s + k),
        headerText(100),
      )
      .map((value) => [['authorization', value]] as Array<[string, string]>),
    junkKey.map((k) => [['x-api-key', k]] as Array<[string, string]>),
  );
}

const otherHeaders = fc.array(
  fc.oneof(
    fc.tuple(
      fc.constantFrom(
        'x-request-id',
        'accept',
        'accept-language',
        'origin',
        'if-none-match',
        'x-forwarded-for',
        'content-type',
        'cookie',
        'user-agent',
        'x-custom',
      ),
      headerText(200),
    ),
    fc.tuple(
      fc.constantFrom('accept'),
      fc.constantFrom(
        'text/markdown',
        'text/markdown;q=0.9, text/html;q=0.8',
        'text/*',
        '*/*;q=0',
        'application/json',
        'text/html;q=abc',
        '',
      ),
    ),
    // Near the header-size limit, and over it.
    fc.tuple(
      fc.constantFrom('x-padding'),
      fc.integer({ min: HEADER_LIMIT - 1200, max: HEADER_LIMIT + 2000 }).map((n) => 'p'.repeat(n)),
    ),
  ),
  { maxLength: 3 },
);

interface RawResponse {
  status: number;
  headers: Map<string, string>;
  body: string;
}

/** One request on a connection of its own, bytes as given; the whole answer, de-chunked. */
function send(
  url: string,
  method: string,
  target: string,
  headers: Array<[string, string]>,
): Promise<RawResponse> {
  const { hostname, port } = new URL(url);
  const head = [
    `${method} ${target} HTTP/1.1`,
    `Host: ${hostname}:${port}`,
    ...headers.map(([n, v]) => `${n}: ${v}`),
    'Connection: close',
  ];
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () =>
      socket.end(Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'latin1')),
    );
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const raw = Buffer.concat(chunks);
      const split = raw.indexOf('\r\n\r\n');
      if (split < 0)
        return reject(
          new Error(`no complete answer: ${JSON.stringify(raw.toString('latin1').slice(0, 200))}`),
        );
      const [statusLine = '', ...lines] = raw.subarray(0, split).toString('latin1').split('\r\n');
      const headerMap = new Map<string, string>();
      for (const line of lines) {
        const at = line.indexOf(':');
        const name = line.slice(0, at).toLowerCase();
        const value = line.slice(at + 1).trim();
        headerMap.set(name, headerMap.has(name) ? `${headerMap.get(name)}, ${value}` : value);
      }
      let body = raw.subarray(split + 4);
      if (headerMap.get('transfer-encoding') === 'chunked') {
        const parts: Buffer[] = [];
        let at = 0;
        for (;;) {
          const eol = body.indexOf('\r\n', at);
          const size = Number.parseInt(body.subarray(at, eol).toString('latin1'), 16);
          if (!size) break;
          parts.push(body.subarray(eol + 2, eol + 2 + size));
          at = eol + 2 + size + 2;
        }
        body = Buffer.concat(parts);
      }
      resolve({
        status: Number(statusLine.split(' ')[1]),
        headers: headerMap,
        body: body.toString('utf8'),
      });
    });
  });
}

/** A checksum of every row of every table (api_keys.last_used_at aside: batched key usage). */
function databaseChecksum(file: string): string {
  const db = new Database(file, { readonly: true });
  try {
    const hash = createHash('sha256');
    const tables = db
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
      )
      .all() as Array<{ name: string }>;
    for (const { name } of tables) {
      const columns = (db.prepare(`PRAGMA table_info("${name}")`).all() as Array<{ name: string }>)
        .map((c) => c.name)
        .filter((c) => !(name === 'api_keys' && c === 'last_used_at'));
      hash.update(`${name}:${columns.join(',')}\n`);
      const rows = db
        .prepare(
          `SELECT ${columns.map((c) => `"${c}"`).join(', ')} FROM "${name}" ORDER BY ${columns.map((_, i) => i + 1).join(', ')}`,
        )
        .raw()
        .all();
      for (const row of rows)
        hash.update(
          `${JSON.stringify(row, (_k, v) => (Buffer.isBuffer(v) ? v.toString('hex') : v))}\n`,
        );
    }
    return hash.digest('hex');
  } finally {
    db.close();
  }
}

let server: TestServer;
let secrets: Secrets;
let hashes: string[];
let checksumBefore: string;
const responses: string[] = [];

beforeAll(async () => {
  // No throttle: hostile keys must meet the key checks themselves, every time. Listening:
  // hostile bytes go over a real socket, as an attacker's would.
  server = await startTestServer({
    listen: true,
    engine: 'sqlite',
    captureLogs: true,
    env: { AUTH_FAILURE_LIMIT: 'none' },
  });
  const other = await server.createOrganization({ name: 'Other', slug: 'other-hostile' });
  const user = await server.createUser(server.demo.organizationId);
  const keys = [
    server.demo.key,
    (await server.createKey({ organizationId: server.demo.organizationId, userId: user.id })).key,
    (await server.createKey({ organizationId: other.id, rateLimit: null })).key,
    (await server.createKey({ organizationId: server.demo.organizationId, permissions: [] })).key,
  ];
  secrets = { keys };
  const db = new Database(server.dbPath, { readonly: true });
  hashes = (db.prepare('SELECT hash FROM api_keys').all() as Array<{ hash: string }>).map(
    (r) => r.hash,
  );
  db.close();
  expect(hashes.length).toBeGreaterThanOrEqual(4);
  checksumBefore = databaseChecksum(server.dbPath);
});

afterAll(async () => {
  await server?.close();
});

/** What no answer and no log line may ever hold: a key (beyond its display prefix) or a hash. */
function expectNoSecrets(text: string): void {
  for (const key of secrets.keys) expect(text).not.toContain(key.slice(0, 16));
  for (const hash of hashes) expect(text).not.toContain(hash);
}

function expectSecurityHeaders(response: RawResponse): void {
  expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  expect(response.headers.get('content-security-policy')).toBe(
    "default-src 'none'; frame-ancestors 'none'",
  );
  expect(response.headers.get('referrer-policy')).toBe('no-referrer');
}

describe('hostile input to the API host', () => {
  it('never answers 5xx or anything but JSON in the envelope', async () => {
    const path = fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(...API_PATHS) },
      {
        weight: 1,
        arbitrary: fc.string({ unit: 'binary', maxLength: 40 }).map((p) => `/api/v1/${encode(p)}`),
      },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          '/',
          '/api',
          '/api/v1',
          '/api/v1/',
          '/api/v1/health/',
          '/API/V1/HEALTH',
          '/api/v1/inventory/items/..',
          '/api/v1/%2e%2e/x',
          '/api/v1/%',
          '/api/v1/%ZZ',
          '//api/v1/health',
          '/api/v1/health%00',
          `/api/v1/${'x'.repeat(9000)}`,
        ),
      },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...METHODS),
        path,
        queryString(secrets.keys),
        keyHeaders(secrets),
        otherHeaders,
        async (method, route, query, keys, others) => {
          const target = route + query;
          const response = await send(server.apiUrl, method, target, [...keys, ...others]);
          responses.push(JSON.stringify([...response.headers]) + response.body);
          expect(response.status, `${method} ${target.slice(0, 300)}`).toBeLessThan(500);
          expectSecurityHeaders(response);
          expect(response.headers.get('x-request-id')).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
          if (response.status === 204) return; // a CORS preflight
          expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
          if (method === 'HEAD') {
            expect(response.body).toBe('');
            return;
          }
          const body = JSON.parse(response.body);
          if (response.status >= 400) {
            expect(Object.keys(body)).toEqual(['error']);
            const { code, status, message, requestId, docUrl } = body.error;
            expect(ERROR_CODES).toContain(code);
            expect(ERROR_STATUS[code as ErrorCode]).toBe(response.status);
            expect(status).toBe(response.status);
            expect(typeof message).toBe('string');
            expect(message.length).toBeGreaterThan(20);
            expect(requestId).toBe(response.headers.get('x-request-id'));
            expect(docUrl).toMatch(new RegExp(`/en/docs/errors#${code.toLowerCase()}$`));
            expect(response.body).not.toMatch(/\n\s+at .*\.(js|ts):\d+|SQLITE|SELECT /);
          } else {
            expect(response.status).toBe(200);
            expect(typeof body).toBe('object');
          }
        },
      ),
      { numRuns: API_RUNS },
    );
  });
});

describe('hostile input to the docs host', () => {
  it('answers HTML, Markdown, plain text, CSS or the OpenAPI JSON, each with a CSP, never a 5xx', async () => {
    const path = fc.oneof(
      fc.constantFrom(
        '/',
        '/en',
        '/es/',
        '/en/docs',
        '/es/docs/',
        '/en/docs/introduction',
        '/es/docs/errors',
        '/en/docs/errors.mdx',
        '/llms.txt',
        '/llms-full.txt',
        '/es/llms-full.txt',
        '/en/search-index.json',
        '/en/docs/errors.md',
        '/openapi.json',
        '/assets/docs.css',
        '/fr/docs/introduction',
        '/en/docs/nope',
        '/en/docs/%',
        '/en/docs/%E0%A4%A',
        '/en/docs/..%2f..%2fpackage.json',
        `/en/docs/${'x'.repeat(12_000)}`,
      ),
      fc.string({ unit: 'binary', maxLength: 40 }).map((p) => `/en/docs/${encode(p)}`),
    );
    // One script, the page's own, by its hash (docs/page-script.ts); nothing unsafe.
    const htmlCsp =
      /^default-src 'none'; script-src 'sha256-[A-Za-z0-9+/]+=*'; connect-src 'self'; style-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'$/;
    const otherCsp = "default-src 'none'; frame-ancestors 'none'; sandbox";
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...METHODS),
        path,
        queryString(secrets.keys),
        keyHeaders(secrets),
        otherHeaders,
        async (method, route, query, keys, others) => {
          const target = route + query;
          const response = await send(server.docsUrl, method, target, [...keys, ...others]);
          responses.push(JSON.stringify([...response.headers]) + response.body);
          expect(response.status, `${method} ${target.slice(0, 300)}`).toBeLessThan(500);
          expect(response.headers.get('x-content-type-options')).toBe('nosniff');
          const csp = response.headers.get('content-security-policy') ?? '';
          const type = response.headers.get('content-type') ?? '';
          if (response.status === 302) {
            expect(response.headers.get('location')).toMatch(/^\/(en|es)\/docs\/introduction$/);
          } else if (response.status === 304) {
            expect(response.body).toBe('');
          } else {
            expect([
              'text/html; charset=utf-8',
              'text/markdown; charset=utf-8',
              'text/plain; charset=utf-8',
              'text/css; charset=utf-8',
              'application/json; charset=utf-8',
            ]).toContain(type);
            if (method === 'HEAD') expect(response.body).toBe('');
          }
          if (type.startsWith('text/html')) expect(csp).toMatch(htmlCsp);
          else expect(csp).toBe(otherCsp);
        },
      ),
      { numRuns: DOCS_RUNS },
    );
  });
});

describe('after the hostile run', () => {
  it('no answer and no log line holds a key or a key hash', () => {
    expect(responses.length).toBe(API_RUNS + DOCS_RUNS);
    for (const response of responses) expectNoSecrets(response);
    // One request line per answer, on either host.
    expect(server.logs.filter((line) => line.msg === 'request').length).toBe(responses.length);
    for (const line of server.logs) {
      const text = JSON.stringify(line);
      expectNoSecrets(text);
      expect(text.toLowerCase()).not.toContain('bearer ');
    }
  });

  it('left every table as it was', () => {
    expect(databaseChecksum(server.dbPath)).toBe(checksumBefore);
  });
});

describe('hostile headers, names and methods', () => {
  const ITEMS = '/api/v1/inventory/items';
  let before: string;
  beforeAll(() => {
    before = databaseChecksum(server.dbPath);
  });

  it('replaces a key-shaped x-request-id with a new one, never logged nor echoed', async () => {
    const key = secrets.keys[0] as string;
    const unused = generateKey('user').key;
    for (const id of [key, unused, `trace-${unused}`, 'SR_ORG_abcd1234', `a${'b'.repeat(128)}`]) {
      const response = await send(server.apiUrl, 'GET', '/api/v1/health', [['x-request-id', id]]);
      expect(response.status).toBe(200);
      const echoed = response.headers.get('x-request-id');
      expect(echoed).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      const error = await send(server.apiUrl, 'GET', `${ITEMS}?limit=x`, [
        ['x-request-id', id],
        ['x-api-key', key],
      ]);
      expect(error.status).toBe(400);
      expect(JSON.parse(error.body).error.requestId).toBe(error.headers.get('x-request-id'));
      expect(error.body).not.toContain(id);
      expect(JSON.stringify(server.logs)).not.toContain(id.slice(0, 16));
    }
    // A plain id is kept, so one id follows a request through a proxy.
    const plain = await send(server.apiUrl, 'GET', '/api/v1/health', [
      ['x-request-id', 'edge-7f3a.42:sr-org'],
    ]);
    expect(plain.headers.get('x-request-id')).toBe('edge-7f3a.42:sr-org');
  });

  it('masks a key-shaped unknown parameter in param exactly as in the message', async () => {
    const key = secrets.keys[0] as string;
    const response = await send(server.apiUrl, 'GET', `${ITEMS}?${key}=1&limit=5`, [
      ['x-api-key', key],
    ]);
    expect(response.status).toBe(400);
    const error = JSON.parse(response.body).error;
    const masked = `${key.slice(0, 11)}…`;
    expect(error).toMatchObject({ code: 'UNKNOWN_PARAMETER', param: masked });
    expect(error.message).toBe(
      `Unknown query parameter ${JSON.stringify(masked)}; this endpoint accepts: ${error.message.split('accepts: ')[1]}`,
    );
    expect(response.body).not.toContain(key.slice(0, 16));
    // A long name is cut at 40 characters in both, as the message always did.
    const long = `p${'q'.repeat(300)}`;
    const cut = await send(server.apiUrl, 'GET', `${ITEMS}?${long}=1`, [['x-api-key', key]]);
    expect(JSON.parse(cut.body).error.param).toBe(`${long.slice(0, 40)}…`);
  });

  it('answers CONNECT with a 405 on the API host (JSON, Allow) and the docs host (text)', async () => {
    const api = await send(server.apiUrl, 'CONNECT', 'example.com:443', [
      ['x-request-id', 'connect-1'],
    ]);
    expect(api.status).toBe(405);
    expect(api.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(api.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(api.headers.get('x-request-id')).toBe('connect-1');
    expectSecurityHeaders(api);
    expect(JSON.parse(api.body)).toEqual({
      error: {
        code: 'METHOD_NOT_ALLOWED',
        message:
          'CONNECT is not allowed: the API is not a proxy. It is read-only: use GET or HEAD on its endpoints under /api/v1/.',
        status: 405,
        requestId: 'connect-1',
        docUrl: expect.stringMatching(/\/en\/docs\/errors#method_not_allowed$/),
      },
    });
    expect(server.logs.filter((line) => line.requestId === 'connect-1')).toMatchObject([
      { msg: 'request', method: 'CONNECT', status: 405 },
    ]);
    const docs = await send(server.docsUrl, 'CONNECT', 'example.com:443', []);
    expect(docs.status).toBe(405);
    expect(docs.headers.get('allow')).toBe('GET, HEAD');
    expect(docs.body).toBe(
      'Method CONNECT is not allowed here; the docs host answers GET, HEAD.\n',
    );
    // The servers still answer.
    expect((await send(server.apiUrl, 'GET', '/api/v1/health', [])).status).toBe(200);
  });

  it('answers 405 on the docs host before reading a body: malformed, oversized or of any type', async () => {
    const bodies: Array<[string, string]> = [
      ['application/json', '{"unclosed'],
      ['application/json', `"${'x'.repeat(2 * 1024 * 1024)}"`],
      ['text/plain', 'hello'],
      ['application/x-unknown', 'hello'],
    ];
    for (const [type, body] of bodies) {
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'QUERY']) {
        const response = await fetch(`${server.docsUrl}/llms.txt`, {
          method,
          headers: { 'content-type': type },
          body,
        });
        expect(response.status, `${method} ${type}`).toBe(405);
        expect(response.headers.get('allow')).toBe('GET, HEAD');
        expect(await response.text()).toBe(
          `Method ${method} is not allowed here; the docs host answers GET, HEAD.\n`,
        );
      }
    }
  });

  it('changed no stored data', () => {
    expect(databaseChecksum(server.dbPath)).toBe(before);
  });
});
