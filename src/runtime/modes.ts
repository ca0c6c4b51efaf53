import type { Config } from '../config';
import type { Logger } from '../logging/logger';
import { Elysia } from 'elysia';
import { createApp } from '../api/app';
import { metricsRoutes } from '../api/metrics';
import { httpBasics } from '../api/plugins/http-basics';
import { freePort } from '../process/ports';
import { startHttpServer } from '../api/server';
import { startWorker, type RunningWorker } from '../temporal/worker';
import { installTemporalRuntimeLogging } from '../temporal/runtime-logging';
import { ensureSchedules } from '../temporal/schedules';
import { ensureSearchAttributes } from '../temporal/search-attribute-registration';
import { openStore } from '../store/open-store';
import { migrate } from '../store/migrations';
import { openInfrastructure, type Infrastructure } from './infrastructure';
import { onShutdownSignal } from './shutdown';
import { printOutbox } from './print-outbox';
import { buildServices, type Services } from './services';
import { shardAssignment } from '../cluster/shard-assignment';

export type Mode = 'serve' | 'api' | 'worker' | 'migrate' | 'mail-outbox';

export async function runMode(mode: Mode, config: Config, logger: Logger): Promise<void> {
  if (mode === 'migrate') return runMigrate(config, logger);
  if (mode === 'mail-outbox') return printOutbox(config);
  const workerMetricsPort = mode === 'api' ? undefined : await freePort();
  installTemporalRuntimeLogging(logger, config.logLevel, workerMetricsPort === undefined ? undefined : `127.0.0.1:${workerMetricsPort}`);
  // `api` and `worker` processes are replicas among others sharing Postgres; `serve` is alone.
  const role = mode === 'api' ? 'api' : mode === 'worker' ? 'worker' : undefined;
  const infra = await openInfrastructure(config, logger, { superviseTemporal: mode === 'serve', role });
  const services = buildServices(config, infra, logger);
  const worker = mode === 'api' ? undefined : await startActivityWorker(services, infra);
  const workerMetrics = workerMetricsPort
    ? () => fetch(`http://127.0.0.1:${workerMetricsPort}/metrics`, { signal: AbortSignal.timeout(2_000) }).then((response) => response.text())
    : undefined;
  const http =
    mode === 'worker' ? undefined : startHttpServer(createApp(services, { workerMetrics }), { ...config.http, answerWithinMs: config.query.timeoutMs });
  const metricsListener = config.metrics.port === undefined ? undefined : startMetricsListener(services, workerMetrics);
  // Joins once it serves: the others forward requests here from then on.
  await infra.membership?.join(http ? internalAddress(config.cluster.internalUrl, http.url) : null);

  announce(mode, logger, infra, http?.url);
  const { drainMs, graceMs } = config.shutdown;
  let workerStopped: Promise<void> | undefined;
  const stopped = onShutdownSignal(logger, [
    {
      // At once: /readyz answers 503 and the worker stops polling (its running activities go on, heartbeating).
      name: 'readiness',
      run: async () => {
        services.readiness.drain();
        workerStopped = worker?.shutdown().catch((error: unknown) => logger.error('the worker did not stop cleanly', { error }));
      },
    },
    // The others stop forwarding here, and take over its workspaces, while the requests under way finish.
    { name: 'cluster', run: async () => infra.membership?.leave() },
    // Still serving while a load balancer notices the 503 and stops sending requests here.
    { name: 'drain', run: async () => (http && drainMs > 0 ? Bun.sleep(drainMs) : undefined) },
    {
      name: 'http',
      run: async () => {
        if (await http?.stop(graceMs)) logger.warn('requests still in flight after the grace period were cut', { grace_ms: graceMs });
      },
    },
    { name: 'worker', run: async () => workerStopped },
    { name: 'metrics', run: async () => metricsListener?.stop() },
    { name: 'engines', run: () => services.close() },
    { name: 'connections', run: () => infra.close() },
  ]);
  // A worker that dies on its own (lost connection beyond retries) takes the process down with it, so
  // an orchestrator restarts it rather than leaving an API that cannot run durable work.
  worker?.done.catch(async (error) => {
    logger.error('worker stopped unexpectedly', { error });
    process.kill(process.pid, 'SIGTERM');
  });
  await stopped;
}

