import { once } from 'node:events';
import net from 'node:net';

/**
 * A TCP proxy in front of a real server that a test can freeze: while frozen, bytes in both
 * directions are dropped and connections stay open, as in a network partition or a server
 * that hangs (nothing is refused, nothing answers). Thawed, new connections work again.
 */
export interface TcpProxy {
  host: string;
  port: number;
  freeze(): void;
  thaw(): void;
  /**
   * Cuts the link, as a database that went down: every connection is reset and new ones are
   * reset at once (nothing hangs) until `restore`.
   */
  cut(): void;
  restore(): void;
  /** Stops listening and destroys every connection. */
  close(): Promise<void>;
}

export async function tcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let frozen = false;
  let cutOff = false;
  const sockets = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const server = net.createServer((client) => {
    if (cutOff) {
      client.on('error', () => {});
      client.resetAndDestroy();
      return;
    }
    track(client);
    const upstream = net.connect(target.port, target.host);
    track(upstream);
    client.on('data', (chunk) => {
      if (!frozen) upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (!frozen) client.write(chunk);
    });
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  return {
    host: '127.0.0.1',
    port,
    freeze() {
      frozen = true;
    },
    thaw() {
      frozen = false;
    },
    cut() {
      cutOff = true;
      for (const socket of sockets) socket.resetAndDestroy();
    },
    restore() {
      cutOff = false;
      frozen = false;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
