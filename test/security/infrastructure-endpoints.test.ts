import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startHttpServer, type HttpServer } from '../../src/api/server';
import type { InfrastructureEndpoint } from '../../src/connectors/infrastructure-endpoints';
import { freePort } from '../../src/process/ports';
import { infrastructureEndpoints } from '../../src/runtime/infrastructure-endpoints';
import { type TestUser } from '../support/accounts';
import { connectionsPath, createConnection, triggerSyncOk, waitForSync } from '../support/connections';
import { attackConfigurations, inParallel, privateNetworksAllowed, StandIn, TenantSource } from '../support/egress-servers';
import { FakeHubSpot } from '../support/fake-crm/fake-hubspot';
import { FakeSalesforce } from '../support/fake-crm/fake-salesforce';
import { bodyOf } from '../support/http';
import { authorizeOk, callback, consent } from '../support/oauth';
import { startTestApp, type TestApp } from '../support/test-app';
import { testEnv } from '../support/test-env';
import { withWorkspace } from '../support/fixtures';

/** Every spelling of this machine a tenant might try for a listener on the loopback interface. */
const loopbackSpellings = [
  '127.0.0.1',
  'localhost',
  '127.0.0.2',
  '[::1]',
  '[::ffff:127.0.0.1]',
  '[::ffff:7f00:1]',
  '[::127.0.0.1]',
  '[::ffff:0:7f00:1]',
  '[64:ff9b::7f00:1]',
  '[2002:7f00:1::1]',
  '0.0.0.0',
];

const expectedEndpoints = [
  'the service’s own API',
  'the service’s metrics listener',
  'the service’s own Temporal server',
  'the service’s Temporal Web UI',
  'the service’s own metadata database',
  'the service’s own lake storage (S3)',
  'the service’s billing provider (Stripe)',
  'a reserved endpoint of the service (CONNECTOR_RESERVED_ENDPOINTS)',
];

/** The spellings of an endpoint's host: the loopback ones for a listener on this machine, else its own name. */
function spellings(endpoint: InfrastructureEndpoint): string[] {
  return ['127.0.0.1', 'localhost', '0.0.0.0'].includes(endpoint.host)
    ? loopbackSpellings
    : [endpoint.host.includes(':') ? `[${endpoint.host}]` : endpoint.host];
}

/**
 * Every listener of the service's own infrastructure that its configuration names (API, metrics,
 * Temporal frontend and Web UI, metadata Postgres, the lake's S3 endpoint, stripe-mock, a listener
 * reserved by CONNECTOR_RESERVED_ENDPOINTS) is refused to every connector type, by every spelling of
 * its address, behind every redirect, next-page link and S3 redirect of a source the tenant controls,
 * whatever CONNECTOR_PRIVATE_NETWORKS says. The real listeners of the test services are the targets.
 */
