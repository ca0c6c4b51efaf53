import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { bodyOf } from '../support/http';
import { createTestBackend, type TestBackend } from '../support/backends';
import { startServiceProcess } from '../support/service-process';
import { freePort, isPortOpen } from '../../src/process/ports';
import { testEnv } from '../support/test-env';

describe('the service process', () => {
  let env: TestBackend;
  let baseEnv: Record<string, string>;

  beforeAll(async () => {
    env = await createTestBackend('local');
    baseEnv = {
      DATA_DIR: env.config.dataDir,
      OXBOW_TOOLS_DIR: process.env.OXBOW_TOOLS_DIR!,
      JWT_SECRET: env.config.secrets.jwtSecret,
      ENCRYPTION_KEY: env.config.secrets.encryptionKey.toString('hex'),
    };
  });
  afterAll(() => env.cleanup());

  test('serve supervises its own Temporal dev server: health, OpenAPI, Temporal UI and metrics answer; a stop leaves nothing behind', async () => {
    const [temporalPort, uiPort, metricsPort] = [await freePort(), await freePort(), await freePort()];
    const metricsToken = 'metrics-token-of-the-process-0123';
    const service = await startServiceProcess('serve', {
      ...baseEnv,
      TEMPORAL_PORT: String(temporalPort),
      TEMPORAL_UI_PORT: String(uiPort),
      METRICS_TOKEN: metricsToken,
      METRICS_PORT: String(metricsPort),
    });
    try {
      const health = await fetch(`${service.baseUrl}/health`);
      expect(health.status).toBe(200);
      expect((await bodyOf(health)).checks).toMatchObject({ metadata: { status: 'ok' }, lake: { status: 'ok' }, temporal: { status: 'ok' } });
      expect((await bodyOf(await fetch(`${service.baseUrl}/openapi.json`))).info.version).toBe('1.0.0');
      expect((await fetch(`http://127.0.0.1:${uiPort}/`)).status).toBe(200);
      expect(service.output()).toContain(`"temporal_ui":"http://127.0.0.1:${uiPort}"`);
      // Metrics live on their own listener only, with the worker's own (the Temporal SDK's) among them.
      expect((await fetch(`${service.baseUrl}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })).status).toBe(404);
      const scraped = await fetch(`http://127.0.0.1:${metricsPort}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } });
      expect(scraped.status).toBe(200);
      const text = await scraped.text();
      expect(text).toContain('oxbow_engine_instances');
      expect(text).toMatch(/^temporal_\w+/m);
    } finally {
      expect(await service.stop()).toBe(0);
    }
    expect(await isPortOpen(temporalPort)).toBe(false);
    expect(await isPortOpen(uiPort)).toBe(false);
  }, 90_000);

  test('with TEMPORAL_ADDRESS set nothing is spawned, and an unreachable Temporal shows as 503 on /health', async () => {
    const deadPort = await freePort();
    const service = await startServiceProcess('api', { ...baseEnv, TEMPORAL_ADDRESS: `127.0.0.1:${deadPort}` });
    try {
      const health = await fetch(`${service.baseUrl}/health`);
      expect(health.status).toBe(503);
      expect((await bodyOf(health)).checks.temporal.status).toBe('down');
      expect(service.output()).not.toContain('starting the local Temporal dev server');
    } finally {
      expect(await service.stop()).toBe(0);
    }
  }, 60_000);

  test('the worker mode needs TEMPORAL_ADDRESS', async () => {
    const service = await startServiceProcess('worker', baseEnv, { waitForHealth: false });
    expect(await service.child.exited).toBe(1);
    expect(service.output()).toContain('TEMPORAL_ADDRESS is required');
  });

  test('a bad setting stops the process with a message naming the variable', async () => {
    const service = await startServiceProcess('serve', { ...baseEnv, QUERY_TIMEOUT_MS: 'fast' }, { waitForHealth: false });
    expect(await service.child.exited).toBe(78);
    expect(service.output()).toContain('QUERY_TIMEOUT_MS must be an integer');
  });

  test('mail-outbox prints the messages waiting in the outbox when there is no SMTP server', async () => {
    const api = await startServiceProcess('api', { ...baseEnv, TEMPORAL_ADDRESS: testEnv.temporalAddress() });
    const email = `outbox-${Date.now()}@example.test`;
    const signup = await fetch(`${api.baseUrl}/api/v1/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'long enough password' }),
    });
    expect(signup.status).toBe(201);
    expect(await api.stop()).toBe(0);
    expect(api.output()).toContain('mail kept in the outbox (SMTP_URL is not set)');
    expect(api.output()).not.toContain('verify-email?token=');

    const outbox = await startServiceProcess('mail-outbox', baseEnv, { waitForHealth: false });
    expect(await outbox.child.exited).toBe(0);
    expect(outbox.output()).toContain(`to ${email}`);
    expect(outbox.output()).toContain('/verify-email?token=');
  }, 60_000);

  test('migrate applies the migrations and exits', async () => {
    const service = await startServiceProcess('migrate', baseEnv, { waitForHealth: false });
    expect(await service.child.exited).toBe(0);
    expect(service.output()).toContain('migrations up to date');
  });
});
