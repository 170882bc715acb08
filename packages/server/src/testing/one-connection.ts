import http from 'node:http';
import type { Socket } from 'node:net';

/** One request of a sequence sent by {@link overOneConnection}. */
export interface SmokeRequest {
  method?: string;
  path: string;
  headers?: Record<string, string>;
}

/** What came back, and which connection carried it (0 for the first, 1 for the next…). */
export interface SmokeReply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  connection: number;
}

/**
 * Sends the requests one after another over a keep-alive agent of one socket, as a browser or
 * a proxy would: the smoke tests of each host check the server keeps that connection open
 * across answers of every kind (a 200, a HEAD, a 404), which app.inject() cannot show.
 */
export async function overOneConnection(
  origin: string,
  requests: SmokeRequest[],
): Promise<SmokeReply[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const connections = new Map<Socket, number>();
  const replies: SmokeReply[] = [];
  try {
    for (const { method = 'GET', path, headers = {} } of requests) {
      replies.push(
        await new Promise<SmokeReply>((resolve, reject) => {
          const request = http.request(new URL(path, origin), { agent, method, headers });
          request.on('response', (response) => {
            const socket = response.socket;
            if (!connections.has(socket)) connections.set(socket, connections.size);
            let body = '';
            response.setEncoding('utf8').on('data', (chunk: string) => {
              body += chunk;
            });
            response.on('end', () =>
              resolve({
                status: response.statusCode ?? 0,
                headers: response.headers,
                body,
                connection: connections.get(socket) ?? -1,
              }),
            );
            response.on('error', reject);
          });
          request.on('error', reject);
          request.end();
        }),
      );
    }
    return replies;
  } finally {
    agent.destroy();
  }
}
