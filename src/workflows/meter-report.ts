import { proxyActivities } from '@temporalio/workflow';
import type { BillingActivities } from '../activities/billing-activities';
import type { OverageReport } from '../billing/overage-reporter';

const { reportUsageOverage } = proxyActivities<BillingActivities>({
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '2 minutes',
  retry: { initialInterval: '30 seconds', maximumAttempts: 3 },
});

/** Scheduled: reports the billed workspaces' overage queries to the billing provider as meter events. */
export async function meterReportWorkflow(): Promise<OverageReport> {
  return reportUsageOverage();
}