/** Where the other replicas reach this one: INTERNAL_URL or HOST:PORT, with the port the listener got when PORT was 0. */
function internalAddress(configured: URL, listening: string): string {
  const url = new URL(configured.href);
  if (url.port === '0') url.port = new URL(listening).port;
  return url.origin;
}

/** /metrics on a listener of its own (METRICS_HOST:METRICS_PORT), off the public one. */
function startMetricsListener(services: Services, workerMetrics: (() => Promise<string>) | undefined) {
  const { metrics } = services.config;
  const app = new Elysia().use(httpBasics(services.logger)).use(metricsRoutes(services.metrics, workerMetrics, { token: metrics.token }));
  const server = Bun.serve({ hostname: metrics.host, port: metrics.port, fetch: (request) => app.handle(request) });
  services.logger.info('metrics listening', { url: server.url.href });
  return { stop: () => server.stop(false) };
}

async function startActivityWorker(services: Services, infra: Infrastructure): Promise<RunningWorker> {
  const { config, logger } = services;
  await ensureSearchAttributes(infra.temporal, config.temporal.namespace, logger);
  await ensureSchedules(infra.temporal, services.schedules, logger);
  await services.queryJobWorker.checkCapacity?.();
  // Among several workers, each serves its shards of the workspaces' queues besides the queues themselves.
  const shards = infra.membership && infra.temporal.shards > 1 ? shardAssignment(infra.membership, infra.temporal.shards) : undefined;
  return startWorker({
    address: infra.temporalAddress,
    namespace: config.temporal.namespace,
    workers: workersOf(services),
    client: infra.temporal,
    shards,
    shutdownGraceMs: config.shutdown.graceMs,
    workflowBundle: config.temporal.workflowBundle,
  });
}

/**
 * The main task queue (workflows and their bookkeeping), the query-job queue (the queries, its slots
 * the concurrency) and the sync queue (the streams, its slots the sync concurrency).
 */
export function workersOf(services: Services) {
  return [
    { taskQueue: services.config.temporal.taskQueue, activities: services.activities, workflows: true, maxConcurrentActivities: 20 },
    {
      taskQueue: services.queryJobWorker.taskQueue,
      activities: services.queryJobWorker.activities,
      workflows: false,
      maxConcurrentActivities: services.queryJobWorker.concurrency,
      heartbeatThrottleMs: services.queryJobWorker.heartbeatThrottleMs,
    },
    {
      taskQueue: services.syncWorker.taskQueue,
      activities: services.syncWorker.activities,
      workflows: false,
      maxConcurrentActivities: services.syncWorker.concurrency,
    },
  ];
}

async function runMigrate(config: Config, logger: Logger): Promise<void> {
  const store = openStore(config.metadata);
  try {
    const applied = await migrate(store);
    logger.info('migrations up to date', { applied: applied.map((m) => `${m.version}_${m.name}`) });
  } finally {
    await store.close();
  }
}

function announce(mode: Mode, logger: Logger, infra: Infrastructure, apiUrl: string | undefined): void {
  const where = {
    mode,
    api: apiUrl && `${apiUrl}/api/v1`,
    docs: apiUrl && `${apiUrl}/docs`,
    openapi: apiUrl && `${apiUrl}/openapi.json`,
    temporal: infra.temporalAddress,
    temporal_ui: infra.devServer?.uiUrl,
  };
  logger.info('oxbow is up', where);
  if (process.stdout.isTTY) {
    const lines = [
      apiUrl && `  API          ${where.api}`,
      apiUrl && `  API docs     ${where.docs}   (OpenAPI: ${where.openapi})`,
      where.temporal_ui && `  Temporal UI  ${where.temporal_ui}`,
    ].filter(Boolean);
    process.stdout.write(`\nOxbow is running (${mode}).\n${lines.join('\n')}\nPress Ctrl-C to stop.\n\n`);
  }
}
