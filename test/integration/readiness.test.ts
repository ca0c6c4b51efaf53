import { afterAll, describe, expect, test } from 'bun:test';
import { startTestApp, type TestApp } from '../support/test-app';
import { createTestBackend } from '../support/backends';
import { startServiceProcess } from '../support/service-process';
import { bodyOf } from '../support/http';
import { freePort } from '../../src/process/ports';
import { testEnv } from '../support/test-env';
import { withWorkspace } from '../support/fixtures';

/** `/livez` and `/readyz`: what an orchestrator reads to restart a process or to send it requests. */
describe('liveness and readiness', () => {
  const apps: TestApp[] = [];
  afterAll(() => Promise.all(apps.map((app) => app.stop())));
  const start = async (...args: Parameters<typeof startTestApp>) => {
    const app = await startTestApp(...args);
    apps.push(app);
    return app;
  };

  test('with every dependency up: live, ready, each dependency listed', async () => {
    const t = await start('local');
    expect(await bodyOf(await t.request('/livez'))).toEqual({ status: 'ok' });
    const ready = await t.request('/readyz');
    expect(ready.status).toBe(200);
    const report = await bodyOf(ready);
    expect(report).toMatchObject({ status: 'ready', ready: true, degraded: [] });
    expect(report.checks).toMatchObject({
      metadata: { status: 'ok', required: true },
      lake: { status: 'ok', required: true },
      temporal: { status: 'ok', required: false },
    });
  });

  test('Temporal down: still ready (queries answer), durable work listed as degraded; /health says 503', async () => {
    const t = await start('local', { env: { TEMPORAL_ADDRESS: `127.0.0.1:${await freePort()}` } });
    // Within a load balancer's probe timeout, though Temporal never answers.
    const startedAt = performance.now();
    await t.app.handle(new Request('http://localhost/readyz'));
    expect(performance.now() - startedAt).toBeLessThan(1_500);
    const ready = await t.request('/readyz');
    expect(ready.status).toBe(200);
    const report = await bodyOf(ready);
    expect(report).toMatchObject({ status: 'degraded', ready: true, checks: { temporal: { status: 'down', required: false } } });
    expect(report.degraded).toEqual(expect.arrayContaining(['query_jobs', 'syncs', 'transform_runs']));
    expect((await t.request('/health')).status).toBe(503);

    const { user, workspaceId } = await withWorkspace(t, { label: 'degraded' });
    const answer = await t.request('/api/v1/query', {
      method: 'POST',
      json: { sql: 'SELECT 42 AS answer', workspace_id: workspaceId },
      token: user.accessToken,
    });
    expect(answer.status).toBe(200);
    expect((await bodyOf(answer)).rows).toEqual([[42]]);
  }, 60_000);

  test('the lake unreachable: not ready, naming it', async () => {
    const t = await start('postgres-s3', { env: { AWS_ENDPOINT_URL_S3: `http://127.0.0.1:${await freePort()}` } });
    const ready = await t.request('/readyz');
    expect(ready.status).toBe(503);
    expect(await bodyOf(ready)).toMatchObject({
      status: 'not_ready',
      ready: false,
      checks: { lake: { status: 'down', required: true }, metadata: { status: 'ok' } },
    });
    expect((await t.request('/livez')).status).toBe(200);
  }, 60_000);

  test('once a shutdown begins: not ready at once, and never again', async () => {
    const t = await start('local');
    expect((await t.request('/readyz')).status).toBe(200);
    t.services.readiness.drain();
    const draining = await t.request('/readyz');
    expect(draining.status).toBe(503);
    expect(await bodyOf(draining)).toMatchObject({ status: 'draining', ready: false });
    expect((await t.request('/livez')).status).toBe(200);
  });
});

describe('SIGTERM', () => {
  test('readiness goes at once, the request in flight finishes, then the listener closes and the process exits 0', async () => {
    const backend = await createTestBackend('local');
    const service = await startServiceProcess('api', {
      DATA_DIR: backend.config.dataDir,
      OXBOW_TOOLS_DIR: testEnv.toolsDir(),
      TEMPORAL_ADDRESS: testEnv.temporalAddress(),
      JWT_SECRET: backend.config.secrets.jwtSecret,
      ENCRYPTION_KEY: backend.config.secrets.encryptionKey.toString('hex'),
      SHUTDOWN_DRAIN: '1500ms',
      SHUTDOWN_GRACE: '20s',
    });
    try {
      expect((await fetch(`${service.baseUrl}/readyz`)).status).toBe(200);
      // A request still being sent when the signal comes: its body trickles in over two seconds.
      const encoder = new TextEncoder();
      const body = new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(encoder.encode('{"email": "in-flight@example.test", '));
          await Bun.sleep(2_000);
          controller.enqueue(encoder.encode('"password": "not the right one"}'));
          controller.close();
        },
      });
      const inFlight = fetch(`${service.baseUrl}/api/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      await Bun.sleep(300);
      const signalledAt = performance.now();
      service.child.kill('SIGTERM');
      await Bun.sleep(100);

      const draining = await fetch(`${service.baseUrl}/readyz`);
      expect(draining.status).toBe(503);
      expect((await bodyOf(draining)).status).toBe('draining');
      // Still serving during the drain: a load balancer's last requests are answered.
      expect((await fetch(`${service.baseUrl}/livez`)).status).toBe(200);

      const answered = await inFlight;
      expect(answered.status).toBe(401);
      expect((await bodyOf(answered)).detail.error.code).toBe('INVALID_CREDENTIALS');

      expect(await service.child.exited).toBe(0);
      expect(performance.now() - signalledAt).toBeLessThan(15_000);
      const refused = await fetch(`${service.baseUrl}/livez`).then(
        () => false,
        () => true,
      );
      expect(refused).toBe(true);
      expect(service.output()).toContain('"shutting down"');
      expect(service.output()).toContain('"stopped"');
    } finally {
      if (service.child.exitCode === null) await service.stop();
      await backend.cleanup();
    }
  }, 90_000);
});
