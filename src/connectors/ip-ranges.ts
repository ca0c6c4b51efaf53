import { isIPv4, isIPv6 } from 'node:net';

/** IPv4 ranges that are not the public internet: private, loopback, link-local, shared, reserved, multicast. */
const privateV4: [string, number][] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];

/** Whether an address is private, loopback, link-local or otherwise not a public host. */
export function isPrivateAddress(address: string): boolean {
  const v4 = embeddedV4(address);
  if (v4) return privateV4.some(([base, bits]) => inV4Range(v4, base, bits));
  const hextets = parseV6(address);
  if (!hextets) return true;
  const [first] = hextets;
  if (hextets.every((part) => part === 0)) return true; // ::
  if (hextets.slice(0, 7).every((part) => part === 0) && hextets[7] === 1) return true; // ::1
  if ((first! & 0xfe00) === 0xfc00) return true; // fc00::/7 unique local
  if ((first! & 0xffc0) === 0xfe80) return true; // fe80::/10 link-local
  if ((first! & 0xff00) === 0xff00) return true; // multicast
  return first === 0x2001 && hextets[1] === 0x0db8; // documentation
}

/** Loopback and "this host" addresses all reach the local machine: one class for comparisons. */
export function isLoopback(address: string): boolean {
  const v4 = embeddedV4(address);
  if (v4) return inV4Range(v4, '127.0.0.0', 8) || inV4Range(v4, '0.0.0.0', 8);
  const hextets = parseV6(address);
  return hextets !== undefined && hextets.slice(0, 7).every((part) => part === 0) && (hextets[7] === 1 || hextets[7] === 0);
}

/** Two addresses reach the same host: equal, or both the local machine. */
export function sameHost(a: string, b: string): boolean {
  if (isLoopback(a) && isLoopback(b)) return true;
  const [va, vb] = [embeddedV4(a), embeddedV4(b)];
  if (va || vb) return va === vb;
  const [ha, hb] = [parseV6(a), parseV6(b)];
  return ha !== undefined && hb !== undefined && ha.every((part, index) => part === hb[index]);
}

/** The IPv4 address itself, or one an IPv6 address carries (mapped `::ffff:a.b.c.d`, NAT64 `64:ff9b::`). */
function embeddedV4(address: string): string | undefined {
  if (isIPv4(address)) return address;
  const hextets = parseV6(address);
  if (!hextets) return undefined;
  const mapped = hextets.slice(0, 5).every((part) => part === 0) && hextets[5] === 0xffff;
  const nat64 = hextets[0] === 0x64 && hextets[1] === 0xff9b && hextets.slice(2, 6).every((part) => part === 0);
  if (!mapped && !nat64) return undefined;
  return [hextets[6]! >> 8, hextets[6]! & 0xff, hextets[7]! >> 8, hextets[7]! & 0xff].join('.');
}

function inV4Range(address: string, base: string, bits: number): boolean {
  const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
  return (v4Number(address) & mask) >>> 0 === (v4Number(base) & mask) >>> 0;
}

function v4Number(address: string): number {
  return address.split('.').reduce((value, part) => ((value << 8) | Number(part)) >>> 0, 0);
}

/** Eight 16-bit parts, or undefined for anything that is not an IPv6 address. */
function parseV6(text: string): number[] | undefined {
  let address = text.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!isIPv6(address)) return undefined;
  // A dotted IPv4 tail is two hextets.
  address = address.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_, a, b, c, d) => `${((Number(a) << 8) | Number(b)).toString(16)}:${((Number(c) << 8) | Number(d)).toString(16)}`);
  const parse = (part: string) => (part ? part.split(':').map((hex) => parseInt(hex, 16)) : []);
  if (!address.includes('::')) return parse(address);
  const [left, right] = address.split('::') as [string, string];
  const [leftParts, rightParts] = [parse(left), parse(right)];
  return [...leftParts, ...Array<number>(8 - leftParts.length - rightParts.length).fill(0), ...rightParts];
}
