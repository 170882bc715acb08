import type { LookupAddress } from 'node:dns';
import dns from 'node:dns';
import ipaddr from 'ipaddr.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  checkDestination,
  guardedLookup,
  PUBLIC_ONLY,
  parseAllowedNetworks,
  parseWebhookUrl,
  refusedAddress,
} from './destination.js';
import { embeddedIPv4, parseIPv6 } from './embedded-ipv4.js';
import { sendWebhook } from './send.js';
import { startReceiver } from './testing.js';

/**
 * Every IPv6 form that embeds an IPv4 address is judged by that address: one that embeds a
 * loopback, private or link-local IPv4 address is refused like the IPv4 address itself, one
 * that embeds a public address is allowed, at registration and at delivery.
 */

/** [IPv6 address, its embedding] for each form, embedding `ipv4`. */
const FORMS = (ipv4: string): Array<[string, string]> => {
  const [a, b, c, d] = ipaddr.IPv4.parse(ipv4).octets as [number, number, number, number];
  const hex = (high: number, low: number) => ((high << 8) | low).toString(16);
  const inverted = (high: number, low: number) => (((high << 8) | low) ^ 0xffff).toString(16);
  return [
    [`::${hex(a, b)}:${hex(c, d)}`, 'IPv4-compatible'],
    [`::${ipv4}`, 'IPv4-compatible'],
    [`::ffff:${ipv4}`, 'IPv4-mapped'],
    [`::ffff:0:${ipv4}`, 'IPv4-translated'],
    [`64:ff9b::${ipv4}`, 'NAT64'],
    [`64:ff9b:1::${hex(a, b)}:${hex(c, d)}`, 'NAT64'],
    [`2002:${hex(a, b)}:${hex(c, d)}::1`, '6to4'],
    [`2001:0:4136:e378:8000:63bf:${inverted(a, b)}:${inverted(c, d)}`, 'Teredo'],
  ];
};

/**
 * The local-use NAT64 prefix with the /48 layout of RFC 6052 (16 bits, bits 64–71 skipped, 16
 * bits, a zero suffix). Its last 32 bits, zero, also read as the /96 layout's 0.0.0.0: such an
 * address is refused whatever it embeds, as no reading of it may be an inside address.
 */
const NAT64_48 = (ipv4: string): string => {
  const [a, b, c, d] = ipaddr.IPv4.parse(ipv4).octets as [number, number, number, number];
  return `64:ff9b:1:${((a << 8) | b).toString(16)}:${c.toString(16)}:${(d << 8).toString(16)}::`;
};

const INSIDE = [
  ['127.0.0.1', 'loopback'],
  ['10.1.2.3', 'private'],
  ['192.168.0.10', 'private'],
  ['169.254.169.254', 'link local'],
] as const;
const PUBLIC = ['8.8.8.8', '93.184.216.34'];

describe('IPv6 addresses that embed an IPv4 address', () => {
  it('are read for the IPv4 address they carry', () => {
    for (const [address, form] of FORMS('10.1.2.3')) {
      const found = embeddedIPv4(parseIPv6(address));
      expect(
        found.map((embedded) => embedded.ipv4.toString()),
        address,
      ).toEqual(['10.1.2.3']);
      expect(found[0]?.form, address).toBe(form);
    }
    const layouts = embeddedIPv4(parseIPv6(NAT64_48('10.1.2.3')));
    expect(layouts.map((embedded) => embedded.ipv4.toString())).toContain('10.1.2.3');
    expect(layouts.map((embedded) => embedded.ipv4.toString())).toContain('0.0.0.0');
    for (const other of ['2606:4700:4700::1111', '::', '::1', '2001:db8::1']) {
      expect(embeddedIPv4(parseIPv6(other)), other).toEqual([]);
    }
  });

  for (const [ipv4, range] of INSIDE) {
    it(`are refused when they embed ${ipv4} (${range})`, () => {
      for (const [address, form] of FORMS(ipv4)) {
        const reason = refusedAddress(address, PUBLIC_ONLY);
        expect(reason, address).toContain(`embeds ${ipv4} (${form}), ${article(range)} address`);
      }
      expect(refusedAddress(NAT64_48(ipv4), PUBLIC_ONLY)).toContain(`embeds ${ipv4} (NAT64)`);
    });
  }

  it('are allowed when they embed a public address', () => {
    for (const ipv4 of PUBLIC) {
      for (const [address] of FORMS(ipv4)) expect(refusedAddress(address, PUBLIC_ONLY)).toBeNull();
      expect(refusedAddress(NAT64_48(ipv4), PUBLIC_ONLY)).toContain('embeds 0.0.0.0 (NAT64)');
    }
  });

  it('follow the networks the operator allows, for the IPv4 or the IPv6 address', () => {
    const byIPv4 = parseAllowedNetworks('10.0.0.0/8');
    for (const [address] of FORMS('10.1.2.3')) expect(refusedAddress(address, byIPv4)).toBeNull();
    expect(refusedAddress('2002:7f00:1::1', byIPv4)).toContain('loopback');
    expect(refusedAddress('2002:7f00:1::1', parseAllowedNetworks('2002::/16'))).toBeNull();
  });

  it('as the webhooks page says', async () => {
    for (const url of ['http://[::ffff:127.0.0.1]/', 'http://[2002:a00:1::1]/']) {
      await expect(checkDestination(parseWebhookUrl(url), PUBLIC_ONLY)).rejects.toThrow('embeds');
    }
    await checkDestination(parseWebhookUrl('http://[64:ff9b::8.8.8.8]/'), PUBLIC_ONLY);
  });

  it('keep IPv6’s own :: and ::1 as they are', () => {
    expect(refusedAddress('::', PUBLIC_ONLY)).toContain('an unspecified address');
    expect(refusedAddress('::1', PUBLIC_ONLY)).toContain('a loopback address');
  });
});

