import { createLakeActivities } from '../../activities/lake-activities';
import { createEngineServices } from '../../engine/engine-services';
import { translatePostgresStatement } from '../../engine/sql/postgres-dialect';
import { deleteWorkspaceTables } from '../../engine/tables/table-registry';
import { deleteWorkspaceIdempotencyKeys, IdempotencyStore, pruneIdempotencyKeys } from '../../idempotency/idempotency-store';
import { workspacePlan } from '../../plans/workspace-plan';
import { PushService } from '../../lake/push-service';
import { TablesService } from '../../lake/tables-service';
import { createInstanceFolder } from '../../engine/duckdb/instance-folders';
import { StorageQuota } from '../../usage/storage-quota';
import { WorkspaceMaintenanceClient } from '../../workflow-clients/workspace-maintenance';
import { AfterWriteMaintenance } from '../../lake/after-write-maintenance';
import type { FeatureWiring } from '../feature';
import type { FeatureDeps } from './deps';
import type { LiveSourceProvider } from '../../engine/live/live-sources';
import { tablesChangedNotice } from './cluster';

/** The lakehouse engine (instances, writes, tables, the SQL pipeline), the storage limit every write checks, push, and each workspace's maintenance (its schedule, and runs after writes that call for one). */
export function lakeFeature({ config, infra, logger, clock, liveSources }: FeatureDeps & { liveSources?: LiveSourceProvider }) {
  const engine = createEngineServices({
    config,
    store: infra.store,
    clock,
    logger: logger.child({ component: 'engine' }),
    translate: translatePostgresStatement,
    liveSources,
    onCatalogWritten: tablesChangedNotice({ infra }),
  });
  const planOf = (workspaceId: string) => workspacePlan(infra.store, workspaceId);
  const tables = new TablesService(engine.engines, infra.store, infra.lake);
  const storage = new StorageQuota((workspaceId, lane) => tables.storageBytes(workspaceId, lane), planOf);
  // Beside the engines' spill folders: a received upload is moved into its workspace instance's own for the write.
  let uploads: string | undefined;
  const uploadFolder = () => (uploads ??= createInstanceFolder(config.duckdb.tempDir, 'uploads'));
  const push = new PushService(engine.writer, new IdempotencyStore(infra.store, clock), planOf, storage, uploadFolder);
  const maintenance = new WorkspaceMaintenanceClient(infra.temporal, config.maintenance.schedule, logger.child({ component: 'maintenance' }));
  const afterWrite = new AfterWriteMaintenance(
    engine.engines,
    maintenance,
    {
      smallFiles: config.maintenance.afterWriteSmallFiles,
      deleteFiles: config.maintenance.afterWriteDeleteFiles,
      targetFileSizeBytes: config.maintenance.targetFileSizeBytes,
    },
    logger.child({ component: 'maintenance' }),
  );
  const wiring = {
    activities: createLakeActivities({
      store: infra.store,
      engines: engine.engines,
      targetFileSizeBytes: config.maintenance.targetFileSizeBytes,
      logger: logger.child({ component: 'lake' }),
    }),
    workspacePurge: {
      stopDurableWork: (workspaceId: string) => maintenance.remove(workspaceId),
      rows: [deleteWorkspaceTables, deleteWorkspaceIdempotencyKeys],
    },
    prune: [pruneIdempotencyKeys],
  } satisfies FeatureWiring;
  return { engine, tables, storage, push, maintenance, afterWrite, wiring };
}
