import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { PostgresStore } from './postgres/postgres-store.js';
import { SqliteStore } from './sqlite/sqlite-store.js';
import { migrateWhenReachable } from './start-retry.js';

/** A port nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('migrateWhenReachable', () => {
  it('waits and retries while PostgreSQL refuses connections, with one clear line, until stopped', async () => {
    const port = await closedPort();
    const store = new PostgresStore(`postgres://stockroom:secret@127.0.0.1:${port}/stock`);
    const lines: string[] = [];
    const controller = new AbortController();
    const attempts: string[] = [];
    try {
      const outcome = migrateWhenReachable(store, {
        retryMs: 20,
        signal: controller.signal,
        log: { warn: (_object, message) => lines.push(message) },
        onAttempt: (attempt, code) => {
          attempts.push(code);
          if (attempt === 4) controller.abort();
        },
      });
      await expect(outcome).rejects.toThrow(/ECONNREFUSED/);
      expect(attempts).toEqual(['ECONNREFUSED', 'ECONNREFUSED', 'ECONNREFUSED', 'ECONNREFUSED']);
      expect(lines).toEqual([
        `database unreachable at 127.0.0.1:${port} (ECONNREFUSED), retrying every 0.02 s`,
      ]);
      expect(lines.join('\n')).not.toContain('secret');
      // The failures before the first success open no outage of their own.
      expect(store.availability.down).toBe(false);
    } finally {
      await store.close();
    }
  });

  it('throws at once what is not an unreachable database (SQLite is never retried)', async () => {
    const store = new SqliteStore(':memory:');
    const failing = Object.assign(Object.create(store), {
      engine: 'sqlite' as const,
      migrate: () => Promise.reject(Object.assign(new Error('locked'), { code: 'ECONNREFUSED' })),
    });
    let attempts = 0;
    try {
      await expect(
        migrateWhenReachable(failing, { retryMs: 1, onAttempt: () => attempts++ }),
      ).rejects.toThrow('locked');
      expect(attempts).toBe(0);
    } finally {
      await store.close();
    }
  });
});

describe('PostgresStore.ping', () => {
  it('rejects with StoreUnavailableError when the server accepts connections and never answers', async () => {
    const sockets: net.Socket[] = [];
    const silent = net.createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as net.AddressInfo;
    const store = new PostgresStore(`postgres://postgres@127.0.0.1:${port}/stock`);
    try {
      await expect(store.ping()).rejects.toThrow(
        `the database did not answer within 1000 ms (127.0.0.1:${port})`,
      );
    } finally {
      for (const socket of sockets) socket.destroy();
      await store.close().catch(() => {});
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it('rejects as soon as the connection is refused', async () => {
    const store = new PostgresStore(`postgres://postgres@127.0.0.1:${await closedPort()}/stock`);
    try {
      await expect(store.ping()).rejects.toThrow(/unavailable: connect ECONNREFUSED/);
    } finally {
      await store.close();
    }
  });
});
