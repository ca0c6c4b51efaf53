import type { Logger } from '../logging/logger';
import type { Schedule } from '../schedules/schedule';
import type { TemporalClient } from '../temporal/client';
import { deleteSchedule, ensureSchedule } from '../temporal/schedules';
import { startWorkflowOnce } from '../temporal/start-workflow';
import { workspaceMaintenanceWorkflow } from '../workflows/workspace-maintenance';
import type { MaintenanceRuns, MaintenanceTriggerKind } from '../lake/after-write-maintenance';

export const maintenanceScheduleId = (workspaceId: string) => `workspace-maintenance-${workspaceId}`;
/** One id for every run a write starts: while one runs, another start is that same run. */
export const maintenanceAfterWriteId = (workspaceId: string) => `workspace-maintenance-${workspaceId}-after-write`;

/** Makes sure a workspace's lake maintenance runs on its schedule. */
export interface MaintenanceSchedules {
  ensure(workspaceId: string): Promise<void>;
}

/**
 * One Temporal Schedule per workspace runs its lake maintenance (visible, pausable and triggerable in
 * the Temporal UI). It is made at the workspace's creation and again after writes in case Temporal
 * was unreachable then; the ones made are remembered, so the check costs nothing afterwards.
 */
export class WorkspaceMaintenanceClient implements MaintenanceSchedules, MaintenanceRuns {
  private readonly ensured = new Set<string>();

  constructor(
    private readonly temporal: TemporalClient,
    private readonly schedule: Schedule,
    private readonly logger: Logger,
  ) {}

  async ensure(workspaceId: string): Promise<void> {
    if (this.ensured.has(workspaceId)) return;
    try {
      await ensureSchedule(this.temporal, {
        scheduleId: maintenanceScheduleId(workspaceId),
        workflow: workspaceMaintenanceWorkflow,
        args: [workspaceId],
        ...(this.schedule.kind === 'every' ? { every: this.schedule.every } : { cron: this.schedule.cron }),
        memo: { workspace_id: workspaceId },
        labels: { kind: 'maintenance', workspaceId },
      });
      this.ensured.add(workspaceId);
    } catch (error) {
      this.logger.warn('maintenance schedule not created yet; a later write retries', { workspace_id: workspaceId, error });
    }
  }

  /** A run under a fixed id: started again while it runs (Temporal's use-existing policy), it is that same run. */
  async startAfterWrite(workspaceId: string, trigger: MaintenanceTriggerKind, tables: string[]): Promise<void> {
    await startWorkflowOnce(this.temporal, workspaceMaintenanceWorkflow, {
      workflowId: maintenanceAfterWriteId(workspaceId),
      args: [workspaceId],
      memo: { workspace_id: workspaceId, tables },
      labels: { kind: 'maintenance', workspaceId, objectId: tables[0], trigger },
    });
  }

  /** The workspace is being purged: its schedule goes first, so no maintenance starts on a dropped catalog. */
  async remove(workspaceId: string): Promise<void> {
    this.ensured.delete(workspaceId);
    await deleteSchedule(this.temporal, maintenanceScheduleId(workspaceId));
  }
}
