import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import type { TemporalClient } from '../temporal/client';
import type { accountRetentionWorkflow } from '../workflows/account-retention';
import type { RetentionScheduler } from './account-deletion';

export const accountRetentionWorkflowId = (userId: string) => `account-retention-${userId}`;

/** One retention workflow per account, visible in the Temporal UI under a readable id. */
export function temporalRetentionScheduler(temporal: TemporalClient): RetentionScheduler {
  return {
    async schedulePurge(userId, purgeAfter) {
      try {
        await temporal.call(() =>
          temporal.client.workflow.start<typeof accountRetentionWorkflow>('accountRetentionWorkflow', {
            workflowId: accountRetentionWorkflowId(userId),
            taskQueue: temporal.taskQueue,
            args: [{ userId, purgeAfter }],
            memo: { user_id: userId, purge_after: purgeAfter },
          }),
        );
      } catch (error) {
        // Already waiting for this account (a deletion retried after a failed commit): it re-reads the deadline.
        if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
      }
    },
  };
}
