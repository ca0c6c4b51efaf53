import type { Config } from '../config';
import type { Logger } from '../logging/logger';
import { systemClock, type Clock } from '../util/clock';
import type { AuthServices } from '../auth/auth-services';
import type { WorkspaceServices } from '../workspaces/workspace-services';
import type { EngineServices } from '../engine/engine-services';
import type { QueryService } from '../query/query-service';
import type { QueryJobsService } from '../jobs/query-jobs-service';
import type { QueriesAsJobs } from '../jobs/queries-as-jobs';
import type { QueryHistory } from '../query/history/query-history';
import type { PushService } from '../lake/push-service';
import type { TablesService } from '../lake/tables-service';
import type { AfterWriteMaintenance } from '../lake/after-write-maintenance';
import type { ScheduleDefinition } from '../temporal/schedules';
import type { HealthProbe } from '../api/health/service';
import { Readiness } from '../api/health/readiness';
import type { Infrastructure } from './infrastructure';
import { ServiceMetrics } from '../metrics/service-metrics';
import { engineVersion } from '../engine/engine-version';
import { taskQueueStats } from '../temporal/task-queue-stats';
import packageJson from '../../package.json';
import { combineActivities, workspacePurgeSteps, type FeatureWiring } from './feature';
import type { FeatureDeps } from './features/deps';
import { mailFeature } from './features/mail';
import { lakeFeature } from './features/lake';
import { workspacePurgeWiring, workspacesFeature } from './features/workspaces';
import { accountsFeature } from './features/accounts';
import { queriesFeature } from './features/queries';
import { jobsFeature } from './features/jobs';
import { housekeepingWiring } from './features/housekeeping';
import { connectionCount, connectionSources, connectionsFeature } from './features/connections';
import type { ConnectionsService } from '../connections/connections-service';
import type { SyncJobsService } from '../connections/sync-jobs-service';
import type { SourceProbes } from '../connections/source-probes';
import type { SyncListener } from '../connections/sync-listeners';
import { transformsFeature } from './features/transforms';
import type { TransformsService } from '../transforms/transforms-service';
import type { TransformRunsService } from '../transforms/transform-runs-service';
import type { DagScheduleService } from '../transforms/dag-schedule';
import type { TransformsAfterSync } from '../transforms/after-sync';
import { sharingFeature, type SharingServices } from './features/sharing';
import { usageFeature, type UsageServices } from './features/usage';
import { billingFeature, type BillingServices } from './features/billing';
import { oauthFeature, oauthTokenSource } from './features/oauth';
import type { OAuthService } from '../oauth/oauth-service';
import type { Ownership } from '../cluster/ownership';
import type { ForwardingKey, OwnerForwarder } from '../cluster/forwarding';
import { clusterFeature } from './features/cluster';

/** A worker on one task queue: its activities, and how many run at once. */
export interface TaskQueueActivities {
  taskQueue: string;
  concurrency: number;
  activities: object;
  /** The most time between two heartbeats its activities send (the worker's throttle); a cancel arrives with one. */
  heartbeatThrottleMs?: number;
  /** Checked as a worker starts: whether its slots can serve what the plans allow (warned about if not). */
  checkCapacity?: () => Promise<void>;
}

/** Everything the HTTP layer and the worker use, wired once from the config and the infrastructure. */
export interface Services {
  config: Config;
  logger: Logger;
  clock: Clock;
  auth: AuthServices;
  workspaces: WorkspaceServices;
  engine: EngineServices;
  /** The workspace's lake tables: listing, detail, history, removal. */
  tables: TablesService;
  push: PushService;
  queries: QueryService;
  jobs: QueryJobsService;
  /** Queries sent with `async_after_ms`: answered in time, or handed over as jobs. */
  queriesAsJobs: QueriesAsJobs;
  /** Every statement each workspace ran. */
  queryHistory: QueryHistory;
  transforms: { definitions: TransformsService; runs: TransformRunsService; schedule: DagScheduleService; afterSync: TransformsAfterSync };
  sharing: SharingServices;
  usage: UsageServices;
  billing: BillingServices;
  /** Each workspace's maintenance schedule, and the run a write starts when its tables call for one. */
  maintenance: AfterWriteMaintenance;
  connections: ConnectionsService;
  syncJobs: SyncJobsService;
  sourceProbes: SourceProbes;
  oauth: OAuthService;
  healthProbes: Record<string, HealthProbe>;
  /** `/readyz`: the dependencies queries need, the ones that only some features need, and whether a shutdown began. */
  readiness: Readiness;
  metrics: ServiceMetrics;
  /** Where each workspace's engine work runs, and how a request goes to its owner (src/cluster/README.md). */
  cluster: { ownership: Ownership; forwarder: OwnerForwarder; forwardingKey: ForwardingKey };
  /** Every activity of the main task queue, which also runs the workflows. */
  activities: object;
  /** The query-job worker: its own task queue, its slots the query concurrency. */
  queryJobWorker: TaskQueueActivities;
  /** The sync streams' worker: its own task queue, its slots the sync concurrency. */
  syncWorker: TaskQueueActivities;
  schedules: ScheduleDefinition[];
  /** Writes the usage records of answered queries that wait to be written (see UsageBatches). */
  usageRecorded(): Promise<void>;
  /** Writes what waits to be written and releases what the services hold open (engine instances); the infrastructure closes the rest. */
  close(): Promise<void>;
}

/** What a deployment adds to the features beyond the configuration: work that follows syncs. */
export interface ServiceExtensions {
  syncListeners?: readonly SyncListener[];
}

