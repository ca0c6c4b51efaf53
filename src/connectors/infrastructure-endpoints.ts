/** One listener of the service's own infrastructure: refused to every connection on every address that reaches it. */
export interface InfrastructureEndpoint {
  /** What it is, as a refusal names it: "the Temporal Web UI". */
  what: string;
  /** A name or an address; a wildcard (0.0.0.0, ::) or loopback one stands for every address of this machine. */
  host: string;
  port: number;
}

/**
 * Everything of the deployment no connection may reach, whatever CONNECTOR_PRIVATE_NETWORKS says:
 * built once from the configuration by the composition root (src/runtime/infrastructure-endpoints.ts).
 */
export interface InfrastructureEndpoints {
  endpoints: readonly InfrastructureEndpoint[];
  /**
   * The lake's bucket, refused on any S3 endpoint: on AWS the endpoint is shared with every customer of
   * it, so only the bucket is the service's own (a lake on an endpoint of its own reserves that endpoint).
   */
  lakeBucket?: string;
}
