import { defineQuery, proxyActivities, setHandler } from '@temporalio/workflow';
import type { BillingActivities } from '../activities/billing-activities';
import type { OverageReport } from '../billing/overage-reporter';

export interface MeterReportStatus {
  state: 'reporting' | 'reported';
  /** What the run sent, once it has ended. */
  report: OverageReport | null;
}

export const meterReportStatusQuery = defineQuery<MeterReportStatus>('status');

const { reportUsageOverage } = proxyActivities<BillingActivities>({
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '2 minutes',
  retry: { initialInterval: '30 seconds', maximumAttempts: 3 },
});

/** Scheduled: reports the billed workspaces' overage queries to the billing provider as meter events. */
export async function meterReportWorkflow(): Promise<OverageReport> {
  const status: MeterReportStatus = { state: 'reporting', report: null };
  setHandler(meterReportStatusQuery, () => status);
  status.report = await reportUsageOverage();
  status.state = 'reported';
  return status.report;
}
