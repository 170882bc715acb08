import { describe, expect, it } from 'vitest';
import { PUBLIC_ONLY, parseAllowedNetworks, refusedAddress } from './destination.js';
import { sendWebhook } from './send.js';
import { startReceiver } from './testing.js';

describe('refusedAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link local'],
    ['fe80::1', 'link local'],
    ['fd00:ec2::254', 'unique local'],
    ['100.64.0.1', 'carrier grade nat'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['::ffff:10.0.0.1', 'private'],
  ])('refuses %s (%s)', (address, range) => {
    expect(refusedAddress(address, PUBLIC_ONLY)).toContain(`${range} address`);
  });

  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111'])(
    'allows the public %s',
    (address) => {
      expect(refusedAddress(address, PUBLIC_ONLY)).toBeNull();
    },
  );

  it('allows exactly the networks the operator lists', () => {
    const policy = parseAllowedNetworks('10.0.0.0/8, 127.0.0.1, fd00::/8');
    expect(refusedAddress('10.200.3.4', policy)).toBeNull();
    expect(refusedAddress('127.0.0.1', policy)).toBeNull();
    expect(refusedAddress('127.0.0.2', policy)).toContain('loopback');
    expect(refusedAddress('fd12::1', policy)).toBeNull();
    expect(refusedAddress('169.254.169.254', policy)).toContain('link local');
  });

  it('names an entry of WEBHOOK_ALLOWED_NETWORKS it cannot read', () => {
    expect(() => parseAllowedNetworks('10.0.0.0/8,intranet')).toThrow(
      /"intranet" is not an IP address/,
    );
    expect(() => parseAllowedNetworks('10.0.0.0/33')).toThrow(/"10.0.0.0\/33"/);
  });
});

describe('sendWebhook', () => {
  it('checks the address it connects to: a name resolving to loopback is refused before any request', async () => {
    const receiver = await startReceiver();
    try {
      const url = receiver.url.replace('127.0.0.1', 'localhost');
      const result = await sendWebhook(url, {}, '{}', { policy: PUBLIC_ONLY, timeoutMs: 5000 });
      expect(result).toMatchObject({ ok: false, status: null });
      expect(result.error).toMatch(/localhost resolves to .* loopback address/);
      expect(receiver.received).toHaveLength(0);
    } finally {
      await receiver.close();
    }
  });

  it('refuses an address literal before connecting', async () => {
    const receiver = await startReceiver();
    try {
      const result = await sendWebhook(receiver.url, {}, '{}', {
        policy: PUBLIC_ONLY,
        timeoutMs: 5000,
      });
      expect(result.error).toMatch(/127\.0\.0\.1 is a loopback address/);
      expect(receiver.received).toHaveLength(0);
    } finally {
      await receiver.close();
    }
  });

  it('gives up on an endpoint that does not answer in time', async () => {
    const receiver = await startReceiver();
    const held = receiver.hold();
    try {
      const result = await sendWebhook(receiver.url, {}, '{}', {
        policy: parseAllowedNetworks('127.0.0.1'),
        timeoutMs: 200,
      });
      expect(result).toEqual({ ok: false, status: null, error: 'no answer within 0.2 s' });
      expect(receiver.received).toHaveLength(1);
    } finally {
      (await held).answer(204);
      await receiver.close();
    }
  });

  it('reports a refused connection without throwing', async () => {
    const receiver = await startReceiver();
    const url = receiver.url;
    await receiver.close();
    const result = await sendWebhook(url, {}, '{}', {
      policy: parseAllowedNetworks('127.0.0.1'),
      timeoutMs: 5000,
    });
    expect(result).toMatchObject({
      ok: false,
      status: null,
      error: expect.stringMatching(/ECONNREFUSED/),
    });
  });
});
