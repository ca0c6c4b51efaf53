import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startTestApp, type TestApp } from '../../support/test-app';
import { type TestUser } from '../../support/accounts';
import { bodyOf } from '../../support/http';
import { testEnv } from '../../support/test-env';
import { connectionsPath, createConnection, createConnectionOk, createSourceDatabase, postgresSpec, type SourceDatabase } from '../../support/connections';
import { withWorkspace } from '../../support/fixtures';
import { useBusinessPlan } from '../../support/workspaces';

describe('testing a postgres source says what failed', () => {
  let t: TestApp, user: TestUser, workspaceId: string;
  let source: SourceDatabase;

  beforeAll(async () => {
    source = await createSourceDatabase();
    ({ t, user, workspaceId } = await withWorkspace('local', { label: 'pg-test', plan: 'business' }));
  });
  afterAll(async () => {
    await t.stop();
    await source.drop();
  });

  const testOf = async (name: string, spec: Record<string, unknown>) => {
    const connection = await createConnectionOk(t, user, workspaceId, { name, connector_type: 'postgres', spec });
    const response = await t.request(`${connectionsPath(workspaceId)}/${connection.id}/test`, { method: 'POST', token: user.accessToken });
    expect(response.status).toBe(200);
    return bodyOf(response);
  };

  test('a working source', async () => {
    expect(await testOf('works', postgresSpec(source))).toEqual({ success: true, message: 'Connected', latency_ms: expect.any(Number) });
  });

  test('host unreachable, authentication failed, no such database, TLS', async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['refused', postgresSpec(source, { port: 1 }), 'Host unreachable'],
      ['unresolvable', postgresSpec(source, { host: 'no-such-host.invalid' }), 'Host unreachable'],
      ['stranger', postgresSpec(source, { username: 'nobody_here' }), 'Authentication failed'],
      ['nodb', postgresSpec(source, { database: 'no_such_database' }), 'No such database'],
      ['tls', postgresSpec(source, { ssl_mode: 'require' }), 'TLS connection failed'],
    ];
    for (const [name, spec, message] of cases) {
      const result = await testOf(name, spec);
      expect({ name, success: result.success, message: result.message.split(':')[0] }).toEqual({ name, success: false, message });
      expect(result.message).not.toContain('not-checked-here');
    }
  });
});

describe('sources the service never reaches', () => {
  let t: TestApp, user: TestUser, workspaceId: string;

  beforeAll(async () => ({ t, user, workspaceId } = await withWorkspace('postgres-s3', { label: 'pg-reserved', plan: 'business' })));
  afterAll(() => t.stop());

  const refused = async (name: string, connectorType: string, spec: Record<string, unknown>, why: string) => {
    const response = await createConnection(t, user, workspaceId, { name, connector_type: connectorType, spec });
    expect({ name, status: response.status }).toEqual({ name, status: 400 });
    expect((await bodyOf(response)).detail.error).toMatchObject({ code: 'SOURCE_NOT_ALLOWED', message: expect.stringContaining(why) });
  };

  test('the metadata database, under its own name or another for the same machine', async () => {
    const metadata = new URL(t.backend.config.metadata.kind === 'postgres' ? t.backend.config.metadata.url : '');
    const spec = { host: metadata.hostname, port: Number(metadata.port), database: metadata.pathname.slice(1), username: 'oxbow', ssl_mode: 'disable' };
    await refused('metadata', 'postgres', spec, 'metadata database');
    await refused('metadata_localhost', 'postgres', { ...spec, host: 'localhost' }, 'metadata database');
    await refused('metadata_loopback', 'postgres', { ...spec, host: '127.0.0.2' }, 'metadata database');
    // Every database of that server: the service's own credentials live there, and its catalogs.
    await refused('same_server', 'postgres', { ...spec, database: 'postgres' }, 'metadata database');
  });

  test('Temporal, whatever the type', async () => {
    const [host, port] = testEnv.temporalAddress().split(':') as [string, string];
    await refused('temporal_http', 'http_json', { base_url: `http://${host}:${port}/`, streams: [{ name: 'x' }] }, 'Temporal');
    await refused('temporal_pg', 'postgres', { host, port: Number(port), database: 'x', username: 'x' }, 'Temporal');
  });

  test('a PATCH cannot point a connection there either', async () => {
    const connection = await createConnectionOk(t, user, workspaceId, {
      name: 'moving',
      connector_type: 'http_json',
      spec: { base_url: 'https://api.example.com/', streams: [{ name: 'x' }] },
    });
    const [host, port] = testEnv.temporalAddress().split(':') as [string, string];
    const response = await t.request(`${connectionsPath(workspaceId)}/${connection.id}`, {
      method: 'PATCH',
      json: { spec: { base_url: `http://${host}:${port}/` } },
      token: user.accessToken,
    });
    expect(response.status).toBe(400);
    expect((await bodyOf(response)).detail.error.code).toBe('SOURCE_NOT_ALLOWED');
  });
});

describe('private networks refused (CONNECTOR_PRIVATE_NETWORKS=deny)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('local', { env: { CONNECTOR_PRIVATE_NETWORKS: 'deny' } });
  });
  afterAll(() => t.stop());

  test('loopback, private and link-local addresses, by name or number', async () => {
    const { user, workspaceId } = await withWorkspace(t, { label: 'private' });
    await useBusinessPlan(t, workspaceId);
    for (const [name, host] of [
      ['loop', '127.0.0.1'],
      ['named', 'localhost'],
      ['ten', '10.1.2.3'],
      ['link', '169.254.169.254'],
      ['six', '[::1]'],
      ['mapped', '[::ffff:127.0.0.1]'],
    ] as const) {
      const response = await createConnection(t, user, workspaceId, {
        name,
        connector_type: 'http_json',
        spec: { base_url: `http://${host}:8080/`, streams: [{ name: 'x' }] },
      });
      expect({ name, status: response.status }).toEqual({ name, status: 400 });
      expect((await bodyOf(response)).detail.error.code).toBe('SOURCE_NOT_ALLOWED');
    }
  });
});
