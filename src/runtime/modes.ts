import type { Config } from '../config';
import type { Logger } from '../logging/logger';
import { createApp } from '../api/app';
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

export type Mode = 'serve' | 'api' | 'worker' | 'migrate' | 'mail-outbox';

export async function runMode(mode: Mode, config: Config, logger: Logger): Promise<void> {
  if (mode === 'migrate') return runMigrate(config, logger);
  if (mode === 'mail-outbox') return printOutbox(config);
  installTemporalRuntimeLogging(logger, config.logLevel);
  const infra = await openInfrastructure(config, logger, { superviseTemporal: mode === 'serve' });
  const services = buildServices(config, infra, logger);
  const worker = mode === 'api' ? undefined : await startActivityWorker(services, infra);
  const http = mode === 'worker' ? undefined : startHttpServer(createApp(services), config.http);

  announce(mode, logger, infra, http?.url);
  const stopped = onShutdownSignal(logger, [
    { name: 'http', run: async () => http?.stop() },
    { name: 'worker', run: async () => worker?.shutdown() },
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

async function startActivityWorker(services: Services, infra: Infrastructure): Promise<RunningWorker> {
  const { config, logger } = services;
  await ensureSearchAttributes(infra.temporal, config.temporal.namespace, logger);
  await ensureSchedules(infra.temporal, services.schedules, logger);
  return startWorker({ address: infra.temporalAddress, namespace: config.temporal.namespace, workers: workersOf(services) });
}

/**
 * The main task queue (workflows and their bookkeeping), the query-job queue (the queries, its slots
 * the concurrency) and the sync queue (the streams, its slots the sync concurrency).
 */
export function workersOf(services: Services) {
  return [
    { taskQueue: services.config.temporal.taskQueue, activities: services.activities, workflows: true, maxConcurrentActivities: 20 },
    { taskQueue: services.queryJobWorker.taskQueue, activities: services.queryJobWorker.activities, workflows: false, maxConcurrentActivities: services.queryJobWorker.concurrency },
    { taskQueue: services.syncWorker.taskQueue, activities: services.syncWorker.activities, workflows: false, maxConcurrentActivities: services.syncWorker.concurrency },
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
