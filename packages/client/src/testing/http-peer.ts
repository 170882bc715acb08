import http from 'node:http';
import net, { type AddressInfo } from 'node:net';

/**
 * A real HTTP server for the client's own tests, answering what each test scripts: 503s, rate
 * limits, stalls, odd bodies. It stands in for misbehaving networks and proxies, not for the
 * Stockroom server, whose behaviour the tests under test/ check against the real thing.
 */
export interface Peer {
  url: string;
  /** Requests received so far, in order. */
  requests: Array<{ url: string; headers: http.IncomingHttpHeaders }>;
  close(): Promise<void>;
}

export type PeerHandler = (
  request: http.IncomingMessage,
  response: http.ServerResponse,
  index: number,
) => void;

export async function startPeer(handler: PeerHandler): Promise<Peer> {
  const requests: Peer['requests'] = [];
  const server = http.createServer((request, response) => {
    requests.push({ url: request.url ?? '', headers: request.headers });
    handler(request, response, requests.length - 1);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        // Stalled responses would otherwise keep the server open.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function json(
  response: http.ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'x-request-id': `peer-${status}`,
    ...headers,
  });
  response.end(JSON.stringify(body));
}

export function envelope(code: string, status: number, message = `${code} happened`) {
  return {
    error: {
      code,
      message,
      status,
      requestId: `req-${code.toLowerCase()}`,
      docUrl: `http://docs.test/en/docs/errors#${code.toLowerCase()}`,
    },
  };
}

/** A URL on which nothing listens: a port that was just free. */
export async function deadUrl(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/**
 * A TCP server that reads each request and hangs up without answering: a request that reached
 * the network and got no response. `connections` counts the attempts as the network saw them.
 */
export async function startHangUp(): Promise<{
  url: string;
  connections: () => number;
  close(): Promise<void>;
}> {
  let connections = 0;
  const server = net.createServer((socket) => {
    connections += 1;
    // After the request, not on accept: undici stalls on a socket closed before it writes.
    socket.once('data', () => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    connections: () => connections,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
