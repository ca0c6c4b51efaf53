import { Context } from '@temporalio/activity';
import type { Logger } from '../logging/logger';
import type { Store } from '../store/store';
import type { LakeStorage } from '../lake-storage/lake-storage';
import { dropCatalog } from '../engine/catalog-lifecycle';
import { workspaceDataPrefix, type CatalogStore } from '../engine/catalog-attachment';
import { deleteWorkspaceMembers, deleteWorkspaceRow, findWorkspaceForPurge, workspaceDeletionLock } from '../workspaces/queries/workspaces';
import type { WorkspacePurgeStep } from '../workspaces/purge-step';

export interface WorkspaceActivityDeps {
  store: Store;
  lake: LakeStorage;
  catalog: CatalogStore;
  /** Every feature's share of a purge. */
  purgeSteps: WorkspacePurgeStep[];
  /** Releases what this process holds for the workspace (its engine instance) before the catalog goes. */
  releaseWorkspace(workspaceId: string): Promise<void>;
  logger: Logger;
}

export function createWorkspaceActivities(deps: WorkspaceActivityDeps) {
  return {
    async isWorkspaceDeleted(workspaceId: string): Promise<boolean> {
      // The purge starts before the deletion commits: behind the deletion's lock, its outcome is read.
      const row = await deps.store.transaction(async (tx) => {
        await tx.lock(workspaceDeletionLock(workspaceId));
        return tx.first(findWorkspaceForPurge, { id: workspaceId });
      });
      // Already gone entirely counts as deleted: a retried purge finishes its remaining steps.
      return row === undefined || row.deleted_at !== null;
    },

    async stopWorkspaceDurableWork(workspaceId: string): Promise<void> {
      for (const step of deps.purgeSteps) await step.stopDurableWork?.(workspaceId);
    },

    async dropWorkspaceCatalog(workspaceId: string): Promise<void> {
      await deps.releaseWorkspace(workspaceId);
      await dropCatalog(deps.store, deps.catalog, workspaceId);
    },

    async deleteWorkspaceFiles(workspaceId: string): Promise<number> {
      Context.current().heartbeat();
      const deleted = await deps.lake.deletePrefix(workspaceDataPrefix(workspaceId));
      deps.logger.info('workspace files deleted', { workspace_id: workspaceId, files: deleted });
      return deleted;
    },

    async deleteWorkspaceRows(workspaceId: string): Promise<void> {
      await deps.store.transaction(async (tx) => {
        for (const query of deps.purgeSteps.flatMap((step) => step.rows ?? [])) await tx.run(query, { workspace_id: workspaceId });
        await tx.run(deleteWorkspaceMembers, { workspace_id: workspaceId });
        await tx.run(deleteWorkspaceRow, { id: workspaceId });
      });
      deps.logger.info('workspace purged', { workspace_id: workspaceId });
    },
  };
}

export type WorkspaceActivities = ReturnType<typeof createWorkspaceActivities>;
