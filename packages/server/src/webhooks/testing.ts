import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a test receiver got: what the endpoint of a webhook would see. */
export interface ReceivedDelivery {
  headers: http.IncomingHttpHeaders;
  body: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests inspect the JSON they were sent
  json: any;
}

/**
 * A webhook endpoint on 127.0.0.1 for tests. Each request is answered by the next queued
 * reply (default 204); `next()` resolves with the next request, so tests wait on events, not
 * on time. `hold()` keeps the next request unanswered until the returned function is called.
 */
export interface TestReceiver {
  url: string;
  received: ReceivedDelivery[];
  /** Requests being answered at the same time, at most (one endpoint gets one at a time). */
  maxConcurrent: number;
  reply(...statuses: Array<number | { status: number; headers: Record<string, string> }>): void;
  /** The next request not yet taken, waiting for it when there is none. */
  next(): Promise<ReceivedDelivery>;
  hold(): Promise<{ delivery: ReceivedDelivery; answer(status: number): void }>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<TestReceiver> {
  const received: ReceivedDelivery[] = [];
  const replies: Array<number | { status: number; headers: Record<string, string> }> = [];
  const waiters: Array<(delivery: ReceivedDelivery) => void> = [];
  /** Received but not yet taken by `next()`. */
  const unread: ReceivedDelivery[] = [];
  let holder:
    | ((held: { delivery: ReceivedDelivery; answer(status: number): void }) => void)
    | null = null;
  let concurrent = 0;
  const receiver = { maxConcurrent: 0 } as TestReceiver;
  const server = http.createServer((request, response) => {
    concurrent += 1;
    receiver.maxConcurrent = Math.max(receiver.maxConcurrent, concurrent);
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const delivery: ReceivedDelivery = { headers: request.headers, body, json: JSON.parse(body) };
      received.push(delivery);
      const answer = (status: number, headers: Record<string, string> = {}) => {
        concurrent -= 1;
        response.writeHead(status, headers).end();
      };
      if (holder) {
        // Held: answered by the test, and not handed out by next().
        const give = holder;
        holder = null;
        give({ delivery, answer: (status) => answer(status) });
        return;
      }
      const reply = replies.shift() ?? 204;
      if (typeof reply === 'number') answer(reply);
      else answer(reply.status, reply.headers);
      const waiter = waiters.shift();
      if (waiter) waiter(delivery);
      else unread.push(delivery);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${port}/hooks/stockroom`,
    received,
    reply: (...statuses: Array<number | { status: number; headers: Record<string, string> }>) =>
      void replies.push(...statuses),
    next: () => {
      const delivery = unread.shift();
      return delivery
        ? Promise.resolve(delivery)
        : new Promise<ReceivedDelivery>((resolve) => waiters.push(resolve));
    },
    hold: () =>
      new Promise<{ delivery: ReceivedDelivery; answer(status: number): void }>((resolve) => {
        holder = resolve;
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

/** The Standard Webhooks signature, computed here independently of the server's signer. */
export function expectedSignature(
  secret: string,
  headers: http.IncomingHttpHeaders,
  body: string,
): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const signed = `${headers['webhook-id']}.${headers['webhook-timestamp']}.${body}`;
  return `v1,${createHmac('sha256', key).update(signed).digest('base64')}`;
}
