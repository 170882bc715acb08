import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import ipaddr from 'ipaddr.js';

/**
 * Who the client of a request is, under TRUST_PROXY: the address every request log line
 * carries (`clientAddress`), the one the invalid-key throttle counts, and the one the admin
 * API's audit actor names (`admin-api:<client address>`).
 *
 * The addresses of a request, nearest first, are the connection's peer and then the entries of
 * X-Forwarded-For from right to left (each proxy appends the address it was connected from).
 * Walking them, an address is taken as long as the one before it is trusted to be a proxy:
 *
 * - `false`: no one; the client is the connection's peer (X-Forwarded-For is ignored);
 * - `true`: every hop; the client is the leftmost entry;
 * - a hop count N: the N nearest hops (the peer and N − 1 entries); the client is the N-th
 *   entry from the right (or the leftmost, in a shorter chain);
 * - addresses and CIDR networks: the hops whose address is in one of them.
 *
 * An entry that is not an IP address (a port, brackets, a name, garbage) ends the walk: the
 * client is then the last address reached, so whatever a client writes in the header never
 * becomes "its address" unless it is one.
 *
 * Fastify's own reading of a hop count (5.12: "trust nothing", on purpose, since a hop count
 * cannot tell a proxy from a client connecting directly) is why the setting is turned into a
 * function here rather than handed over as a number.
 */

/** TRUST_PROXY, read (config.ts): none, every hop, a hop count, or addresses and networks. */
export type TrustProxy = boolean | number | string[];

/** Whether the hop `address`, `hop` steps from the server (0: the peer), is a trusted proxy. */
export type TrustFunction = (address: string, hop: number) => boolean;

/** The names proxy-addr (Express, Fastify) gives these ranges, accepted in TRUST_PROXY. */
export const NAMED_RANGES: Record<string, readonly string[]> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

type Network = [ipaddr.IPv4 | ipaddr.IPv6, number];

/**
 * One entry of an address list: a named range, an address or a CIDR network, as networks.
 * Throws an Error saying why the entry cannot be read.
 */
export function parseTrustedEntry(entry: string): Network[] {
  const named = NAMED_RANGES[entry];
  if (named) return named.map((range) => ipaddr.parseCIDR(range));
  const slash = entry.indexOf('/');
  const text = slash === -1 ? entry : entry.slice(0, slash);
  if (!ipaddr.isValid(text) || isIP(text.replace(/%.*$/, '')) === 0) {
    throw new Error(`"${entry}" is not an IP address or a CIDR network`);
  }
  // An IPv4 address written as IPv6 (::ffff:10.0.0.1) is the IPv4 address.
  const address = slash === -1 ? ipaddr.process(text) : ipaddr.parse(text);
  const max = address.kind() === 'ipv4' ? 32 : 128;
  if (slash === -1) return [[address, max]];
  const bits = entry.slice(slash + 1);
  if (!/^\d{1,3}$/.test(bits) || Number(bits) > max) {
    throw new Error(`"${entry}" has a prefix length that is not a whole number from 0 to ${max}`);
  }
  return [[address, Number(bits)]];
}

/** The trust function of a setting; false when no one is trusted. */
export function trustFunction(setting: TrustProxy): TrustFunction | false {
  if (setting === false) return false;
  if (setting === true) return () => true;
  if (typeof setting === 'number') {
    const hops = setting;
    return (_address, hop) => hop < hops;
  }
  const networks = setting.flatMap(parseTrustedEntry);
  return (text) => {
    let address: ipaddr.IPv4 | ipaddr.IPv6;
    try {
      // The peer of a dual-stack socket is ::ffff:a.b.c.d for an IPv4 client: that address.
      address = ipaddr.process(text);
    } catch {
      return false;
    }
    for (const [network, bits] of networks) {
      if (network.kind() === address.kind() && address.match(network, bits)) return true;
    }
    return false;
  };
}

/** The client address of a request (see the top of this file). */
export function resolveClientAddress(raw: IncomingMessage, trust: TrustFunction | false): string {
  // The peer is unknown only once the socket is gone; '' then, never undefined, in a log line.
  let address = raw.socket?.remoteAddress ?? '';
  if (trust === false) return address;
  const header = raw.headers['x-forwarded-for'];
  if (typeof header !== 'string' || header === '') return address;
  const entries = header.split(',');
  let hop = 0;
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = (entries[i] as string).trim();
    if (entry === '') continue;
    if (!trust(address, hop) || isIP(entry) === 0) break;
    address = entry;
    hop += 1;
  }
  return address;
}

/** Where an app keeps its trust function (on the root instance, seen by every child). */
const TRUST = Symbol('stockroom.trustProxy');

/** Makes `clientAddressOf` resolve the requests of `app` under `trust`. */
export function useClientAddress(app: FastifyInstance, trust: TrustFunction | false): void {
  app.decorate(TRUST, { getter: () => trust });
}

/**
 * The client address of a request of an app set up with `useClientAddress`. Worked out when
 * asked (the log line asks once; the invalid-key throttle only while some address has failed),
 * never stored. A function rather than a request decoration: the requests Fastify answers
 * before routing (frameworkErrors) are plain requests without decorations.
 */
export function clientAddressOf(request: FastifyRequest): string {
  const trust = (request.server as unknown as Record<symbol, TrustFunction | false | undefined>)[
    TRUST
  ];
  return resolveClientAddress(request.raw, trust ?? false);
}