describe('the webhook guard with embedded addresses', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** The resolver answers every name with these addresses (AAAA records). */
  function resolveTo(addresses: string[]) {
    const answer: LookupAddress[] = addresses.map((address) => ({ address, family: 6 }));
    vi.spyOn(dns.promises, 'lookup').mockResolvedValue(answer as never);
    vi.spyOn(dns, 'lookup').mockImplementation(((
      _host: string,
      _options: unknown,
      callback: (error: null, result: LookupAddress[]) => void,
    ) => callback(null, answer)) as never);
  }

  it('at registration: a literal or a name resolving to an inside address is refused', async () => {
    for (const [ipv4, range] of INSIDE) {
      for (const [address, form] of FORMS(ipv4)) {
        const literal = checkDestination(parseWebhookUrl(`http://[${address}]/hook`), PUBLIC_ONLY);
        await expect(literal, address).rejects.toThrow(`(${form}), ${article(range)}`);
        resolveTo(['2606:4700:4700::1111', address]);
        const named = checkDestination(parseWebhookUrl('https://hooks.example/x'), PUBLIC_ONLY);
        await expect(named, address).rejects.toThrow(/^hooks\.example resolves to .* embeds/);
        vi.restoreAllMocks();
      }
    }
  });

  it('at registration: a public embedded address is accepted', async () => {
    for (const [address] of FORMS('8.8.8.8')) {
      await checkDestination(parseWebhookUrl(`http://[${address}]/hook`), PUBLIC_ONLY);
      resolveTo([address]);
      await checkDestination(parseWebhookUrl('https://hooks.example/x'), PUBLIC_ONLY);
      vi.restoreAllMocks();
    }
  });

  it('at delivery: the address connected to is judged, literal or resolved', async () => {
    const receiver = await startReceiver();
    try {
      const port = new URL(receiver.url).port;
      for (const [address, form] of FORMS('127.0.0.1')) {
        const literal = await sendWebhook(`http://[${address}]:${port}/`, {}, '{}', {
          policy: PUBLIC_ONLY,
          timeoutMs: 5000,
        });
        expect(literal, address).toMatchObject({ ok: false, status: null });
        expect(literal.error, address).toContain(`embeds 127.0.0.1 (${form})`);
        resolveTo([address]);
        const named = await sendWebhook(`http://hooks.example:${port}/`, {}, '{}', {
          policy: PUBLIC_ONLY,
          timeoutMs: 5000,
        });
        expect(named.error, address).toContain(`hooks.example resolves to ${address} embeds`);
        vi.restoreAllMocks();
      }
      expect(receiver.received).toHaveLength(0);
    } finally {
      await receiver.close();
    }
  });

  it('at delivery: a name resolving to a public embedded address is let through', async () => {
    for (const [address] of FORMS('8.8.8.8')) {
      resolveTo([address]);
      const answer = await new Promise<unknown>((resolve, reject) =>
        guardedLookup(PUBLIC_ONLY)('hooks.example', { all: true }, (error, addresses) =>
          error ? reject(error) : resolve(addresses),
        ),
      );
      expect(answer, address).toEqual([{ address, family: 6 }]);
      vi.restoreAllMocks();
    }
  });
});

function article(range: string): string {
  return `${/^[aeiou]/.test(range) ? 'an' : 'a'} ${range}`;
}
