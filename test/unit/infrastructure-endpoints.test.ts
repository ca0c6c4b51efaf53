import { describe, expect, test } from 'bun:test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../src/config';
import { infrastructureEndpoints } from '../../src/runtime/infrastructure-endpoints';

const configOf = (env: Record<string, string>) => loadConfig({ DATA_DIR: mkdtempSync(join(tmpdir(), 'oxbow-endpoints-')), ...env });
const listed = (env: Record<string, string>) => infrastructureEndpoints(configOf(env)).endpoints.map(({ what, host, port }) => `${what} ${host}:${port}`);

/** What no connection may reach, as the composition root builds it from the configuration. */
describe('the infrastructure endpoints of a deployment', () => {
  test('embedded: the API and the supervised Temporal with its Web UI; the public Stripe API is no endpoint of ours', () => {
    expect(listed({})).toEqual([
      'the service’s own API 127.0.0.1:3000',
      'the service’s own Temporal server 127.0.0.1:7233',
      'the service’s Temporal Web UI 127.0.0.1:8233',
    ]);
    expect(infrastructureEndpoints(configOf({})).lakeBucket).toBeUndefined();
  });

  test('production: metrics, the metadata Postgres, the lake’s S3 endpoint and its console, a Stripe base of its own, and the reserved listeners', () => {
    const env = {
      HOST: '0.0.0.0',
      PORT: '8080',
      METRICS_PORT: '9464',
      METRICS_HOST: '10.0.0.5',
      DATABASE_URL: 'postgres://oxbow:secret@db.internal/oxbow',
      LAKE_URL: 's3://lake/tenants',
      AWS_ACCESS_KEY_ID: 'k',
      AWS_SECRET_ACCESS_KEY: 's',
      AWS_ENDPOINT_URL_S3: 'http://minio.internal:9000',
      TEMPORAL_ADDRESS: '[fd00::7]:7233',
      TEMPORAL_UI_PORT: '8088',
      STRIPE_API_BASE: 'http://127.0.0.1:12111',
      CONNECTOR_RESERVED_ENDPOINTS: 'admin.internal:8443, https://grafana.internal http://[::1]:9999',
    };
    expect(listed(env)).toEqual([
      'the service’s own API 0.0.0.0:8080',
      'the service’s metrics listener 10.0.0.5:9464',
      'the service’s own Temporal server fd00::7:7233',
      'the service’s Temporal Web UI fd00::7:8088',
      'the service’s own metadata database db.internal:5432',
      'the service’s own lake storage (S3) minio.internal:9000',
      'the service’s S3 console minio.internal:9001',
      'the service’s billing provider (Stripe) 127.0.0.1:12111',
      'a reserved endpoint of the service (CONNECTOR_RESERVED_ENDPOINTS) admin.internal:8443',
      'a reserved endpoint of the service (CONNECTOR_RESERVED_ENDPOINTS) grafana.internal:443',
      'a reserved endpoint of the service (CONNECTOR_RESERVED_ENDPOINTS) ::1:9999',
    ]);
    expect(infrastructureEndpoints(configOf(env)).lakeBucket).toBe('lake');
  });

  test('a lake on AWS reserves its bucket, not AWS', () => {
    const reserved = infrastructureEndpoints(configOf({ LAKE_URL: 's3://company-lake/x', AWS_ACCESS_KEY_ID: 'k', AWS_SECRET_ACCESS_KEY: 's' }));
    expect(reserved.lakeBucket).toBe('company-lake');
    expect(reserved.endpoints.map((endpoint) => endpoint.what)).not.toContain('the service’s own lake storage (S3)');
  });

  test('a reserved endpoint without a port is a configuration error', () => {
    expect(() => configOf({ CONNECTOR_RESERVED_ENDPOINTS: 'admin.internal' })).toThrow(ConfigError);
  });
});
