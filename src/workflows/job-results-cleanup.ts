import { proxyActivities } from '@temporalio/workflow';
import type { QueryJobBookkeeping } from '../activities/query-job-activities';

const { deleteExpiredJobResults } = proxyActivities<QueryJobBookkeeping>({ startToCloseTimeout: '10 minutes' });

/** Scheduled: removes job results past their retention; the jobs then say their result expired. */
export async function jobResultsCleanupWorkflow(): Promise<number> {
  return deleteExpiredJobResults();
}
