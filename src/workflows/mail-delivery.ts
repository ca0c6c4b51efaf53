import { proxyActivities } from '@temporalio/workflow';
import type { MailActivities } from '../activities/mail-activities';

// Delivery retries with backoff for up to three days: an SMTP outage loses no mail.
const { deliverOutboxMail } = proxyActivities<MailActivities>({
  startToCloseTimeout: '1 minute',
  scheduleToCloseTimeout: '3 days',
  retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumInterval: '10 minutes' },
});
const { startStrandedMailDeliveries } = proxyActivities<MailActivities>({ startToCloseTimeout: '5 minutes' });

/** Delivers one outbox message. */
export async function mailDeliveryWorkflow(outboxId: string): Promise<void> {
  await deliverOutboxMail(outboxId);
}

/** Scheduled: starts delivery for outbox messages whose workflow could not be started at the time. */
export async function mailOutboxSweepWorkflow(): Promise<number> {
  return startStrandedMailDeliveries();
}
