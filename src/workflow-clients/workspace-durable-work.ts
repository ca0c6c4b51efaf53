import { WorkflowNotFoundError } from '@temporalio/client';
import type { Logger } from '../logging/logger';
import type { TemporalClient } from '../temporal/client';
import { deleteSchedule } from '../temporal/schedules';
import type { WorkspacePurgeStep } from '../workspaces/purge-step';

/** Workspace ids are UUIDs; anything else must never reach a visibility query. */
const workspaceIdPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The first step of every workspace purge: whatever a feature started for the workspace on Temporal
 * (schedules of syncs, DAGs and maintenance, running jobs, syncs and DAG runs) is found by its
 * `OxbowWorkspaceId` search attribute, so no feature can be forgotten and nothing lists the namespace.
 * Schedules are deleted and running workflows cancelled, all but the purge itself.
 */
export function workspaceDurableWorkStop(temporal: TemporalClient, logger: Logger): WorkspacePurgeStep {
  return {
    async stopDurableWork(workspaceId: string): Promise<void> {
      if (!workspaceIdPattern.test(workspaceId)) throw new Error(`not a workspace id: ${workspaceId}`);
      const ofWorkspace = `OxbowWorkspaceId = '${workspaceId}'`;
      let schedules = 0;
      for await (const schedule of temporal.client.schedule.list({ query: ofWorkspace })) {
        await deleteSchedule(temporal, schedule.scheduleId);
        schedules++;
      }
      let workflows = 0;
      const running = `${ofWorkspace} AND ExecutionStatus = 'Running' AND OxbowKind != 'purge'`;
      for await (const execution of temporal.client.workflow.list({ query: running })) {
        try {
          await temporal.call(() => temporal.client.workflow.getHandle(execution.workflowId, execution.runId).cancel());
          workflows++;
        } catch (error) {
          // Ended between the listing and the cancel: nothing left to stop.
          if (!(error instanceof WorkflowNotFoundError)) throw error;
        }
      }
      if (schedules || workflows) logger.info('durable work of a deleted workspace stopped', { workspace_id: workspaceId, schedules, workflows });
    },
  };
}
