import ipaddr from 'ipaddr.js';

/**
 * The IPv4 address an IPv6 address carries by one of the standard embeddings. A packet to such
 * an address may end up at that IPv4 address (a NAT64 gateway, a 6to4 or Teredo relay, a host
 * that maps them onto its IPv4 stack), so the webhook guard judges it by the IPv4 address: an
 * embedded 127.0.0.1 is loopback, an embedded 8.8.8.8 is public.
 */
export interface EmbeddedIPv4 {
  ipv4: ipaddr.IPv4;
  /** The embedding, as an error message names it. */
  form: string;
}

/** Bits of an IPv6 address as a bigint, most significant first. */
function bitsOf(address: ipaddr.IPv6): bigint {
  return address.parts.reduce((value, part) => (value << 16n) | BigInt(part), 0n);
}

function ipv4Of(value: bigint): ipaddr.IPv4 {
  const octets = [24n, 16n, 8n, 0n].map((shift) => Number((value >> shift) & 0xffn));
  return new ipaddr.IPv4(octets);
}

/** The top `bits` bits of an address equal those of `prefix`. */
function within(address: ipaddr.IPv6, prefix: string, bits: number): boolean {
  return address.match(ipaddr.IPv6.parse(prefix), bits);
}

/**
 * Where RFC 6052 puts the IPv4 address after a prefix of each length (bits 64–71 are skipped:
 * they must be zero, and so must the suffix after the address). A prefix taken from the
 * local-use 64:ff9b:1::/48 may have any of these lengths from 48 on.
 */
const NAT64_LAYOUTS = [48, 56, 64, 96] as const;

/**
 * The IPv4 addresses an address of 64:ff9b:1::/48 may embed: one per prefix length whose
 * layout the address fits (zero bits 64–71 and suffix). The /96 layout always fits.
 */
function localNat64(bits: bigint): ipaddr.IPv4[] {
  const found: ipaddr.IPv4[] = [];
  for (const length of NAT64_LAYOUTS) {
    if (length === 96) {
      found.push(ipv4Of(bits & 0xffffffffn));
      continue;
    }
    // The 40 bits after the prefix, without bits 64–71: the address, then the suffix.
    const before = (bits >> BigInt(128 - length)) << BigInt(128 - length);
    const skipped = (bits >> 56n) & 0xffn;
    const rest = bits ^ before;
    // Bits length..63, then 72..: joined, they are 32 address bits and a zero suffix.
    const high = rest >> 64n;
    const low = rest & ((1n << 56n) - 1n);
    const joined = (high << 56n) | low;
    const suffixBits = BigInt(120 - length - 32);
    if (skipped !== 0n || (joined & ((1n << suffixBits) - 1n)) !== 0n) continue;
    found.push(ipv4Of(joined >> suffixBits));
  }
  return found;
}

/** The IPv4 addresses an IPv6 address embeds (several only under 64:ff9b:1::/48), or none. */
export function embeddedIPv4(address: ipaddr.IPv6): EmbeddedIPv4[] {
  const bits = bitsOf(address);
  const last32 = bits & 0xffffffffn;
  if (within(address, '::ffff:0:0', 96)) return [{ ipv4: ipv4Of(last32), form: 'IPv4-mapped' }];
  if (within(address, '::ffff:0:0:0', 96)) {
    return [{ ipv4: ipv4Of(last32), form: 'IPv4-translated' }];
  }
  // ::/96 but :: and ::1, which are IPv6's own unspecified and loopback addresses.
  if (within(address, '::', 96) && last32 > 1n) {
    return [{ ipv4: ipv4Of(last32), form: 'IPv4-compatible' }];
  }
  if (within(address, '64:ff9b::', 96)) return [{ ipv4: ipv4Of(last32), form: 'NAT64' }];
  if (within(address, '64:ff9b:1::', 48)) {
    return localNat64(bits).map((ipv4) => ({ ipv4, form: 'NAT64' }));
  }
  if (within(address, '2002::', 16)) {
    return [{ ipv4: ipv4Of((bits >> 80n) & 0xffffffffn), form: '6to4' }];
  }
  // The Teredo client's address is stored inverted.
  if (within(address, '2001::', 32)) {
    return [{ ipv4: ipv4Of(last32 ^ 0xffffffffn), form: 'Teredo' }];
  }
  return [];
}

/**
 * An IPv6 address as written, read as IPv6 whatever its form: ipaddr.js reads `::a.b.c.d`
 * (IPv4-compatible) as `::ffff:a.b.c.d`, which would misname the embedding.
 */
export function parseIPv6(text: string): ipaddr.IPv6 {
  const compatible = /^::(\d{1,3}(?:\.\d{1,3}){3})$/.exec(text);
  if (compatible) {
    const octets = ipaddr.IPv4.parse(compatible[1] as string).octets;
    return new ipaddr.IPv6([
      0,
      0,
      0,
      0,
      0,
      0,
      ((octets[0] as number) << 8) | (octets[1] as number),
      ((octets[2] as number) << 8) | (octets[3] as number),
    ]);
  }
  return ipaddr.IPv6.parse(text);
}
