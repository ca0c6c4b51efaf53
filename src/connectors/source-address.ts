import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { AppError } from '../errors/app-error';
import { isPrivateAddress, sameHost } from './ip-ranges';
import { SourceError } from './source-error';

/** A network address a connection's spec makes the service reach. */
export type SourceAddress =
  | { kind: 'postgres'; host: string; port: number; database: string }
  | { kind: 'http'; url: URL }
  /** An S3 API endpoint (AWS's for the region when absent) and the bucket read there. */
  | { kind: 's3'; endpoint: URL | undefined; region: string; bucket: string };

/** A host that passed the checks, with the address it resolved to: connections pin it where they can. */
export interface CheckedAddress {
  host: string;
  port: number;
  address: string;
}

/** What no connection may reach: the service's own metadata database, Temporal, and its lake bucket. */
export interface ReservedTargets {
  metadataDatabase?: { host: string; port: number; database: string };
  temporal?: { host: string; port: number };
  lake?: { endpoint: URL | undefined; region: string; bucket: string };
}

type Lookup = (host: string) => Promise<string[]>;

const systemLookup: Lookup = async (host) => (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

/**
 * Where sources may be. The host name is resolved and every address it resolves to is checked: the
 * service's own metadata database, Temporal and lake bucket are refused always (also under another
 * name for the same machine: every loopback address counts as one), private and loopback addresses
 * unless the deployment allows them (CONNECTOR_PRIVATE_NETWORKS). Postgres connections are pinned to
 * the address checked; HTTP and S3 resolve again when they connect, which a DNS answer changed in
 * between could steer (every sync and request checks afresh).
 */
export class SourceAddressPolicy {
  private reservedAddresses: Promise<{ metadata?: string[]; temporal?: string[]; lake?: string[] }> | undefined;

  constructor(
    private readonly reserved: ReservedTargets,
    private readonly allowPrivate: boolean,
    private readonly resolve: Lookup = systemLookup,
  ) {}

  /** Throws SOURCE_NOT_ALLOWED, or SourceError when the host does not resolve. */
  async check(address: SourceAddress): Promise<CheckedAddress> {
    const { host, port } = endpointOf(address);
    const resolved = await this.addressesOf(host);
    const reserved = await this.reservedOnce();
    const { metadataDatabase, temporal, lake } = this.reserved;
    const hits = (targets: string[] | undefined, targetPort: number | undefined) => targets !== undefined && targetPort === port && resolved.some((ip) => targets.some((target) => sameHost(ip, target)));
    if (hits(reserved.temporal, temporal?.port)) throw notAllowed('it is the service’s own Temporal server');
    if (hits(reserved.metadata, metadataDatabase?.port)) {
      if (address.kind !== 'postgres' || address.database === metadataDatabase!.database) throw notAllowed('it is the service’s own metadata database');
    }
    if (lake && (address.kind === 's3' ? address.bucket === lake.bucket : address.kind === 'http' && hits(reserved.lake, endpointOf({ kind: 's3', ...lake }).port) && namesBucket(address.url, lake.bucket))) {
      throw notAllowed('it is the service’s own lake bucket');
    }
    if (!this.allowPrivate && resolved.some(isPrivateAddress)) throw notAllowed(`${host} is a private or loopback address`, 'Sources must be reachable on the public internet here (CONNECTOR_PRIVATE_NETWORKS=deny).');
    return { host, port, address: resolved[0]! };
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

  private reservedOnce() {
    this.reservedAddresses ??= (async () => {
      const quiet = (host: string | undefined) => (host === undefined ? Promise.resolve(undefined) : this.addressesOf(host).catch(() => undefined));
      const { metadataDatabase, temporal, lake } = this.reserved;
      return {
        metadata: await quiet(metadataDatabase?.host),
        temporal: await quiet(temporal?.host),
        lake: await quiet(lake && endpointOf({ kind: 's3', ...lake }).host),
      };
    })();
    return this.reservedAddresses;
  }
}

/** The host and port an address connects to. */
export function endpointOf(address: SourceAddress): { host: string; port: number } {
  switch (address.kind) {
    case 'postgres':
      return { host: address.host, port: address.port };
    case 'http':
      return { host: address.url.hostname, port: Number(address.url.port) || (address.url.protocol === 'https:' ? 443 : 80) };
    case 's3': {
      const url = address.endpoint ?? new URL(`https://s3.${address.region}.amazonaws.com`);
      return { host: url.hostname, port: Number(url.port) || (url.protocol === 'https:' ? 443 : 80) };
    }
  }
}

/** An HTTP request into the bucket: path-style `/bucket/…` or virtual-host `bucket.<endpoint>`. */
function namesBucket(url: URL, bucket: string): boolean {
  return url.pathname === `/${bucket}` || url.pathname.startsWith(`/${bucket}/`) || url.hostname.startsWith(`${bucket}.`);
}

function notAllowed(why: string, hint = 'Point the connection at the source itself.'): AppError {
  return new AppError('SOURCE_NOT_ALLOWED', `The connection may not reach this address: ${why}`, { hint });
}
