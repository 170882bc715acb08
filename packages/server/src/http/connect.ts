import { type IncomingMessage, type Server, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';

/** A header line of an answer written straight to a socket: one line, name and value. */
export type Header = readonly [name: string, value: string];

/** What a host answers to a CONNECT request: one complete answer, then the connection closes. */
export interface ConnectAnswer {
  status: number;
  /** Header lines besides Connection and Content-Length; values must be one line each. */
  headers: readonly Header[];
  body: string;
}

/**
 * An answer as the bytes written to a socket that no HTTP machinery holds any more (CONNECT,
 * a request Node could not parse): Connection: close, the headers, Content-Length, the body.
 * `headOnly` (a HEAD request) leaves the body out but keeps its length.
 */
export function rawAnswer(answer: ConnectAnswer, options: { headOnly?: boolean } = {}): string {
  const { status, headers, body } = answer;
  const lines = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
    'Connection: close',
    ...headers.map(([name, value]) => `${name}: ${value}`),
    `content-length: ${Buffer.byteLength(body)}`,
  ];
  return `${lines.join('\r\n')}\r\n\r\n${options.headOnly ? '' : body}`;
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
    socket.end(rawAnswer(answer(request)));
  });
}
