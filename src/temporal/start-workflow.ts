import type { Workflow, WorkflowStartOptions } from '@temporalio/client';
import type { TemporalClient } from './client';

export type StartOptions<W extends Workflow> = Omit<WorkflowStartOptions<W>, 'taskQueue' | 'workflowIdConflictPolicy'> & { taskQueue?: string };

/**
 * Starts a workflow under its id once: while one with that id runs, starting it again (a request
 * retried after a failed commit, say) is that same workflow. Defaults to the service's task queue.
 */
export async function startWorkflowOnce<W extends Workflow>(temporal: TemporalClient, workflow: W, options: StartOptions<W>): Promise<void> {
  await temporal.call(() =>
    temporal.client.workflow.start(workflow, {
      ...options,
      taskQueue: options.taskQueue ?? temporal.taskQueue,
      workflowIdConflictPolicy: 'USE_EXISTING',
    } as WorkflowStartOptions<W>),
  );
}
