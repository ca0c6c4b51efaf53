import type { Workflow, WorkflowStartOptions } from '@temporalio/client';
import type { TemporalClient } from './client';
import { searchAttributePairs, type WorkflowLabels } from './search-attributes';

export type StartOptions<W extends Workflow> = Omit<WorkflowStartOptions<W>, 'taskQueue' | 'workflowIdConflictPolicy' | 'typedSearchAttributes' | 'searchAttributes'> & {
  taskQueue?: string;
  /** Kind, workspace, object and trigger, as search attributes an operator filters on. */
  labels: WorkflowLabels;
};

/**
 * Starts a workflow under its id once: while one with that id runs, starting it again (a request
 * retried after a failed commit, say) is that same workflow. Defaults to the service's task queue.
 */
export async function startWorkflowOnce<W extends Workflow>(temporal: TemporalClient, workflow: W, options: StartOptions<W>): Promise<void> {
  const { labels, ...start } = options;
  await temporal.call(() =>
    temporal.client.workflow.start(workflow, {
      ...start,
      taskQueue: start.taskQueue ?? temporal.taskQueue,
      workflowIdConflictPolicy: 'USE_EXISTING',
      typedSearchAttributes: searchAttributePairs(labels),
    } as WorkflowStartOptions<W>),
  );
}
