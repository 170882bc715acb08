import {
  readAnswer,
  startTestServer,
  type TestServer,
  type TestServerOptions,
} from '../testing/harness.js';

/** A token of the required length, for tests only. */
export const ADMIN_TOKEN = 'test-admin-token-0123456789abcdefghijklmnopqrstuv';

export interface AdminAnswer {
  status: number;
  headers: Headers;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests inspect arbitrary JSON
  body: any;
}

export interface AdminRequest {
  /** JSON-encoded and sent with `Content-Type: application/json`. */
  json?: unknown;
  /** Sent as is (with the headers given). */
  raw?: string;
  /** The token for `Authorization: Bearer …`; null sends no Authorization header. */
  token?: string | null;
  headers?: Record<string, string>;
}

/**
 * A test server (harness.ts) with the admin API on: answering through `inject`, or on a port of
 * its own on 127.0.0.1 with `listen: true`.
 */
export interface AdminTestServer {
  server: TestServer;
  adminUrl: string;
  /** A fetch to the server's hosts (the admin host included), as `TestServer.fetch`. */
  fetch: TestServer['fetch'];
  /** HTTP to the admin host, with the admin token unless told otherwise. */
  admin(method: string, path: string, request?: AdminRequest): Promise<AdminAnswer>;
  close(): Promise<void>;
}

export async function adminRequest(
  adminUrl: string,
  method: string,
  path: string,
  request: AdminRequest = {},
  send: TestServer['fetch'] = fetch,
): Promise<AdminAnswer> {
  const headers = new Headers(request.headers);
  const token = request.token === undefined ? ADMIN_TOKEN : request.token;
  if (token !== null) headers.set('authorization', `Bearer ${token}`);
  let body: string | undefined;
  if (request.json !== undefined) {
    body = JSON.stringify(request.json);
    if (!headers.has('content-type')) headers.set('content-type', 'application/json');
  } else if (request.raw !== undefined) body = request.raw;
  return readAnswer(await send(adminUrl + path, { method, headers, body }));
}

export async function startAdminTestServer(
  options: TestServerOptions = {},
): Promise<AdminTestServer> {
  const server = await startTestServer({
    ...options,
    env: { ADMIN_TOKEN, ADMIN_PORT: '0', ...options.env },
  });
  const adminUrl = server.server.adminUrl;
  if (!adminUrl || !server.server.admin) {
    await server.close();
    throw new Error('the test server did not start the admin API');
  }
  return {
    server,
    adminUrl,
    fetch: server.fetch,
    admin: (method, path, request) => adminRequest(adminUrl, method, path, request, server.fetch),
    close: () => server.close(),
  };
}
