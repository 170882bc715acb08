import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { startServer } from './server.js';

/**
 * Port 0: a free port is chosen, then bound, and another process may take it in between
 * (the test suite's servers, and everything else on the machine, race for ports). Such a
 * start is retried with other ports; an explicit port that is taken still fails.
 */
describe('startServer with port 0', () => {
  let dir: string;
  let taken: net.Server;
  let takenPort: number;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'stockroom-ports-'));
    taken = net.createServer().listen(0, '127.0.0.1');
    await once(taken, 'listening');
    takenPort = (taken.address() as net.AddressInfo).port;
  });
  afterAll(() => {
    taken.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const config = (env: Record<string, string>) =>
    loadConfig({
      DATABASE_URL: path.join(dir, 'stockroom.db'),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      NODE_ENV: 'test',
      ...env,
    });

  it('retries with other ports when a chosen one was taken before it was bound, seeding once', async () => {
    let calls = 0;
    // The first choice of each host is the port someone else holds.
    const choosePort = async (host: string) => {
      calls += 1;
      if (calls <= 2) return takenPort;
      const probe = net.createServer().listen(0, host);
      await once(probe, 'listening');
      const { port } = probe.address() as net.AddressInfo;
      await new Promise((resolve) => probe.close(resolve));
      return port;
    };
    const server = await startServer(config({ PORT: '0', DOCS_PORT: '0' }), {
      demo: true,
      choosePort,
    });
    try {
      expect(new URL(server.apiUrl).port).not.toBe(String(takenPort));
      expect(server.demo).not.toBeNull();
      expect(await server.services.store.countOrganizations()).toBe(1);
      const response = await fetch(`${server.apiUrl}/api/v1/organization`, {
        headers: { 'x-api-key': server.demo?.key as string },
      });
      expect(response.status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('does not retry a port given explicitly', async () => {
    await expect(
      startServer(config({ PORT: String(takenPort), DOCS_PORT: '0' }), { demo: false }),
    ).rejects.toMatchObject({ code: 'EADDRINUSE', port: takenPort });
  });
});
