import type { TemporalClient } from '../temporal/client';
import { startWorkflowOnce } from '../temporal/start-workflow';
import { workspacePurgeWorkflow } from '../workflows/workspace-purge';
import type { WorkspacePurgeScheduler } from '../workspaces/workspaces-service';

export const workspacePurgeWorkflowId = (workspaceId: string) => `workspace-purge-${workspaceId}`;

/** One purge workflow per deleted workspace; a second deletion request finds the first one. */
export function workspacePurgeClient(temporal: TemporalClient): WorkspacePurgeScheduler {
  return {
    schedulePurge: async (workspaceId, purgeAfter) =>
      void (await startWorkflowOnce(temporal, workspacePurgeWorkflow, {
        workflowId: workspacePurgeWorkflowId(workspaceId),
        args: [{ workspaceId, purgeAfter }],
        memo: { workspace_id: workspaceId, purge_after: purgeAfter },
        labels: { kind: 'purge', workspaceId, objectId: workspaceId },
      })),
  };
}
