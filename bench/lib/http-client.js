// A minimal HTTP/1.1 keep-alive client for latency measurements. autocannon (used for
// throughput) records whole milliseconds, too coarse for sub-millisecond medians; this client
// times every request with process.hrtime to the microsecond. Responses must carry
// Content-Length (Fastify and node:http do for the bodies measured here).
import net from 'node:net';

const HEADER_END = Buffer.from('\r\n\r\n');

export function requestBytes(host, port, path, headers) {
  let text = `GET ${path} HTTP/1.1\r\nHost: ${host}:${port}\r\nConnection: keep-alive\r\n`;
  for (const [name, value] of Object.entries(headers)) text += `${name}: ${value}\r\n`;
  return Buffer.from(`${text}\r\n`);
}

/** One keep-alive connection; `send` resolves with the status code when the body is complete. */
export class Connection {
  constructor(host, port) {
    this.socket = net.connect({ host, port, noDelay: true });
    this.pending = null;
    this.chunks = [];
    this.received = 0;
    this.expected = -1;
    this.status = 0;
    this.socket.on('data', (chunk) => this.onData(chunk));
    this.socket.on('error', (error) => this.fail(error));
    this.socket.on('close', () => this.fail(new Error('connection closed')));
    this.ready = new Promise((resolve, reject) => {
      this.socket.once('connect', resolve);
      this.socket.once('error', reject);
    });
  }

  fail(error) {
    const pending = this.pending;
    this.pending = null;
    pending?.reject(error);
  }

  send(bytes) {
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      this.chunks = [];
      this.received = 0;
      this.expected = -1;
      this.socket.write(bytes);
    });
  }

  onData(chunk) {
    if (!this.pending) return;
    this.received += chunk.length;
    if (this.expected < 0) {
      this.chunks.push(chunk);
      const head = this.chunks.length === 1 ? chunk : Buffer.concat(this.chunks);
      const end = head.indexOf(HEADER_END);
      if (end < 0) return;
      const header = head.subarray(0, end).toString('latin1');
      this.status = Number(header.slice(9, 12));
      const length = /\r\ncontent-length:\s*(\d+)/i.exec(header);
      if (!length) {
        this.fail(new Error(`response without Content-Length: ${header.split('\r\n')[0]}`));
        return;
      }
      this.expected = end + 4 + Number(length[1]);
      this.chunks = [head];
    }
    if (this.received >= this.expected) {
      const pending = this.pending;
      this.pending = null;
      pending.resolve(this.status);
    }
  }

  close() {
    this.socket.removeAllListeners('close');
    this.socket.destroy();
  }
}

function percentile(sorted, p) {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export function summarize(latencies) {
  const sorted = Float64Array.from(latencies).sort();
  return {
    count: sorted.length,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: sorted.length ? sorted[sorted.length - 1] : Number.NaN,
  };
}

/**
 * Closed loop: `connections` connections each send the next path as soon as the previous
 * answer is complete, for `durationMs`. Returns latencies in ms and error counts.
 */
export async function closedLoop({ host, port, paths, headers = {}, connections, durationMs }) {
  const requests = paths.map((path) => requestBytes(host, port, path, headers));
  const pool = Array.from({ length: connections }, () => new Connection(host, port));
  await Promise.all(pool.map((connection) => connection.ready));
  const latencies = [];
  let next = 0;
  let non2xx = 0;
  let errors = 0;
  const deadline = performance.now() + durationMs;
  await Promise.all(
    pool.map(async (connection) => {
      while (performance.now() < deadline) {
        const bytes = requests[next++ % requests.length];
        const start = process.hrtime.bigint();
        try {
          const status = await connection.send(bytes);
          latencies.push(Number(process.hrtime.bigint() - start) / 1e6);
          if (status < 200 || status > 299) non2xx++;
        } catch {
          errors++;
          return;
        }
      }
    }),
  );
  for (const connection of pool) connection.close();
  return { ...summarize(latencies), non2xx, errors, seconds: durationMs / 1000 };
}

/**
 * Open loop at a fixed rate: request k is due at start + k/rate and is timed from that moment,
 * so time spent waiting for a free connection counts (no coordinated omission).
 */
export async function fixedRate({
  host,
  port,
  paths,
  headers = {},
  rate,
  durationMs,
  connections = 16,
}) {
  const requests = paths.map((path) => requestBytes(host, port, path, headers));
  const idle = Array.from({ length: connections }, () => new Connection(host, port));
  await Promise.all(idle.map((connection) => connection.ready));
  const all = [...idle];
  const latencies = [];
  const queue = [];
  let non2xx = 0;
  let errors = 0;
  const start = performance.now();
  const total = Math.floor((rate * durationMs) / 1000);
  let issued = 0;
  let inFlight = 0;
  let done;
  const finished = new Promise((resolve) => {
    done = resolve;
  });
  const dispatch = () => {
    while (queue.length > 0 && idle.length > 0) {
      const due = queue.shift();
      const connection = idle.pop();
      inFlight++;
      connection.send(requests[due.k % requests.length]).then(
        (status) => {
          latencies.push(performance.now() - due.at);
          if (status < 200 || status > 299) non2xx++;
          idle.push(connection);
          inFlight--;
          dispatch();
          if (issued === total && inFlight === 0 && queue.length === 0) done();
        },
        () => {
          errors++;
          inFlight--;
          if (issued === total && inFlight === 0 && queue.length === 0) done();
        },
      );
    }
  };
  const tick = () => {
    const now = performance.now();
    while (issued < total && start + (issued * 1000) / rate <= now) {
      queue.push({ k: issued, at: start + (issued * 1000) / rate });
      issued++;
    }
    dispatch();
    if (issued < total)
      setTimeout(tick, Math.max(0, start + (issued * 1000) / rate - performance.now()));
    else if (inFlight === 0 && queue.length === 0) done();
  };
  tick();
  await finished;
  for (const connection of all) connection.close();
  return { ...summarize(latencies), non2xx, errors, rate };
}
