import type { Workflow, WorkflowStartOptions } from '@temporalio/client';
import type { TemporalClient } from './client';
import { searchAttributePairs, type WorkflowLabels } from './search-attributes';
import { workspaceTaskQueue } from './task-queues';

export type StartOptions<W extends Workflow> = Omit<
  WorkflowStartOptions<W>,
  'taskQueue' | 'workflowIdConflictPolicy' | 'typedSearchAttributes' | 'searchAttributes'
> & {
  taskQueue?: string;
  /** Kind, workspace, object and trigger, as search attributes an operator filters on. */
  labels: WorkflowLabels;
  /**
   * Hand the first workflow task straight to this process's worker when one runs here (eager start),
   * for work whose latency a client waits on; elsewhere the start is an ordinary one.
   */
  eager?: boolean;
};

/**
 * Starts a workflow under its id once: while one with that id runs, starting it again (a request
 * retried after a failed commit, say) is that same workflow. Defaults to the service's task queue;
 * a workspace's workflow goes to its shard of that queue (see task-queues.ts).
 */
export async function startWorkflowOnce<W extends Workflow>(
  temporal: TemporalClient,
  workflow: W,
  options: StartOptions<W>,
): Promise<{ eagerlyStarted: boolean }> {
  const { labels, eager, ...start } = options;
  const startOptions = {
    ...start,
    taskQueue: workspaceTaskQueue(start.taskQueue ?? temporal.taskQueue, labels.workspaceId, temporal.shards),
    workflowIdConflictPolicy: 'USE_EXISTING',
    typedSearchAttributes: searchAttributePairs(labels),
  } as WorkflowStartOptions<W>;
  const local = eager ? temporal.local : undefined;
  if (local) {
    const handle = await temporal.call(() =>
      local.connection.withDeadline(Date.now() + startDeadlineMs, () => local.client.workflow.start(workflow, { ...startOptions, requestEagerStart: true })),
    );
    return { eagerlyStarted: handle.eagerlyStarted };
  }
  return { eagerlyStarted: (await temporal.call(() => temporal.client.workflow.start(workflow, startOptions))).eagerlyStarted };
}

/** temporal.call's deadline, for a start on the local worker's connection (which that deadline does not reach). */
const startDeadlineMs = 5_000;