/** The composition root: builds each feature, then assembles their activities, schedules, purges and prunes. */
export function buildServices(config: Config, infra: Infrastructure, logger: Logger, clock: Clock = systemClock, extensions: ServiceExtensions = {}): Services {
  const metrics = new ServiceMetrics({ version: packageJson.version, runtime: `bun ${Bun.version}`, duckdb: engineVersion() });
  const deps: FeatureDeps = { config, infra, logger, clock, metrics };
  const mail = mailFeature(deps);
  const sources = connectionSources(deps);
  const lake = lakeFeature({ ...deps, liveSources: sources.live });
  const { engines } = lake.engine;
  metrics.watchEngine({ instances: () => engines.openByLane(), statements: () => engines.scheduler.load, memory: () => engines.memoryByLane(1_000) });
  const workspaces = workspacesFeature({ ...deps, mail, onCreated: (workspaceId) => lake.maintenance.ensure(workspaceId) });
  const accounts = accountsFeature({ ...deps, mail, hooks: workspaces.accountHooks });
  const queries = queriesFeature(deps, lake.engine);
  const jobs = jobsFeature({ ...deps, engine: lake.engine, access: workspaces.services.access, gate: queries.gate });
  const transforms = transformsFeature(deps, lake.engine, queries.gate, lake.storage, lake.afterWrite);
  // A sync that changed tables runs the stale transforms downstream of them.
  const runTransformsAfterSync: SyncListener = { afterSync: async (event) => void (await transforms.afterSync.onSyncFinished(event)) };
  // …and starts the workspace's maintenance when those tables gathered many small or delete files.
  const maintainAfterSync: SyncListener = {
    afterSync: (event) => lake.afterWrite.afterWrite(event.workspaceId, event.changedTables, { trigger: 'after_sync', lane: 'background' }),
  };
  const usage = usageFeature({ ...deps, usageRecorded: queries.usageRecorded, storage: lake.storage, connectorCount: connectionCount });
  const oauthTokens = oauthTokenSource(deps);
  const connections = connectionsFeature({
    ...deps,
    engine: lake.engine,
    tables: lake.tables,
    gate: queries.gate,
    sources,
    listeners: [runTransformsAfterSync, maintainAfterSync, ...(extensions.syncListeners ?? [])],
    oauth: oauthTokens.tokens,
    quotas: { connectors: usage.usage.connectors, storage: usage.usage.storage },
  });
  const oauth = oauthFeature({
    ...deps,
    source: oauthTokens,
    connections: connections.connections,
    probes: connections.probes,
    access: workspaces.services.access,
  });
  const sharing = sharingFeature(deps, queries.gate, queries.queries, infra.membership?.self.role === 'api');
  const billing = billingFeature(deps);
  metrics.watchTaskQueues(
    taskQueueStats(infra.temporal, config.temporal.namespace, {
      main: config.temporal.taskQueue,
      query_jobs: jobs.queryWorker.taskQueue,
      syncs: connections.syncWorker.taskQueue,
    }),
  );

  // Connections before the lake: a purge stops their syncs before the catalog goes.
  const features: FeatureWiring[] = [
    mail.wiring,
    connections.wiring,
    oauth.wiring,
    lake.wiring,
    accounts.wiring,
    queries.wiring,
    jobs.wiring,
    transforms.wiring,
    sharing.wiring,
    usage.wiring,
    billing.wiring,
  ];
  const purge = workspacePurgeWiring(deps, workspacePurgeSteps(features));
  const cluster = clusterFeature(deps, infra.membership, engines);
  const housekeeping = housekeepingWiring(
    deps,
    features.flatMap((feature) => feature.prune ?? []),
  );

  return {
    config,
    logger,
    clock,
    auth: accounts.auth,
    workspaces: workspaces.services,
    engine: lake.engine,
    tables: lake.tables,
    push: lake.push,
    queries: queries.queries,
    jobs: jobs.jobs,
    queriesAsJobs: jobs.asJobs,
    queryHistory: queries.history,
    transforms: { definitions: transforms.transforms, runs: transforms.runs, schedule: transforms.schedule, afterSync: transforms.afterSync },
    sharing: sharing.sharing,
    usage: usage.usage,
    billing: billing.billing,
    maintenance: lake.afterWrite,
    metrics,
    cluster,
    connections: connections.connections,
    syncJobs: connections.syncJobs,
    sourceProbes: connections.probes,
    oauth: oauth.service,
    healthProbes: {
      metadata: () => infra.store.ping(),
      lake: () => infra.lake.ping(),
      temporal: () => infra.temporal.ping(),
    },
    readiness: new Readiness({
      metadata: { probe: () => infra.store.ping(), required: true, serves: ['api'] },
      lake: { probe: () => infra.lake.ping(), required: true, serves: ['queries', 'push', 'tables'] },
      // Without Temporal, queries and pushes still work: what waits is durable work.
      temporal: { probe: () => infra.temporal.ping(), required: false, serves: ['query_jobs', 'syncs', 'transform_runs', 'deletions'] },
    }),
    activities: combineActivities(
      housekeeping.activities,
      purge.activities,
      lake.wiring.activities,
      jobs.wiring.activities,
      connections.wiring.activities,
      transforms.wiring.activities,
      oauth.wiring.activities,
      accounts.wiring.activities,
      mail.wiring.activities,
      billing.wiring.activities,
    ),
    queryJobWorker: jobs.queryWorker,
    syncWorker: connections.syncWorker,
    schedules: [...housekeeping.schedules, ...features.flatMap((feature) => feature.schedules ?? [])],
    usageRecorded: queries.usageRecorded,
    close: async () => {
      await queries.usageRecorded();
      await lake.engine.engines.close();
      await lake.engine.parser.close();
      await sources.egress.stop();
    },
  };
}
