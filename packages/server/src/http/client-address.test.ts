import { isIP } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { clientAddressOf, trustFunction, useClientAddress } from './client-address.js';

/**
 * Each form of TRUST_PROXY, read by loadConfig as an operator writes it, on an app decorated as
 * the API, admin and docs hosts are: the client address, and Fastify's own `ip` (given the same
 * trust function), for a request from a peer with an X-Forwarded-For chain.
 */
const apps = new Map<string, FastifyInstance>();
afterAll(async () => {
  for (const app of apps.values()) await app.close();
});

async function appFor(setting: string): Promise<FastifyInstance> {
  let app = apps.get(setting);
  if (!app) {
    const trust = trustFunction(loadConfig({ TRUST_PROXY: setting }).trustProxy);
    app = Fastify({ trustProxy: trust });
    useClientAddress(app, trust);
    app.get('/', async (request) => ({ clientAddress: clientAddressOf(request), ip: request.ip }));
    apps.set(setting, app);
  }
  return app;
}

/** The client address TRUST_PROXY=`setting` gives a request from `peer` with `xff`. */
async function clientOf(setting: string, peer: string, xff?: string): Promise<string> {
  const app = await appFor(setting);
  const reply = await app.inject({
    url: '/',
    remoteAddress: peer,
    headers: xff === undefined ? {} : { 'x-forwarded-for': xff },
  });
  const body = reply.json() as { clientAddress: string; ip: string };
  // Fastify reads a chain of addresses the same way (it would take anything else as one).
  if ((xff ?? '').split(',').every((entry) => isIP(entry.trim()) !== 0 || entry.trim() === '')) {
    expect(body.ip).toBe(body.clientAddress);
  }
  return body.clientAddress;
}

// A client, then two proxies: the chain the nearest proxy (the peer, 10.0.0.1) forwards.
const CHAIN = '203.0.113.9, 198.51.100.20, 10.0.0.2';

describe('TRUST_PROXY', () => {
  it('false (the default): the peer, X-Forwarded-For ignored', async () => {
    expect(await clientOf('false', '10.0.0.1', CHAIN)).toBe('10.0.0.1');
    expect(await clientOf('', '203.0.113.50', '198.51.100.1')).toBe('203.0.113.50');
  });

  it('true: the leftmost entry, or the peer without the header', async () => {
    expect(await clientOf('true', '10.0.0.1', CHAIN)).toBe('203.0.113.9');
    expect(await clientOf('true', '10.0.0.1', '2001:db8::5')).toBe('2001:db8::5');
    expect(await clientOf('true', '10.0.0.1')).toBe('10.0.0.1');
  });

  it('a hop count: that many hops from the peer are proxies, the next one is the client', async () => {
    expect(await clientOf('1', '10.0.0.1', CHAIN)).toBe('10.0.0.2');
    expect(await clientOf('2', '10.0.0.1', CHAIN)).toBe('198.51.100.20');
    expect(await clientOf('3', '10.0.0.1', CHAIN)).toBe('203.0.113.9');
    // A shorter chain than the count: its leftmost entry.
    expect(await clientOf('5', '10.0.0.1', CHAIN)).toBe('203.0.113.9');
    // A client that appends its own guess: one proxy (nginx) appended the real address last.
    expect(await clientOf('1', '10.0.0.1', '198.51.100.66, 203.0.113.9')).toBe('203.0.113.9');
    expect(await clientOf('1', '10.0.0.1')).toBe('10.0.0.1');
  });

  it('addresses: a trusted proxy’s X-Forwarded-For is honoured, an untrusted sender’s ignored', async () => {
    const setting = '10.0.0.1, 10.0.0.2';
    // Both proxies trusted: the first untrusted hop (198.51.100.20) is the client; the spoofed
    // leftmost entry it may have sent is not believed.
    expect(await clientOf(setting, '10.0.0.1', CHAIN)).toBe('198.51.100.20');
    expect(await clientOf(setting, '10.0.0.1', '203.0.113.9')).toBe('203.0.113.9');
    // A client connecting directly, with a header of its own making: its own address.
    expect(await clientOf(setting, '203.0.113.50', '10.0.0.2, 198.51.100.1')).toBe('203.0.113.50');
    // IPv6 addresses, and an IPv4 peer seen on a dual-stack socket (::ffff:a.b.c.d).
    expect(await clientOf('2001:db8::1', '2001:db8::1', '2001:db8:5::9')).toBe('2001:db8:5::9');
    expect(await clientOf(setting, '::ffff:10.0.0.1', '203.0.113.9')).toBe('203.0.113.9');
  });

  it('an IPv4 network: every hop inside it is a proxy', async () => {
    expect(await clientOf('10.0.0.0/8', '10.0.0.1', '203.0.113.9, 10.200.3.4')).toBe('203.0.113.9');
    expect(await clientOf('10.0.0.0/8', '11.0.0.1', '203.0.113.9')).toBe('11.0.0.1');
    expect(await clientOf('192.168.4.0/22', '192.168.7.255', '203.0.113.9')).toBe('203.0.113.9');
    expect(await clientOf('192.168.4.0/22', '192.168.8.0', '203.0.113.9')).toBe('192.168.8.0');
    // /0: every IPv4 hop.
    expect(await clientOf('0.0.0.0/0', '203.0.113.50', '198.51.100.1, 192.0.2.1')).toBe(
      '198.51.100.1',
    );
  });

  it('an IPv6 network: every hop inside it is a proxy', async () => {
    const setting = 'fd00::/8';
    expect(await clientOf(setting, 'fd00::1', '2001:db8::7, fd12:3456::5')).toBe('2001:db8::7');
    expect(await clientOf(setting, '2001:db8::99', '2001:db8::7')).toBe('2001:db8::99');
    // IPv4 hops are outside an IPv6 network.
    expect(await clientOf(setting, '10.0.0.1', '2001:db8::7')).toBe('10.0.0.1');
    // Mixed: an IPv4 network and an IPv6 one.
    expect(await clientOf('10.0.0.0/8,fd00::/8', 'fd00::1', '203.0.113.9, 10.0.0.3')).toBe(
      '203.0.113.9',
    );
  });

  it('the names loopback, linklocal and uniquelocal: their ranges', async () => {
    expect(await clientOf('loopback', '127.0.0.1', '203.0.113.9')).toBe('203.0.113.9');
    expect(await clientOf('loopback', '::1', '203.0.113.9')).toBe('203.0.113.9');
    expect(await clientOf('loopback', '10.0.0.1', '203.0.113.9')).toBe('10.0.0.1');
    expect(await clientOf('uniquelocal', '172.20.0.1', '203.0.113.9, 192.168.1.1')).toBe(
      '203.0.113.9',
    );
    expect(await clientOf('linklocal', 'fe80::1', '203.0.113.9')).toBe('203.0.113.9');
  });

  it('an entry that is not an address ends the walk: the client is the last address reached', async () => {
    expect(await clientOf('true', '10.0.0.1', 'evil, 203.0.113.9')).toBe('203.0.113.9');
    expect(await clientOf('true', '10.0.0.1', `${'x'.repeat(5000)}`)).toBe('10.0.0.1');
    expect(await clientOf('true', '10.0.0.1', '203.0.113.9:4711')).toBe('10.0.0.1');
    expect(await clientOf('2', '10.0.0.1', '203.0.113.9, [2001:db8::1]')).toBe('10.0.0.1');
    // Empty entries are skipped, as proxies that join headers may leave them.
    expect(await clientOf('2', '10.0.0.1', '203.0.113.9, , 10.0.0.2')).toBe('203.0.113.9');
  });
});
