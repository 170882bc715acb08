import dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { embeddedIPv4, parseIPv6 } from './embedded-ipv4.js';

/**
 * Where webhooks may be sent. A webhook's URL is chosen by whoever administers an organization,
 * and the server then makes requests to it from inside the operator's network: without a
 * policy it could reach the loopback interface, the private network or the cloud metadata
 * service (169.254.169.254). Only public unicast addresses are allowed, plus the networks the
 * operator lists in WEBHOOK_ALLOWED_NETWORKS. The check runs on every address the host resolves
 * to, at creation and again at each connection (a name that resolved to a public address
 * yesterday may resolve to 127.0.0.1 today: DNS rebinding).
 */

export class DestinationError extends Error {
  override name = 'DestinationError';
}

type Address = ipaddr.IPv4 | ipaddr.IPv6;

export interface DestinationPolicy {
  /** Networks allowed although not public: [address, prefix length] pairs (ipaddr.parseCIDR). */
  allowed: Array<[Address, number]>;
}

export const PUBLIC_ONLY: DestinationPolicy = { allowed: [] };

/**
 * WEBHOOK_ALLOWED_NETWORKS: comma-separated CIDRs or single addresses. Throws an Error that
 * names the entry it cannot read.
 */
export function parseAllowedNetworks(raw: string): DestinationPolicy {
  const allowed: Array<[Address, number]> = [];
  for (const entry of raw
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    try {
      if (entry.includes('/')) allowed.push(ipaddr.parseCIDR(entry));
      else {
        const address = ipaddr.parse(entry);
        allowed.push([address, address.kind() === 'ipv4' ? 32 : 128]);
      }
    } catch {
      throw new Error(
        `"${entry}" is not an IP address or a CIDR network such as 10.0.0.0/8 or fd00::/8`,
      );
    }
  }
  return { allowed };
}

/**
 * Why an address may not be reached, or null when it may. An IPv6 address that embeds an IPv4
 * address (embedded-ipv4.ts) is judged by that address, unless the operator allowed the IPv6
 * address itself.
 */
export function refusedAddress(text: string, policy: DestinationPolicy): string | null {
  let address: Address;
  try {
    address = ipaddr.IPv6.isValid(text) ? parseIPv6(text) : ipaddr.IPv4.parse(text);
  } catch {
    return `${text} is not an IP address`;
  }
  if (allowedBy(policy, address)) return null;
  if (address.kind() === 'ipv6') {
    const embedded = embeddedIPv4(address as ipaddr.IPv6);
    if (embedded.length > 0) {
      for (const { ipv4, form } of embedded) {
        if (allowedBy(policy, ipv4) || ipv4.range() === 'unicast') continue;
        return `${text} embeds ${ipv4.toString()} (${form}), ${article(rangeName(ipv4))} address, which webhooks may not reach; an operator can allow it with WEBHOOK_ALLOWED_NETWORKS`;
      }
      return null;
    }
  }
  const range = address.range();
  if (range === 'unicast') return null;
  return `${text} is ${article(rangeName(address))} address, which webhooks may not reach; an operator can allow it with WEBHOOK_ALLOWED_NETWORKS`;
}

function allowedBy(policy: DestinationPolicy, address: Address): boolean {
  return policy.allowed.some(
    ([network, bits]) => network.kind() === address.kind() && address.match(network, bits),
  );
}

/** ipaddr.js's name of an address's range, in words: "link local", "unique local". */
function rangeName(address: Address): string {
  return address
    .range()
    .replace(/([A-Z])/g, ' $1')
    .toLowerCase();
}

function article(name: string): string {
  return `${/^[aeiou]/.test(name) ? 'an' : 'a'} ${name}`;
}

/** A URL a webhook may have: http(s), no credentials in it, a host. */
export function parseWebhookUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new DestinationError(
      `"${raw}" is not an absolute URL; give one such as https://shop.example/stockroom-webhook`,
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new DestinationError(`the URL must start with https:// or http://, got ${url.protocol}`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new DestinationError(
      'the URL must not carry credentials (user:password@); deliveries are authenticated by their signature',
    );
  }
  if (raw.length > 2048) {
    throw new DestinationError('the URL is longer than 2048 characters');
  }
  return url;
}

/** The host of a URL as the resolver takes it (IPv6 literals without brackets). */
function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

/**
 * Checks a URL's host now: an address literal directly, a name through every address it
 * resolves to. Throws DestinationError with the reason.
 */
export async function checkDestination(url: URL, policy: DestinationPolicy): Promise<void> {
  const host = hostOf(url);
  if (ipaddr.isValid(host)) {
    const refused = refusedAddress(host, policy);
    if (refused) throw new DestinationError(refused);
    return;
  }
  let addresses: dns.LookupAddress[];
  try {
    addresses = await dns.promises.lookup(host, { all: true, verbatim: true });
  } catch (error) {
    throw new DestinationError(
      `cannot resolve ${host}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  for (const { address } of addresses) {
    const refused = refusedAddress(address, policy);
    if (refused) throw new DestinationError(`${host} resolves to ${refused}`);
  }
}

/**
 * A `lookup` for http.request that refuses names resolving to an address the policy forbids,
 * so the connection is checked at the moment it is made. (Address literals skip lookup:
 * the sender checks them before the request.)
 */
export function guardedLookup(policy: DestinationPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) {
        callback(error, '', 0);
        return;
      }
      const list = addresses as unknown as dns.LookupAddress[];
      for (const { address } of list) {
        const refused = refusedAddress(address, policy);
        if (refused) {
          callback(new DestinationError(`${hostname} resolves to ${refused}`), '', 0);
          return;
        }
      }
      if ((options as { all?: boolean }).all) {
        (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
      } else {
        const first = list[0] as dns.LookupAddress;
        callback(null, first.address, first.family);
      }
    });
  };
}

export { hostOf };
