import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startHttpServer, type HttpServer } from '../../../src/api/server';
import { freePort } from '../../../src/process/ports';
import type { TestUser } from '../../support/accounts';
import { connectionsPath, createConnectionOk, createSourceDatabase, postgresSpec, type SourceDatabase } from '../../support/connections';
import { attackConfigurations, privateNetworksAllowed, TenantSource } from '../../support/egress-servers';
import type { TestApp } from '../../support/test-app';
import { withWorkspace } from '../../support/fixtures';

/**
 * Test, streams and preview ask the source while the client waits. Over a real listener (whose idle
 * timeout of 10 s once dropped such a request with an empty reply), a source slower than that
 * answers, and one that never answers gets an answer saying so within the connectors' 30 s (where the
 * test's sources, on this machine, are allowed: in production only when private networks are).
 */
describe.each(attackConfigurations.filter(([, env]) => privateNetworksAllowed(env)))('slow sources in %s', (_, env) => {
  let t: TestApp;
  let server: HttpServer;
  let user: TestUser, workspaceId: string;
  let source: TenantSource;
  let database: SourceDatabase;

  beforeAll(async () => {
    source = new TenantSource();
    database = await createSourceDatabase();
    await database.sql`CREATE TABLE busy (id integer PRIMARY KEY, note text)`;
    await database.sql`INSERT INTO busy VALUES (1, 'one')`;
    ({ t, user, workspaceId } = await withWorkspace('local', { env: { ...env, METRICS_PORT: String(await freePort()) }, label: 'slow', plan: 'business' }));
    server = startHttpServer(t.app, { host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await server.stop();
    await t.stop();
    source.stop();
    await database.drop();
  });

  const call = async (method: string, path: string, body?: unknown) => {
    const startedAt = performance.now();
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${user.accessToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as any, seconds: (performance.now() - startedAt) / 1000 };
  };
  const probes = (id: string, stream: string) => {
    const base = `${connectionsPath(workspaceId)}/${id}`;
    return Promise.all([call('POST', `${base}/test`), call('GET', `${base}/streams`), call('POST', `${base}/preview`, { stream, limit: 5 })]);
  };

  test('a source taking 12 s answers all three; one that never answers, or a table locked at the source, is stopped at 30 s with a clear answer', async () => {
    const http = (name: string, path: string) =>
      createConnectionOk(t, user, workspaceId, { name, connector_type: 'http_json', spec: { base_url: source.origin, streams: [{ name: 'items', path }] } });
    const slow = await http('slow', 'slow?ms=12000');
    const hanging = await http('hanging', 'hang');
    const locked = await createConnectionOk(t, user, workspaceId, { name: 'locked', connector_type: 'postgres', spec: postgresSpec(database) });

    // The table stays locked while the probes run: a read of it waits at the source.
    const lock = database.sql.reserve();
    const holder = await lock;
    await holder`BEGIN`;
    await holder`LOCK TABLE busy IN ACCESS EXCLUSIVE MODE`;
    const [slowAnswers, hangingAnswers, lockedPreview] = await Promise.all([
      probes(slow.id, 'items'),
      probes(hanging.id, 'items'),
      call('POST', `${connectionsPath(workspaceId)}/${locked.id}/preview`, { stream: 'busy', limit: 5 }),
    ]);
    await holder`ROLLBACK`;
    holder.release();

    const [slowTest, slowStreams, slowPreview] = slowAnswers;
    expect(slowTest).toMatchObject({ status: 200, body: { success: true, message: 'Connected' } });
    expect(slowStreams).toMatchObject({ status: 200, body: [{ name: 'items' }] });
    expect(slowPreview).toMatchObject({ status: 200, body: { rows: [[1, true]] } });
    for (const answer of slowAnswers) expect(answer.seconds).toBeGreaterThan(11);

    const [hangTest, hangStreams, hangPreview] = hangingAnswers;
    expect(hangTest).toMatchObject({ status: 200, body: { success: false, message: expect.stringContaining('within 30 s') } });
    expect(hangStreams).toMatchObject({ status: 400, body: { detail: { error: { code: 'SOURCE_ERROR', message: expect.stringContaining('within 30 s') } } } });
    expect(hangPreview).toMatchObject({ status: 400, body: { detail: { error: { code: 'SOURCE_ERROR', message: expect.stringContaining('within 30 s') } } } });
    expect(lockedPreview).toMatchObject({
      status: 400,
      body: { detail: { error: { code: 'SOURCE_ERROR', message: expect.stringContaining('within 30 s') } } },
    });
    for (const answer of [...hangingAnswers, lockedPreview]) {
      expect(answer.seconds).toBeGreaterThan(29);
      expect(answer.seconds).toBeLessThan(40);
    }
  }, 90_000);
});
