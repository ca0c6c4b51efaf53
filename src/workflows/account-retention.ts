import { defineQuery, proxyActivities, setHandler, sleep } from '@temporalio/workflow';
import type { AccountActivities } from '../activities/account-activities';

export interface AccountRetentionInput {
  userId: string;
  /** ISO time after which the deleted account's personal data is purged. */
  purgeAfter: string;
}

export interface AccountRetentionStatus {
  userId: string;
  purgeAfter: string;
  state: 'waiting' | 'purging' | 'purged' | 'already_purged' | 'not_deleted';
}

export const accountRetentionStatusQuery = defineQuery<AccountRetentionStatus>('status');

const { purgeDeletedAccount } = proxyActivities<AccountActivities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '10 seconds', maximumInterval: '10 minutes' },
});

/**
 * Waits out the retention period of a deleted account on a durable timer (it survives restarts of the
 * service and of Temporal), then purges the account's personal data.
 */
export async function accountRetentionWorkflow(input: AccountRetentionInput): Promise<AccountRetentionStatus['state']> {
  const status: AccountRetentionStatus = { userId: input.userId, purgeAfter: input.purgeAfter, state: 'waiting' };
  setHandler(accountRetentionStatusQuery, () => status);
  for (;;) {
    const wait = Date.parse(status.purgeAfter) - Date.now();
    if (wait > 0) await sleep(wait);
    status.state = 'purging';
    const result = await purgeDeletedAccount(input.userId);
    if (result.outcome !== 'not_due') {
      status.state = result.outcome;
      return result.outcome;
    }
    status.purgeAfter = result.purgeAfter;
    status.state = 'waiting';
  }
}
