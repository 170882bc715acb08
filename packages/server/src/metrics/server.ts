import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The Prometheus endpoint: `GET /metrics` on a port of its own (METRICS_PORT), apart from the
 * public API, bound to METRICS_HOST (loopback by default). Plain node:http: nothing of the API
 * (keys, CORS, rate limits) applies here, and nothing here is reachable from the API's port.
 */
export interface MetricsServer {
  url: string;
  close(): Promise<void>;
}

export async function startMetricsServer(
  host: string,
  port: number,
  collect: () => Promise<string>,
  contentType: string,
  onError: (error: unknown) => void = () => {},
): Promise<MetricsServer> {
  const server = http.createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    const plain = (status: number, text: string, headers: Record<string, string> = {}) => {
      response.writeHead(status, {
        'content-type': 'text/plain; charset=utf-8',
        'x-content-type-options': 'nosniff',
        ...headers,
      });
      response.end(request.method === 'HEAD' ? undefined : text);
    };
    if (path !== '/metrics') return plain(404, 'Not found: metrics are served at /metrics.\n');
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return plain(405, 'Use GET /metrics.\n', { allow: 'GET, HEAD' });
    }
    collect().then(
      (text) => {
        response.writeHead(200, {
          'content-type': contentType,
          'cache-control': 'no-store',
          'x-content-type-options': 'nosniff',
        });
        response.end(request.method === 'HEAD' ? undefined : text);
      },
      (error: unknown) => {
        onError(error);
        plain(503, 'Metrics are not available right now; retry.\n', { 'retry-after': '1' });
      },
    );
  });
  // Scrapers keep connections open between scrapes; close() must not wait for them.
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const any = address.address === '0.0.0.0' || address.address === '::';
  const shownHost = any
    ? '127.0.0.1'
    : address.family === 'IPv6'
      ? `[${address.address}]`
      : address.address;
  return {
    url: `http://${shownHost}:${address.port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
