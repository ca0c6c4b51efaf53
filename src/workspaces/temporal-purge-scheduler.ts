import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import type { TemporalClient } from '../temporal/client';
import type { workspacePurgeWorkflow } from '../workflows/workspace-purge';
import type { WorkspacePurgeScheduler } from './workspaces-service';

export const workspacePurgeWorkflowId = (workspaceId: string) => `workspace-purge-${workspaceId}`;

export function temporalWorkspacePurgeScheduler(temporal: TemporalClient): WorkspacePurgeScheduler {
  return {
    async schedulePurge(workspaceId, purgeAfter) {
      try {
        await temporal.call(() =>
          temporal.client.workflow.start<typeof workspacePurgeWorkflow>('workspacePurgeWorkflow', {
            workflowId: workspacePurgeWorkflowId(workspaceId),
            taskQueue: temporal.taskQueue,
            args: [{ workspaceId, purgeAfter }],
            memo: { workspace_id: workspaceId, purge_after: purgeAfter },
          }),
        );
      } catch (error) {
        if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
      }
    },
  };
}
