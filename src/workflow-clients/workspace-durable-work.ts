import { WorkflowNotFoundError, type WorkflowHandle } from '@temporalio/client';
import type { Logger } from '../logging/logger';
import type { TemporalClient } from '../temporal/client';
import { deleteSchedule } from '../temporal/schedules';
import type { WorkspacePurgeStep } from '../workspaces/purge-step';

/** Workspace ids are UUIDs; anything else must never reach a visibility query. */
/** How long the purge waits for the workflows it cancelled to close before it deletes what they read. */
const closeWait = 30_000;

const workspaceIdPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The first step of every workspace purge: whatever a feature started for the workspace on Temporal
 * (schedules of syncs, DAGs and maintenance, running jobs, syncs and DAG runs) is found by its
 * `OxbowWorkspaceId` search attribute, so no feature can be forgotten and nothing lists the namespace.
 * Schedules are deleted and running workflows cancelled, all but the purge itself; the purge then
 * waits (a while) for them to close, so that each ends as cancelled rather than failing on the data
 * the next steps delete under it.
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
      const cancelled: WorkflowHandle[] = [];
      const running = `${ofWorkspace} AND ExecutionStatus = 'Running' AND OxbowKind != 'purge'`;
      for await (const execution of temporal.client.workflow.list({ query: running })) {
        const handle = temporal.client.workflow.getHandle(execution.workflowId, execution.runId);
        try {
          await temporal.call(() => handle.cancel());
          cancelled.push(handle);
        } catch (error) {
          // Ended between the listing and the cancel: nothing left to stop.
          if (!(error instanceof WorkflowNotFoundError)) throw error;
        }
      }
      const stillRunning = await untilClosed(cancelled, Date.now() + closeWait);
      if (schedules || cancelled.length)
        logger.info('durable work of a deleted workspace stopped', {
          workspace_id: workspaceId,
          schedules,
          workflows: cancelled.length,
          still_running: stillRunning,
        });
    },
  };
}

/** Waits until every workflow has closed or the deadline passes; answers how many still run. */
async function untilClosed(handles: readonly WorkflowHandle[], deadline: number): Promise<number> {
  let open = [...handles];
  while (open.length > 0 && Date.now() < deadline) {
    const states = await Promise.all(
      open.map((handle) =>
        handle.describe().then(
          (description) => description.status.name === 'RUNNING',
          () => false,
        ),
      ),
    );
    open = open.filter((_, index) => states[index]);
    if (open.length > 0) await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return open.length;
}
