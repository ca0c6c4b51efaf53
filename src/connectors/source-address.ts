import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import { AppError } from '../errors/app-error';
import type { InfrastructureEndpoint, InfrastructureEndpoints } from './infrastructure-endpoints';
import { canonicalAddress, isLoopback, isPrivateAddress } from './ip-ranges';
import { SourceError } from './source-error';

/** A network address a connection makes the service reach. */
export type SourceAddress =
  | { kind: 'postgres'; host: string; port: number; database: string }
  | { kind: 'http'; url: URL }
  /** An S3 API endpoint (AWS's for the region when absent) and the bucket read there. */
  | { kind: 's3'; endpoint: URL | undefined; region: string; bucket: string }
  /** A connection the egress proxy opens for a connector's engine (S3 reads, their redirects). */
  | { kind: 'tcp'; host: string; port: number };

/** A host that passed the checks, with the address it resolved to: every connection goes to that address. */
export interface CheckedAddress {
  host: string;
  port: number;
  address: string;
}

type Lookup = (host: string) => Promise<string[]>;

export interface PolicyOptions {
  /** Whether private and loopback networks are sources like any other (CONNECTOR_PRIVATE_NETWORKS=allow). */
  allowPrivate: boolean;
  resolve?: Lookup;
  /** This machine's own addresses: a listener bound to all of them is reached through each. */
  localAddresses?: () => string[];
}

const systemLookup: Lookup = async (host) => (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

const systemAddresses = () =>
  Object.values(networkInterfaces())
    .flat()
    .flatMap((entry) => (entry ? [entry.address] : []));

/** The service's own hosts are resolved again after this long (a name may move). */
const reservedTtlMs = 30_000;

/**
 * Where connections may go: the one check every address a connector contacts passes (a spec's hosts,
 * every page link and redirect hop, every connection the egress proxy opens), after DNS resolution,
 * and the address it resolved to is the one connected to. Refused always: every endpoint of the
 * service's own infrastructure (by any name or address of its host: every loopback and local address
 * counts as this machine) and the lake's bucket. Refused unless the deployment allows them: private,
 * loopback, link-local and other non-public addresses, IPv6 forms embedding an IPv4 address judged by
 * that address.
 */
export class SourceAddressPolicy {
  private reservedCache: { at: number; endpoints: Promise<{ endpoint: InfrastructureEndpoint; addresses: string[] }[]> } | undefined;
  private readonly resolve: Lookup;
  private readonly localAddresses: () => string[];

  constructor(
    private readonly reserved: InfrastructureEndpoints,
    private readonly options: PolicyOptions,
  ) {
    this.resolve = options.resolve ?? systemLookup;
    this.localAddresses = options.localAddresses ?? systemAddresses;
  }

  /** Throws SOURCE_NOT_ALLOWED, or SourceError when the host does not resolve or the address is malformed. */
  async check(address: SourceAddress): Promise<CheckedAddress> {
    const { host, port } = endpointOf(address);
    if (this.namesLakeBucket(address)) throw notAllowed('it is the service’s own lake bucket');
    const resolved = await this.addressesOf(host);
    for (const { endpoint, addresses } of await this.reservedEndpoints()) {
      if (endpoint.port === port && resolved.some((ip) => addresses.some((target) => this.sameMachine(ip, target)))) throw notAllowed(`it is ${endpoint.what}`);
    }
    if (!this.options.allowPrivate && resolved.some(isPrivateAddress)) {
      throw notAllowed(`${host} is a private or loopback address`, 'Sources must be reachable on the public internet here (CONNECTOR_PRIVATE_NETWORKS=deny).');
    }
    return { host, port, address: resolved[0]! };
  }

  /** Two addresses reach the same listener's host: the same address, or both this machine. */
  private sameMachine(a: string, b: string): boolean {
    const local = (ip: string) => isLoopback(ip) || this.localAddresses().some((own) => canonicalAddress(own) === canonicalAddress(ip));
    return canonicalAddress(a) === canonicalAddress(b) || (local(a) && local(b));
  }

  private namesLakeBucket(address: SourceAddress): boolean {
    const bucket = this.reserved.lakeBucket;
    if (bucket === undefined) return false;
    if (address.kind === 's3') return address.bucket === bucket;
    if (address.kind === 'postgres') return false;
    // AWS's endpoints, path-style `/bucket/…` or virtual-host `bucket.s3….amazonaws.com`.
    const { hostname, pathname } = address.kind === 'http' ? address.url : { hostname: address.host, pathname: '' };
    const aws = /(^|\.)amazonaws\.com\.?$/i.test(hostname);
    return aws && (hostname.toLowerCase().startsWith(`${bucket}.`) || pathname === `/${bucket}` || pathname.startsWith(`/${bucket}/`));
  }

  private async addressesOf(host: string): Promise<string[]> {
    const bare = host.replace(/^\[|\]$/g, '');
    if (isIP(bare)) return [bare];
    try {
      const addresses = await this.resolve(bare);
      if (addresses.length > 0) return addresses;
    } catch {
      // Reported below.
    }
    throw new SourceError('unreachable', `Host unreachable: the name ${host} does not resolve`);
  }

  private reservedEndpoints() {
    const now = Date.now();
    if (!this.reservedCache || now - this.reservedCache.at > reservedTtlMs) {
      const endpoints = Promise.all(
        this.reserved.endpoints.map(async (endpoint) => ({ endpoint, addresses: await this.addressesOf(endpoint.host).catch(() => []) })),
      );
      this.reservedCache = { at: now, endpoints };
    }
    return this.reservedCache.endpoints;
  }
}

/** The host and port an address connects to; a malformed one (a region no host name can hold) is a SourceError. */
export function endpointOf(address: SourceAddress): { host: string; port: number } {
  switch (address.kind) {
    case 'postgres':
    case 'tcp':
      return { host: address.host, port: address.port };
    case 'http':
      return urlEndpoint(address.url);
    case 's3':
      return urlEndpoint(address.endpoint ?? awsEndpoint(address.region));
  }
}

/**
 * What a connection's secrets are bound to: where the address sends them. A host, a port, a database,
 * an origin, an S3 endpoint (AWS's region when there is none) or a bucket that changes is another
 * destination (see connection-secrets' rebinding).
 */
export function destinationOf(address: SourceAddress): string {
  switch (address.kind) {
    case 'postgres':
      return `postgres://${address.host.toLowerCase()}:${address.port}/${address.database}`;
    case 'http':
      return address.url.origin;
    case 's3':
      return `${address.endpoint?.origin ?? awsEndpoint(address.region).origin}/${address.bucket}`;
    case 'tcp':
      return `${address.host.toLowerCase()}:${address.port}`;
  }
}

function awsEndpoint(region: string): URL {
  if (!/^[a-z0-9-]{1,64}$/.test(region)) throw new SourceError('invalid', 'An S3 region is written with lower-case letters, digits and hyphens');
  return new URL(`https://s3.${region}.amazonaws.com`);
}

function urlEndpoint(url: URL): { host: string; port: number } {
  return { host: url.hostname, port: Number(url.port) || (url.protocol === 'https:' ? 443 : 80) };
}

function notAllowed(why: string, hint = 'Point the connection at the source itself.'): AppError {
  return new AppError('SOURCE_NOT_ALLOWED', `The connection may not reach this address: ${why}`, { hint });
}
