import type { Config } from '../config';
import type { InfrastructureEndpoint, InfrastructureEndpoints } from '../connectors/infrastructure-endpoints';

/** Stripe's own API is everyone's: only a base of the deployment's own (stripe-mock, a proxy) is infrastructure. */
const publicStripeApi = 'https://api.stripe.com';

/**
 * Every listener of the deployment that the configuration names, which no connection may reach
 * (src/connectors/source-address.ts refuses each on every address of its host). A listener the
 * service gains is one more line in `endpoints`.
 */
export function infrastructureEndpoints(config: Config): InfrastructureEndpoints {
  const temporal = temporalHost(config);
  const endpoints: (InfrastructureEndpoint | undefined)[] = [
    { what: 'the service’s own API', host: config.http.host, port: config.http.port },
    internalChannel(config),
    config.metrics.port === undefined ? undefined : { what: 'the service’s metrics listener', host: config.metrics.host, port: config.metrics.port },
    temporal && { what: 'the service’s own Temporal server', ...temporal },
    temporal && { what: 'the service’s Temporal Web UI', host: temporal.host, port: config.temporal.devServer.uiPort },
    config.metadata.kind === 'postgres' ? { what: 'the service’s own metadata database', ...urlEndpoint(new URL(config.metadata.url), 5432) } : undefined,
    ...lakeEndpoints(config),
    config.billing.stripeApiBase.origin === publicStripeApi
      ? undefined
      : { what: 'the service’s billing provider (Stripe)', ...urlEndpoint(config.billing.stripeApiBase, 443) },
    ...config.syncs.reservedEndpoints.map((endpoint) => ({ what: 'a reserved endpoint of the service (CONNECTOR_RESERVED_ENDPOINTS)', ...endpoint })),
  ];
  return {
    endpoints: endpoints.filter((endpoint): endpoint is InfrastructureEndpoint => endpoint !== undefined),
    lakeBucket: config.lake.kind === 's3' ? config.lake.bucket : undefined,
  };
}

/**
 * The channel between API replicas (INTERNAL_URL): by default the API's own listener on an address of
 * this machine, listed above already; one on a port of its own is a listener of its own.
 */
function internalChannel(config: Config): InfrastructureEndpoint | undefined {
  const channel = urlEndpoint(config.cluster.internalUrl, 80);
  return channel.port === config.http.port ? undefined : { what: 'the service’s internal channel between replicas', ...channel };
}

/** The supervised dev server, or the cluster TEMPORAL_ADDRESS names (`host:port`, `[v6]:port`). */
function temporalHost(config: Config): { host: string; port: number } | undefined {
  const address = config.temporal.address ?? `127.0.0.1:${config.temporal.devServer.port}`;
  const match = /^\[?([^\]]+?)\]?:(\d+)$/.exec(address);
  return match ? { host: match[1]!, port: Number(match[2]) } : undefined;
}

/**
 * A lake on an S3 endpoint of the deployment's own (MinIO and the like): that endpoint, and MinIO's
 * console where MinIO's documentation puts it (the port after the API's 9000; another one is listed in
 * CONNECTOR_RESERVED_ENDPOINTS). A lake on AWS reserves its bucket only.
 */
function lakeEndpoints(config: Config): InfrastructureEndpoint[] {
  if (config.lake.kind !== 's3' || config.lake.endpoint === undefined) return [];
  const api = urlEndpoint(new URL(config.lake.endpoint), 443);
  const minioConsole = api.port === 9000 ? [{ what: 'the service’s S3 console', host: api.host, port: 9001 }] : [];
  return [{ what: 'the service’s own lake storage (S3)', ...api }, ...minioConsole];
}

function urlEndpoint(url: URL, defaultPort: number): { host: string; port: number } {
  const port = Number(url.port) || (url.protocol === 'http:' ? 80 : url.protocol === 'https:' ? 443 : defaultPort);
  return { host: url.hostname.replace(/^\[|\]$/g, ''), port };
}
