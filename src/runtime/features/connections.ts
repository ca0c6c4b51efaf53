import { createConnectionStreamActivities, createConnectionSyncActivities, type StreamActivityDeps } from '../../activities/connection-sync-activities';
import { ConnectionSecrets } from '../../connections/connection-secrets';
import { ConnectionsService, type ConnectionsServiceDeps } from '../../connections/connections-service';
import { LiveConnections } from '../../connections/live-connections';
import {
  countConnections,
  deleteWorkspaceConnections,
  deleteWorkspaceSyncJobs,
  deleteWorkspaceSyncStates,
  findConnectionById,
  findOpenSyncJob,
  listWorkspaceConnectionIds,
} from '../../connections/queries';
import { SourceProbes } from '../../connections/source-probes';
import { SourceSessions } from '../../connections/source-sessions';
import { DiscoveredStreams } from '../../connections/discovered-streams';
import { SyncJobLifecycle } from '../../connections/sync-job-lifecycle';
import { SyncJobsService } from '../../connections/sync-jobs-service';
import { deleteWorkspaceReplicationSlots, ReplicationState } from '../../connections/replication-state';
import { dropChangeLog } from '../../connections/change-log-sync';
import type { SyncListener } from '../../connections/sync-listeners';
import type { OAuthTokenSource } from '../../connectors/credentials';
import { EgressProxy } from '../../connectors/egress-proxy';
import { SourceAddressPolicy } from '../../connectors/source-address';
import { SealedBox } from '../../crypto/sealed-box';
import type { EngineServices } from '../../engine/engine-services';
import type { QueryGate } from '../../query/query-gate';
import { ConnectionSyncClient } from '../../workflow-clients/connection-sync';
import type { ConnectorCount } from '../../usage/connector-quota';
import type { FeatureWiring } from '../feature';
import { workspaceTaskQueue } from '../../temporal/task-queues';
import type { FeatureDeps } from './deps';
import { infrastructureEndpoints } from '../infrastructure-endpoints';

/** How many connections a workspace has, read on `db` (inside the transaction that creates one). */
export const connectionCount: ConnectorCount = async (workspaceId, db) => Number((await db.first(countConnections, { workspace_id: workspaceId }))?.count ?? 0);

/**
 * What live connections need before the engine exists (their secrets, the address policy, the provider
 * the engine asks), and the egress proxy that holds connectors' engines to the same policy.
 */
export function connectionSources({ config, infra, logger }: FeatureDeps) {
  const secrets = new ConnectionSecrets(new SealedBox(config.secrets.encryptionKey));
  const settings = { reserved: infrastructureEndpoints(config), allowPrivate: config.syncs.privateNetworks === 'allow' };
  const policy = new SourceAddressPolicy(settings.reserved, settings);
  const egress = new EgressProxy(settings);
  const live = new LiveConnections(infra.store, secrets, policy, logger.child({ component: 'connections' }));
  return { secrets, policy, egress, live };
}

export interface ConnectionsFeatureDeps extends FeatureDeps {
  engine: EngineServices;
  tables: ConnectionsServiceDeps['tables'];
  /** Counts each sync job's usage as every statement's is. */
  gate: QueryGate;
  sources: ReturnType<typeof connectionSources>;
  /** Told of every sync that changed tables (downstream work); none by default. */
  listeners?: readonly SyncListener[];
  /** Tokens of OAuth connector types, from the module that authorizes them. */
  oauth?: OAuthTokenSource;
  /** The plan's limits a connection and its syncs are held to. */
  quotas: { connectors: ConnectionsServiceDeps['connectorRoom']; storage: StreamActivityDeps['storage'] };
}

/**
 * Connections and their syncs: the services behind the routes, the sync workflows' bookkeeping on the
 * main task queue, the streams on a task queue of their own (its worker's slots bound how many sync
 * engines run at once), and the purge of a deleted workspace's connections.
 */
export function connectionsFeature({
  config,
  infra,
  logger,
  clock,
  metrics,
  engine,
  tables,
  gate,
  sources,
  listeners = [],
  oauth,
  quotas,
}: ConnectionsFeatureDeps) {
  const log = logger.child({ component: 'connections' });
  const { store } = infra;
  const client = new ConnectionSyncClient(infra.temporal, log);
  const sessions = new SourceSessions({ secrets: sources.secrets, policy: sources.policy, egress: sources.egress, syncs: engine.syncs, oauth });
  const replication = new ReplicationState(store);
  const connections = new ConnectionsService({
    store,
    secrets: sources.secrets,
    policy: sources.policy,
    schedules: client,
    workflows: client,
    tables,
    // Every process's query instance of the workspace attaches the sources anew; the answer waits until
    // the notice is sent, and a notice that cannot be sent is logged (the resync after a reconnect covers it).
    liveChanged: (workspaceId) =>
      infra.notices
        .publish({ kind: 'live_connections_changed', workspaceId })
        .catch((error: unknown) => log.warn('live connections change not sent', { workspace_id: workspaceId, error })),
    discover: (row) => sessions.use(row, (session) => session.connector.discover(session.context)),
    dropChangeLog: async (row) => {
      if (await replication.has(row.id)) await sessions.use(row, (session) => dropChangeLog(session, replication, row.id));
    },
    connectorRoom: quotas.connectors,
    clock,
    minScheduleIntervalMs: config.syncs.minScheduleIntervalMs,
    logger: log,
  });
  const discovered = new DiscoveredStreams(sessions);
  const lifecycle = new SyncJobLifecycle(store, discovered, gate, clock);
  const syncWorker = {
    taskQueue: `${config.temporal.taskQueue}-syncs`,
    concurrency: config.syncs.workerConcurrency,
    activities: createConnectionStreamActivities({
      sessions,
      replication,
      storage: quotas.storage,
      store,
      clock,
      batchRows: config.syncs.batchRows,
      scanBatchRows: config.syncs.scanBatchRows,
      lifecycle,
      notice: client,
      logger: log,
    }),
  };
  const wiring = {
    activities: createConnectionSyncActivities({
      lifecycle,
      listeners,
      streamTaskQueue: (workspaceId) => workspaceTaskQueue(syncWorker.taskQueue, workspaceId, infra.temporal.shards),
      parallelism: config.syncs.streamParallelism,
      streamTimeoutMs: config.syncs.streamTimeoutMs,
      runEnded: (status) => metrics.runEnded('sync', status),
      logger: log,
    }),
    workspacePurge: {
      // Each connection's schedule by its id, and its running sync, before the catalog goes.
      stopDurableWork: async (workspaceId: string) => {
        for (const { id } of await store.all(listWorkspaceConnectionIds, { workspace_id: workspaceId })) {
          await client.remove(id);
          const open = await store.first(findOpenSyncJob, { connection_id: id });
          if (open) await client.cancel(open.workflow_id);
          // A replication slot left on a source would hold its WAL back for ever: dropped while the spec is still known.
          const row = await store.first(findConnectionById, { id });
          if (row) await connections.dropChangeLogQuietly(row);
        }
      },
      rows: [deleteWorkspaceSyncStates, deleteWorkspaceSyncJobs, deleteWorkspaceReplicationSlots, deleteWorkspaceConnections],
    },
  } satisfies FeatureWiring;
  const syncJobs = new SyncJobsService(store, client, clock, log, { secrets: sources.secrets, discovered });
  return { connections, syncJobs, probes: new SourceProbes(sessions, discovered), syncWorker, wiring };
}
