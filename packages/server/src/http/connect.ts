import { type IncomingMessage, type Server, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';

/** What a host answers to a CONNECT request: one complete answer, then the connection closes. */
export interface ConnectAnswer {
  status: number;
  /** Header lines besides Connection and Content-Length; values must be one line each. */
  headers: Array<readonly [string, string]>;
  body: string;
}

/**
 * Node's HTTP server never hands a CONNECT request to Fastify: it emits 'connect' with the bare
 * socket, and with no listener it closes the connection without a word. No host here is a proxy,
 * so each answers it as it answers any method it refuses (the API and admin hosts: a JSON 405
 * METHOD_NOT_ALLOWED with Allow), written to the socket, which is then closed.
 */
export function answerConnect(
  server: Server,
  answer: (request: IncomingMessage) => ConnectAnswer,
): void {
  server.on('connect', (request: IncomingMessage, socket: Duplex) => {
    // The socket is ours alone now: a client that resets it must not take the process down.
    socket.on('error', () => socket.destroy());
    if (socket.destroyed || !socket.writable) {
      socket.destroy();
      return;
    }
    const { status, headers, body } = answer(request);
    const lines = [
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
      'Connection: close',
      ...headers.map(([name, value]) => `${name}: ${value}`),
      `content-length: ${Buffer.byteLength(body)}`,
    ];
    socket.end(`${lines.join('\r\n')}\r\n\r\n${body}`);
  });
}
