import type { Config } from '../config';
import type { Logger } from '../logging/logger';
import { SealedBox } from '../crypto/sealed-box';
import { systemClock, type Clock } from '../util/clock';
import { MailOutbox } from '../mail/outbox';
import { MailDispatch } from '../mail/mail-dispatch';
import { createSmtpTransport } from '../mail/smtp-transport';
import { createAuthServices, type AuthServices } from '../auth/auth-services';
import { temporalRetentionScheduler } from '../auth/temporal-retention-scheduler';
import { createAccountActivities } from '../activities/account-activities';
import { createMailActivities } from '../activities/mail-activities';
import { createHousekeepingActivities } from '../activities/housekeeping-activities';
import type { ScheduleDefinition } from '../temporal/schedules';
import { createWorkspaceActivities } from '../activities/workspace-activities';
import { catalogStoreFor } from '../engine/catalog-attachment';
import { WorkspaceAccess } from '../workspaces/workspace-access';
import { WorkspacesService } from '../workspaces/workspaces-service';
import { MembersService } from '../workspaces/members-service';
import { workspaceAccountHooks } from '../workspaces/workspace-account-hooks';
import { temporalWorkspacePurgeScheduler } from '../workspaces/temporal-purge-scheduler';
import type { WorkspaceServices } from '../workspaces/workspace-services';
import { createEngineServices, type EngineServices } from '../engine/engine-services';
import { createLakeActivities } from '../activities/lake-activities';
import { MaintenanceScheduler } from '../engine/maintenance/maintenance-scheduler';
import { translatePostgres } from '../engine/sql/postgres-dialect';
import { QueryService } from '../query/query-service';
import { RateLimiter, deleteWorkspaceRateEvents } from '../query/rate-limiter';
import { UsageRecorder, deleteWorkspaceUsage } from '../query/usage-recorder';
import { QueryJobsService } from '../jobs/query-jobs-service';
import { QueryJobScheduler } from '../jobs/job-scheduler';
import { deleteWorkspaceJobs } from '../jobs/job-queries';
import { createQueryJobActivities, createQueryJobBookkeeping } from '../activities/query-job-activities';
import { deleteWorkspaceTables } from '../engine/tables/table-registry';
import { deleteWorkspaceIdempotencyKeys } from '../idempotency/idempotency-store';
import type { WorkspaceRowsPurge } from '../workspaces/purge-steps';
import type { HealthProbe } from '../api/health/service';
import type { Infrastructure } from './infrastructure';

/** Everything the HTTP layer and the worker use, wired once from the config and the infrastructure. */
export interface Services {
  config: Config;
  logger: Logger;
  clock: Clock;
  auth: AuthServices;
  workspaces: WorkspaceServices;
  engine: EngineServices;
  queries: QueryService;
  jobs: QueryJobsService;
  maintenance: MaintenanceScheduler;
  healthProbes: Record<string, HealthProbe>;
  /** Every activity the main worker registers. */
  activities(): object;
  /** The query-job worker: its own task queue, its slots the query concurrency. */
  queryJobWorker: { taskQueue: string; concurrency: number; activities(): object };
  schedules: ScheduleDefinition[];
  /** Releases what the services hold open (engine instances); the infrastructure closes the rest. */
  close(): Promise<void>;
}

// Rows that features keep per workspace, removed by the workspace purge after the catalog and files.
const workspaceRowPurges: WorkspaceRowsPurge[] = [
  { name: 'lake tables', purge: (tx, workspaceId) => tx.run(deleteWorkspaceTables, { workspace_id: workspaceId }).then(() => undefined) },
  { name: 'idempotency keys', purge: (tx, workspaceId) => tx.run(deleteWorkspaceIdempotencyKeys, { workspace_id: workspaceId }).then(() => undefined) },
  { name: 'rate limit events', purge: (tx, workspaceId) => tx.run(deleteWorkspaceRateEvents, { workspace_id: workspaceId }).then(() => undefined) },
  { name: 'query jobs', purge: (tx, workspaceId) => tx.run(deleteWorkspaceJobs, { workspace_id: workspaceId }).then(() => undefined) },
  { name: 'query usage', purge: (tx, workspaceId) => tx.run(deleteWorkspaceUsage, { workspace_id: workspaceId }).then(() => undefined) },
];