describe.each(attackConfigurations)('the service’s own infrastructure, in %s', (_, env) => {
  let t: TestApp;
  let server: HttpServer;
  let user: TestUser;
  let workspaceId: string;
  let endpoints: readonly InfrastructureEndpoint[];
  let s3Console: StandIn;
  let source: TenantSource;
  let s3Source: TenantSource;
  let counter = 0;
  const privateAllowed = privateNetworksAllowed(env);

  beforeAll(async () => {
    s3Console = new StandIn();
    source = new TenantSource();
    s3Source = new TenantSource();
    const apiPort = await freePort();
    t = await startTestApp('postgres-s3', {
      worker: true,
      env: {
        ...env,
        PORT: String(apiPort),
        METRICS_PORT: String(await freePort()),
        STRIPE_API_BASE: testEnv.stripeApiBase(),
        CONNECTOR_RESERVED_ENDPOINTS: `127.0.0.1:${s3Console.port}`,
      },
    });
    server = startHttpServer(t.app, { host: '127.0.0.1', port: apiPort });
    ({ user, workspaceId } = await withWorkspace(t, { label: 'infra', plan: 'enterprise' }));
    endpoints = infrastructureEndpoints(t.backend.config).endpoints;
  });
  afterAll(async () => {
    await server.stop();
    await t.stop();
    for (const stoppable of [s3Console, source, s3Source]) stoppable.stop();
  });

  const create = (connectorType: string, spec: Record<string, unknown>) =>
    createConnection(t, user, workspaceId, { name: `c${++counter}`, connector_type: connectorType, spec });
  const expectRefused = async (response: Response, endpoint: InfrastructureEndpoint, what: string) => {
    const body = await bodyOf(response);
    expect({ what, status: response.status, code: body.detail?.error?.code }).toEqual({ what, status: 400, code: 'SOURCE_NOT_ALLOWED' });
    expect(body.detail.error.message).toContain(endpoint.what);
  };
  /** A test answers how it went: not at all, for an address the connection may not reach. */
  const expectTestRefused = async (id: string, endpoint: InfrastructureEndpoint, what: string) => {
    const response = await t.request(`${connectionsPath(workspaceId)}/${id}/test`, { method: 'POST', token: user.accessToken });
    const body = await bodyOf(response);
    expect({ what, status: response.status, success: body.success }).toEqual({ what, status: 200, success: false });
    expect(body.message).toContain(endpoint.what);
  };

  test('the service knows each listener of its deployment', () => {
    expect(endpoints.map((endpoint) => endpoint.what)).toEqual(expectedEndpoints);
    const temporalUi = endpoints.find((endpoint) => endpoint.what.includes('Web UI'))!;
    expect(`http://${temporalUi.host}:${temporalUi.port}`).toBe(testEnv.temporalUiUrl());
  });

  test('named directly, by every spelling of its address, in every connector type', async () => {
    const cases = endpoints.flatMap((endpoint) => spellings(endpoint).map((host) => ({ endpoint, host })));
    await inParallel(cases, 4, async ({ endpoint, host }) => {
      const url = `http://${host}:${endpoint.port}`;
      const bare = host.replace(/^\[|\]$/g, '');
      await expectRefused(
        await create('postgres', { host: bare, port: endpoint.port, database: 'postgres', username: 'oxbow', ssl_mode: 'disable' }),
        endpoint,
        `postgres ${host}`,
      );
      await expectRefused(
        await create('http_json', {
          base_url: `${url}/`,
          streams: [{ name: 'workflows', path: 'api/v1/namespaces/default/workflows', records_path: 'executions' }],
        }),
        endpoint,
        `http_json ${url}`,
      );
      await expectRefused(
        await create('http_json', {
          base_url: 'https://93.184.215.14/',
          streams: [
            { name: 'ok', path: 'items' },
            { name: 'schedules', path: `${url}/api/v1/namespaces/default/schedules` },
          ],
        }),
        endpoint,
        `a stream's path ${url}`,
      );
      await expectRefused(
        await create('s3_files', { bucket: 'data', endpoint: url, streams: [{ name: 'files', glob: '*.csv', format: 'csv' }] }),
        endpoint,
        `s3_files ${url}`,
      );
    });
  }, 120_000);

  test('behind a redirect, a next-page link or an S3 endpoint that redirects, from a source of the tenant', async () => {
    if (!privateAllowed) {
      // The tenant's source is on a private network, which this deployment refuses as such.
      const response = await create('http_json', { base_url: source.origin, streams: [{ name: 'x' }] });
      expect((await bodyOf(response)).detail.error.message).toContain('private or loopback');
      return;
    }
    for (const endpoint of endpoints) {
      const target = `http://127.0.0.1:${endpoint.port}/api/v1/namespaces/default/workflows`;
      const redirected = await create('http_json', { base_url: source.redirectTo(target), streams: [{ name: 'workflows', records_path: 'executions' }] });
      expect(redirected.status).toBe(201);
      const { id } = await bodyOf(redirected);
      await expectTestRefused(id, endpoint, 'a redirect (test)');
      await expectRefused(await t.request(`${connectionsPath(workspaceId)}/${id}/streams`, { token: user.accessToken }), endpoint, 'a redirect (streams)');
      await expectRefused(
        await t.request(`${connectionsPath(workspaceId)}/${id}/preview`, { method: 'POST', json: { stream: 'workflows' }, token: user.accessToken }),
        endpoint,
        'a redirect (preview)',
      );

      const linked = await create('http_json', {
        base_url: source.origin,
        pagination: { style: 'link_header' },
        streams: [{ name: 'pages', path: source.linkTo(target).slice(source.origin.length + 1) }],
      });
      expect(linked.status).toBe(201);
      await expectRefused(
        await t.request(`${connectionsPath(workspaceId)}/${(await bodyOf(linked)).id}/preview`, {
          method: 'POST',
          json: { stream: 'pages' },
          token: user.accessToken,
        }),
        endpoint,
        'a next-page link',
      );

      s3Source.redirectAllTo = `http://127.0.0.1:${endpoint.port}`;
      const s3 = await create('s3_files', {
        bucket: 'data',
        endpoint: s3Source.origin,
        access_key_id: 'k',
        secret_access_key: 's',
        streams: [{ name: 'files', glob: '*.csv', format: 'csv' }],
      });
      expect(s3.status).toBe(201);
      const s3Id = (await bodyOf(s3)).id;
      await expectTestRefused(s3Id, endpoint, 'an S3 endpoint that redirects');
      await expectRefused(
        await t.request(`${connectionsPath(workspaceId)}/${s3Id}/streams`, { token: user.accessToken }),
        endpoint,
        'an S3 endpoint that redirects (streams)',
      );
    }
    expect(s3Source.seen.length).toBeGreaterThan(0);
    expect(s3Console.hits).toBe(0);
  }, 180_000);

  test('a sync through such a redirect fails and writes nothing', async () => {
    if (!privateAllowed) return;
    const ui = endpoints.find((endpoint) => endpoint.what.includes('Web UI'))!;
    const created = await create('http_json', {
      base_url: source.redirectTo(`http://127.0.0.1:${ui.port}/api/v1/namespaces/default/workflows`),
      streams: [{ name: 'workflows', records_path: 'executions' }],
    });
    const { id, name } = await bodyOf(created);
    const job = await waitForSync(t, user, workspaceId, id, await triggerSyncOk(t, user, workspaceId, id));
    expect(job.status).toBe('failed');
    expect(JSON.stringify(job)).toContain('Temporal Web UI');
    const read = await t.request(`/api/v1/workspaces/${workspaceId}/query`, {
      method: 'POST',
      json: { sql: `SELECT * FROM ${name}.workflows` },
      token: user.accessToken,
    });
    expect((await bodyOf(read)).detail.error.code).toBe('UNDEFINED_TABLE');
  }, 120_000);
});

