import type { TemporalClient } from '../temporal/client';
import { startWorkflowOnce } from '../temporal/start-workflow';
import { accountRetentionWorkflow } from '../workflows/account-retention';
import type { RetentionScheduler } from '../auth/account-deletion';

export const accountRetentionWorkflowId = (userId: string) => `account-retention-${userId}`;

/** One retention workflow per deleted account, visible in the Temporal UI under a readable id. */
export function accountRetentionClient(temporal: TemporalClient): RetentionScheduler {
  return {
    // A deletion retried after a failed commit finds the workflow waiting; it re-reads the deadline.
    schedulePurge: async (userId, purgeAfter) =>
      void (await startWorkflowOnce(temporal, accountRetentionWorkflow, {
        workflowId: accountRetentionWorkflowId(userId),
        args: [{ userId, purgeAfter }],
        memo: { user_id: userId, purge_after: purgeAfter },
        labels: { kind: 'retention', objectId: userId },
      })),
  };
}
