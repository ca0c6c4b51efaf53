import { defineQuery, proxyActivities, setHandler } from '@temporalio/workflow';
import type { LakeActivities } from '../activities/lake-activities';

const { maintainWorkspaceLake } = proxyActivities<LakeActivities>({
  startToCloseTimeout: '1 hour',
  heartbeatTimeout: '2 minutes',
  retry: { initialInterval: '30 seconds', maximumAttempts: 3 },
});

type MaintenanceOutcome = Awaited<ReturnType<LakeActivities['maintainWorkspaceLake']>>;

export interface WorkspaceMaintenanceStatus {
  workspaceId: string;
  state: 'maintaining' | 'done';
  /** What the run did (files before and after, snapshots expired…), once it is done. */
  report: MaintenanceOutcome | null;
}

export const workspaceMaintenanceStatusQuery = defineQuery<WorkspaceMaintenanceStatus>('status');

/** Scheduled per workspace: rewrite files with deletes, merge small files, expire snapshots past the plan's time travel, clean files. */
export async function workspaceMaintenanceWorkflow(workspaceId: string): Promise<MaintenanceOutcome> {
  const status: WorkspaceMaintenanceStatus = { workspaceId, state: 'maintaining', report: null };
  setHandler(workspaceMaintenanceStatusQuery, () => status);
  status.report = await maintainWorkspaceLake(workspaceId);
  status.state = 'done';
  return status.report;
}
