import { Context } from '@temporalio/activity';
import type { Logger } from '../logging/logger';
import type { Store } from '../store/store';
import type { EngineManager } from '../engine/engine-manager';
import { runMaintenance, type MaintenanceReport } from '../engine/maintenance/run-maintenance';
import { findWorkspacePlan } from '../plans/plan-queries';

export interface LakeActivityDeps {
  store: Store;
  engines: EngineManager;
  targetFileSizeBytes: number;
  logger: Logger;
}

export function createLakeActivities(deps: LakeActivityDeps) {
  return {
    async maintainWorkspaceLake(workspaceId: string): Promise<MaintenanceReport | 'workspace_gone'> {
      const plan = await deps.store.first(findWorkspacePlan, { workspace_id: workspaceId });
      if (!plan) return 'workspace_gone';
      const heartbeat = setInterval(() => Context.current().heartbeat(), 10_000);
      try {
        const report = await deps.engines.with(
          workspaceId,
          (engine) =>
            engine.maintain((connection) =>
              runMaintenance(connection, engine.metadataSchema, { timeTravelDays: plan.time_travel_days, targetFileSizeBytes: deps.targetFileSizeBytes }),
            ),
          'background',
        );
        deps.logger.info('lake maintenance done', { workspace_id: workspaceId, ...report });
        return report;
      } finally {
        clearInterval(heartbeat);
      }
    },
  };
}

export type LakeActivities = ReturnType<typeof createLakeActivities>;