/**
 * The CRM connectors reach the API their token names (Salesforce: the token's instance_url; HubSpot:
 * the configured base): the same policy holds it, whatever the provider says.
 */
describe('the service’s own infrastructure, for the CRM connectors', () => {
  let t: TestApp;
  let user: TestUser;
  let workspaceId: string;
  let salesforce: FakeSalesforce;
  let hubspot: FakeHubSpot;
  let s3Console: StandIn;

  beforeAll(async () => {
    salesforce = new FakeSalesforce();
    salesforce.seed('Account', 1);
    hubspot = new FakeHubSpot();
    s3Console = new StandIn();
    t = await startTestApp('postgres-s3', {
      worker: true,
      env: {
        ...salesforce.env(),
        ...hubspot.env(),
        OAUTH_HUBSPOT_API_BASE: testEnv.temporalUiUrl(),
        NODE_ENV: 'development',
        METRICS_PORT: String(await freePort()),
        STRIPE_API_BASE: testEnv.stripeApiBase(),
        CONNECTOR_RESERVED_ENDPOINTS: `127.0.0.1:${s3Console.port}`,
        FRONTEND_URL: 'https://s3Console.example.test',
      },
    });
    ({ user, workspaceId } = await withWorkspace(t, { label: 'crm-infra', plan: 'enterprise' }));
  });
  afterAll(async () => {
    await t.stop();
    salesforce.stop();
    hubspot.stop();
    s3Console.stop();
  });

  /** Authorize, consent, callback: the connection is bound, and its first test fails on the address its token names. */
  const connectRefused = async (provider: string, name: string, what: string) => {
    const landing = await callback(t, await consent((await authorizeOk(t, user, provider, workspaceId, name)).authorization_url));
    expect({ name, error: landing.searchParams.get('error') }).toEqual({ name, error: 'connection_test_failed' });
    const id = landing.searchParams.get('connection_id')!;
    const tested = await bodyOf(await t.request(`${connectionsPath(workspaceId)}/${id}/test`, { method: 'POST', token: user.accessToken }));
    expect(tested).toMatchObject({ success: false, message: expect.stringContaining(what) });
    const streams = await t.request(`${connectionsPath(workspaceId)}/${id}/streams`, { token: user.accessToken });
    expect(streams.status).toBe(400);
    expect((await bodyOf(streams)).detail.error).toMatchObject({ code: 'SOURCE_NOT_ALLOWED', message: expect.stringContaining(what) });
  };

  test('Salesforce, with a token whose instance_url is each of them', async () => {
    let counter = 0;
    for (const endpoint of infrastructureEndpoints(t.backend.config).endpoints) {
      salesforce.instanceUrl = `http://${endpoint.host.includes(':') ? `[${endpoint.host}]` : endpoint.host}:${endpoint.port}`;
      await connectRefused('salesforce', `sfdc${++counter}`, endpoint.what);
    }
    expect(s3Console.hits).toBe(0);
  }, 120_000);

  test('HubSpot, whose API base is the Temporal Web UI', async () => {
    await connectRefused('hubspot', 'hub', 'Temporal Web UI');
  });
});
