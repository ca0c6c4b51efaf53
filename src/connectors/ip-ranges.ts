import { isIPv4, isIPv6 } from 'node:net';

/**
 * IPv4 ranges that are not the public internet: "this network", private, shared (CGNAT), loopback,
 * link-local (cloud metadata), protocol assignments, documentation, the 6to4 relay, benchmarking,
 * multicast, reserved and broadcast.
 */
const nonGlobalV4: [string, number][] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];

/** IPv6 ranges that are not the public internet (those embedding an IPv4 address are classified by it instead). */
const nonGlobalV6: [number[], number][] = [
  [[0, 0, 0, 0, 0, 0, 0, 0], 128], // unspecified
  [[0, 0, 0, 0, 0, 0, 0, 1], 128], // loopback
  [[0x0100], 64], // discard-only
  [[0x2001, 0x0002], 48], // benchmarking
  [[0x2001, 0x0010], 28], // ORCHID
  [[0x2001, 0x0020], 28], // ORCHIDv2
  [[0x2001, 0x0db8], 32], // documentation
  [[0x3fff], 20], // documentation
  [[0xfc00], 7], // unique local
  [[0xfe80], 10], // link-local
  [[0xfec0], 10], // site-local (deprecated, still routed inside some networks)
  [[0xff00], 8], // multicast
];

/** An address inside a NAT64 prefix in a form that names no one IPv4 host. */
const unroutable = Symbol('unroutable');

/** Whether an address is private, loopback, link-local or otherwise not a public host; anything unparsable counts as private. */
export function isPrivateAddress(address: string): boolean {
  const v4 = embeddedV4(address);
  if (v4 === unroutable) return true;
  if (v4) return nonGlobalV4.some(([base, bits]) => inV4Range(v4, base, bits));
  const hextets = parseV6(address);
  if (!hextets) return true;
  return nonGlobalV6.some(([prefix, bits]) => inV6Range(hextets, prefix, bits));
}

/** Loopback and "this host" addresses all reach the local machine, however they are written. */
export function isLoopback(address: string): boolean {
  const v4 = embeddedV4(address);
  if (v4 === unroutable) return false;
  if (v4) return inV4Range(v4, '127.0.0.0', 8) || inV4Range(v4, '0.0.0.0', 8);
  const hextets = parseV6(address);
  return hextets !== undefined && hextets.slice(0, 7).every((part) => part === 0) && (hextets[7] === 1 || hextets[7] === 0);
}

/** One spelling per address: an IPv4 address (embedded ones unwrapped) in dotted form, an IPv6 one as eight hextets. */
export function canonicalAddress(address: string): string | undefined {
  const v4 = embeddedV4(address);
  if (v4 && v4 !== unroutable) return v4;
  return parseV6(address)
    ?.map((part) => part.toString(16))
    .join(':');
}

/**
 * The IPv4 address an address is or carries: IPv4 itself, and every IPv6 form that embeds one —
 * IPv4-compatible `::a.b.c.d`, mapped `::ffff:a.b.c.d`, SIIT-translated `::ffff:0:a.b.c.d`, NAT64
 * well-known `64:ff9b::/96` and local-use `64:ff9b:1::/48` (RFC 8215, in its /96 form), 6to4
 * `2002::/16` (the next 32 bits) and Teredo `2001::/32` (the client, the last 32 bits inverted).
 * `unroutable`: inside those prefixes but in no form that names one IPv4 host (a NAT64 prefix of
 * another length): refused like a private address. `::` and `::1` are IPv6's own unspecified and
 * loopback addresses, not embeddings.
 */
function embeddedV4(address: string): string | typeof unroutable | undefined {
  if (isIPv4(address)) return address;
  const h = parseV6(address);
  if (!h) return undefined;
  const zero = (from: number, to: number) => h.slice(from, to).every((part) => part === 0);
  const last32 = () => dotted(h[6]!, h[7]!);
  if (zero(0, 6) && !(h[6] === 0 && (h[7] === 0 || h[7] === 1))) return last32(); // compatible ::a.b.c.d
  if (zero(0, 5) && h[5] === 0xffff) return last32(); // mapped
  if (zero(0, 4) && h[4] === 0xffff && h[5] === 0) return last32(); // SIIT translated
  if (h[0] === 0x64 && h[1] === 0xff9b) {
    if (zero(2, 6)) return last32(); // NAT64 well-known /96
    if (h[2] === 1 && zero(3, 6)) return last32(); // NAT64 local-use, /96 form
    return unroutable;
  }
  if (h[0] === 0x2002) return dotted(h[1]!, h[2]!); // 6to4
  if (h[0] === 0x2001 && h[1] === 0) return dotted(~h[6]! & 0xffff, ~h[7]! & 0xffff); // Teredo client
  return undefined;
}

function dotted(high: number, low: number): string {
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

function inV4Range(address: string, base: string, bits: number): boolean {
  const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
  return (v4Number(address) & mask) >>> 0 === (v4Number(base) & mask) >>> 0;
}

function inV6Range(hextets: number[], prefix: number[], bits: number): boolean {
  for (let bit = 0; bit < bits; bit += 16) {
    const width = Math.min(16, bits - bit);
    const mask = (0xffff << (16 - width)) & 0xffff;
    if (((hextets[bit / 16] ?? 0) & mask) !== ((prefix[bit / 16] ?? 0) & mask)) return false;
  }
  return true;
}

function v4Number(address: string): number {
  return address.split('.').reduce((value, part) => ((value << 8) | Number(part)) >>> 0, 0);
}

/** Eight 16-bit parts, or undefined for anything that is not an IPv6 address (brackets and a zone allowed). */
function parseV6(text: string): number[] | undefined {
  let address = text.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!isIPv6(address)) return undefined;
  // A dotted IPv4 tail is two hextets.
  address = address.replace(
    /(\d+)\.(\d+)\.(\d+)\.(\d+)$/,
    (_, a, b, c, d) => `${((Number(a) << 8) | Number(b)).toString(16)}:${((Number(c) << 8) | Number(d)).toString(16)}`,
  );
  const parse = (part: string) => (part ? part.split(':').map((hex) => parseInt(hex, 16)) : []);
  if (!address.includes('::')) return parse(address);
  const [left, right] = address.split('::') as [string, string];
  const [leftParts, rightParts] = [parse(left), parse(right)];
  return [...leftParts, ...Array<number>(8 - leftParts.length - rightParts.length).fill(0), ...rightParts];
}
