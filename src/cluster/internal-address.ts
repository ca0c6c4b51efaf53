import { hostname, networkInterfaces } from 'node:os';

const wildcards = new Set(['0.0.0.0', '::', '[::]', '']);

/**
 * Where the other replicas reach this one, from the listener's own host and port: the host itself,
 * or, for a listener on every interface, the machine's first non-loopback IPv4 address (its host
 * name when it has none).
 */
export function derivedInternalUrl(host: string, port: number): URL {
  const address = wildcards.has(host) ? machineAddress() : host;
  return new URL(`http://${address.includes(':') && !address.startsWith('[') ? `[${address}]` : address}:${port}`);
}

function machineAddress(): string {
  for (const entries of Object.values(networkInterfaces())) {
    const external = entries?.find((entry) => entry.family === 'IPv4' && !entry.internal);
    if (external) return external.address;
  }
  return hostname();
}