export function buildServices(config: Config, infra: Infrastructure, logger: Logger, clock: Clock = systemClock): Services {
  const { store, lake, temporal } = infra;
  const sealedBox = new SealedBox(config.secrets.encryptionKey);
  const outbox = new MailOutbox(sealedBox, clock);
  const mail = new MailDispatch(temporal, config.mail.smtpUrl !== undefined, logger.child({ component: 'mail' }));
  const workspacePurge = temporalWorkspacePurgeScheduler(temporal);
  const hooks = workspaceAccountHooks(workspacePurge, clock);
  const auth = createAuthServices({ config, store, clock, outbox, mail, hooks, retention: temporalRetentionScheduler(temporal) });
  const maintenance = new MaintenanceScheduler(temporal, config.maintenance.every, logger.child({ component: 'maintenance' }));
  const engine = createEngineServices({ config, store, lake, clock, logger: logger.child({ component: 'engine' }), translate: translatePostgres });
  const rateLimiter = new RateLimiter(store, clock);
  const usage = new UsageRecorder(store, clock);
  const jobScheduler = new QueryJobScheduler(temporal, `${config.temporal.taskQueue}-query-jobs`, config.jobs.timeoutMs, logger.child({ component: 'jobs' }));
  const workspaces: WorkspaceServices = {
    access: new WorkspaceAccess(store),
    workspaces: new WorkspacesService(store, clock, workspacePurge, (workspaceId) => maintenance.ensure(workspaceId)),
    members: new MembersService(store, clock, outbox, mail, config.http.frontendUrl),
  };

  return {
    config,
    logger,
    clock,
    auth,
    workspaces,
    engine,
    queries: new QueryService(store, engine.queries, rateLimiter, usage, config.query),
    jobs: new QueryJobsService(store, workspaces.access, rateLimiter, jobScheduler, engine.queries, lake, clock, logger.child({ component: 'jobs' })),
    maintenance,
    healthProbes: {
      metadata: () => store.ping(),
      lake: () => lake.ping(),
      temporal: () => temporal.ping(),
    },
    activities: () => ({
      ...createHousekeepingActivities({ store, clock, logger: logger.child({ component: 'housekeeping' }) }),
      ...createWorkspaceActivities({
        store,
        lake,
        temporal,
        catalog: catalogStoreFor(config.metadata, config.dataDir),
        rowPurges: workspaceRowPurges,
        releaseWorkspace: (workspaceId) => engine.engines.release(workspaceId),
        logger: logger.child({ component: 'workspaces' }),
      }),
      ...createLakeActivities({ store, engines: engine.engines, targetFileSizeBytes: config.maintenance.targetFileSizeBytes, logger: logger.child({ component: 'lake' }) }),
      ...createQueryJobBookkeeping({ store, lake, clock, logger: logger.child({ component: 'jobs' }) }),
      ...createAccountActivities({ store, clock, hooks, logger: logger.child({ component: 'accounts' }) }),
      ...createMailActivities({
        store,
        outbox,
        dispatch: mail,
        clock,
        logger: logger.child({ component: 'mail' }),
        transport: config.mail.smtpUrl ? createSmtpTransport(config.mail.smtpUrl, config.mail.from) : undefined,
      }),
    }),
    queryJobWorker: {
      taskQueue: jobScheduler.queryTaskQueue,
      concurrency: config.jobs.concurrency,
      activities: () =>
        createQueryJobActivities({
          store,
          lake,
          runner: engine.queries,
          usage,
          temporal,
          clock,
          timeoutMs: config.jobs.timeoutMs,
          resultRetentionMs: config.jobs.resultRetentionMs,
          logger: logger.child({ component: 'jobs' }),
        }),
    },
    schedules: [
      { scheduleId: 'housekeeping', workflowType: 'housekeepingWorkflow', every: '1h' },
      { scheduleId: 'job-results-cleanup', workflowType: 'jobResultsCleanupWorkflow', every: '1h' },
      ...(config.mail.smtpUrl ? [{ scheduleId: 'mail-outbox-sweep', workflowType: 'mailOutboxSweepWorkflow', every: '5m' }] : []),
    ],
    close: async () => {
      await engine.engines.close();
      await engine.parser.close();
    },
  };
}
