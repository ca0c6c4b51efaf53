import { createApp, type App } from '../../src/api/app';
import type { EnvSource } from '../../src/config';
import { createLogger, type Logger } from '../../src/logging/logger';
import { openInfrastructure, type Infrastructure } from '../../src/runtime/infrastructure';
import { buildServices, type ServiceExtensions, type Services } from '../../src/runtime/services';
import { startWorker } from '../../src/temporal/worker';
import { workersOf } from '../../src/runtime/modes';
import type { Clock } from '../../src/util/clock';
import { createTestBackend, type Backend, type TestBackend } from './backends';
import { TestClock } from './test-clock';
import { conformanceTo, type ResponseConformance } from './openapi-conformance';

export interface TestApp {
  backend: TestBackend;
  infra: Infrastructure;
  services: Services;
  app: App;
  clock: TestClock;
  logLines: string[];
  /**
   * Sends a request through the app (no network), the way a client would. Every answer is held to the
   * OpenAPI document: an undeclared status, media type, header or body shape fails the calling test.
   */
  request(path: string, init?: RequestInit & { json?: unknown; token?: string }): Promise<Response>;
  /** Stops the app and its worker as a crash or deploy would, then starts them again on the same data. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export interface TestAppOptions {
  /** Configuration entries over the test defaults (backends.ts). */
  env?: EnvSource;
  /** A Temporal worker in process on the test's own task queues. */
  worker?: boolean;
  clock?: Clock;
  extensions?: ServiceExtensions;
}

/**
 * The whole service in process against one backend: real store, lake, Temporal (and, when asked, a
 * worker on the test's own task queue). Logs are captured so tests can check what reaches them.
 */
export async function startTestApp(backend: Backend, options: TestAppOptions = {}): Promise<TestApp> {
  const testBackend = await createTestBackend(backend, options.env);
  const logLines: string[] = [];
  const logger: Logger = createLogger({ level: 'debug', sink: (line) => logLines.push(line) });
  const clock = options.clock instanceof TestClock ? options.clock : new TestClock();

  const boot = async () => {
    const infra = await openInfrastructure(testBackend.config, logger, { superviseTemporal: false });
    const services = buildServices(testBackend.config, infra, logger, clock, options.extensions);
    const worker = options.worker
      ? await startWorker({
          address: infra.temporalAddress,
          namespace: testBackend.config.temporal.namespace,
          workers: workersOf(services),
          client: infra.temporal,
          workflowBundle: testBackend.config.temporal.workflowBundle,
        })
      : undefined;
    return { infra, services, app: createApp(services), worker };
  };
  let running = await boot();
  let conformance: Promise<ResponseConformance> | undefined;
  const documented = () =>
    (conformance ??= running.app.handle(new Request('http://localhost/openapi.json')).then(async (response) => conformanceTo(await response.text())));
  const halt = async () => {
    await running.worker?.shutdown();
    await running.services.close();
    await running.infra.close();
  };

  return {
    backend: testBackend,
    get infra() {
      return running.infra;
    },
    get services() {
      return running.services;
    },
    get app() {
      return running.app;
    },
    clock,
    logLines,
    async request(path, init = {}) {
      const { json, token, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (json !== undefined) headers.set('content-type', 'application/json');
      if (token) headers.set('authorization', `Bearer ${token}`);
      const request = new Request(`http://localhost${path}`, { ...rest, headers, body: json === undefined ? rest.body : JSON.stringify(json) });
      const response = await running.app.handle(request);
      await (await documented()).check(request.method, request.url, response);
      return response;
    },
    async restart() {
      await halt();
      running = await boot();
    },
    async stop() {
      await halt();
      await testBackend.cleanup();
    },
  };
}
