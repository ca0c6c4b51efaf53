import { ScheduleAlreadyRunning, ScheduleOverlapPolicy } from '@temporalio/client';
import type { TemporalClient } from '../../temporal/client';
import { workspaceScheduleMemoKey } from '../../workspaces/workspace-schedules';
import type { workspaceMaintenanceWorkflow } from '../../workflows/workspace-maintenance';

export const maintenanceScheduleId = (workspaceId: string) => `workspace-maintenance-${workspaceId}`;

/**
 * One Temporal Schedule per workspace runs its lake maintenance (visible, pausable and triggerable in
 * the Temporal UI). Creating it again is harmless.
 */
export async function ensureMaintenanceSchedule(temporal: TemporalClient, workspaceId: string, every: string): Promise<void> {
  try {
    await temporal.call(() =>
      temporal.client.schedule.create({
        scheduleId: maintenanceScheduleId(workspaceId),
        spec: { intervals: [{ every }] },
        action: {
          type: 'startWorkflow',
          workflowType: 'workspaceMaintenanceWorkflow',
          args: [workspaceId] satisfies Parameters<typeof workspaceMaintenanceWorkflow>,
          taskQueue: temporal.taskQueue,
          workflowId: maintenanceScheduleId(workspaceId),
        },
        policies: { overlap: ScheduleOverlapPolicy.SKIP },
        memo: { [workspaceScheduleMemoKey]: workspaceId },
      }),
    );
  } catch (error) {
    if (!(error instanceof ScheduleAlreadyRunning)) throw error;
  }
}
