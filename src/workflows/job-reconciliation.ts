import { proxyActivities } from '@temporalio/workflow';
import type { QueryJobBookkeeping } from '../activities/query-job-activities';

const { reconcileQueryJobs } = proxyActivities<QueryJobBookkeeping>({ startToCloseTimeout: '5 minutes' });

/**
 * Scheduled every minute: every open job's record is compared with its workflow, and an end Temporal
 * knows of that the record does not (a terminate, a timeout, a lost start) is recorded; a cancelled
 * job whose workflow still runs is cancelled again.
 */
export async function queryJobReconciliationWorkflow(): Promise<{ checked: number; repaired: number; cancelled: number }> {
  return reconcileQueryJobs();
}
