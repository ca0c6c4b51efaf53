import { proxyActivities } from '@temporalio/workflow';
import type { HousekeepingActivities } from '../activities/housekeeping-activities';

const { pruneEndedRecords } = proxyActivities<HousekeepingActivities>({ startToCloseTimeout: '10 minutes' });

/** Scheduled hourly: removes expired codes, links, tokens, throttling records and delivered mail. */
export async function housekeepingWorkflow(): Promise<Record<string, number>> {
  return pruneEndedRecords();
}
