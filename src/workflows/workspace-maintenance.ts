import { proxyActivities } from '@temporalio/workflow';
import type { LakeActivities } from '../activities/lake-activities';

const { maintainWorkspaceLake } = proxyActivities<LakeActivities>({
  startToCloseTimeout: '1 hour',
  heartbeatTimeout: '2 minutes',
  retry: { initialInterval: '30 seconds', maximumAttempts: 3 },
});

/** Scheduled per workspace: merge small files, expire snapshots past the plan's time travel, clean files. */
export async function workspaceMaintenanceWorkflow(workspaceId: string) {
  return maintainWorkspaceLake(workspaceId);
}
